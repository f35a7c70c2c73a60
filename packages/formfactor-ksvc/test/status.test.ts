import type { KubeObject } from '@scoby/kube-objects';
import { describe, expect, it } from 'vitest';
import { knativeServiceFormFactor } from '../src/index.ts';
import { renderFor, resolvedBlock } from './fixtures.ts';

function observedKsvc(status: unknown): KubeObject {
  return {
    apiVersion: 'serving.knative.dev/v1',
    kind: 'Service',
    metadata: { name: 'mailer-orders', namespace: 'shop' },
    status,
  };
}

function statusOf(observed: KubeObject | undefined) {
  return knativeServiceFormFactor.status({
    block: resolvedBlock({}),
    children: renderFor({}),
    observed: { ksvc: observed },
    clusterDomain: 'cluster.local',
  });
}

function readyWith(fields: Record<string, unknown>) {
  return observedKsvc({
    conditions: [
      { type: 'ConfigurationsReady', status: 'True' },
      { type: 'Ready', ...fields },
    ],
  });
}

describe('KnativeServiceReady (§8.3)', () => {
  it.each([
    [
      'True',
      { status: 'True', reason: 'Ignored', message: 'ignored' },
      { status: 'True', reason: 'KNSERVICEOK', message: '' },
    ],
    [
      'False',
      {
        status: 'False',
        reason: 'RevisionMissing',
        message: 'Configuration "mailer-orders" does not have any ready Revision.',
      },
      {
        status: 'False',
        reason: 'RevisionMissing',
        message: 'Configuration "mailer-orders" does not have any ready Revision.',
      },
    ],
    ['False without reason or message', { status: 'False' }, { status: 'False', reason: '', message: '' }],
    [
      'Unknown',
      { status: 'Unknown', reason: 'Deploying', message: 'waiting' },
      { status: 'Unknown', reason: 'KNSERVICEUNKOWN', message: 'waiting' },
    ],
    [
      'another value',
      { status: 'Pending' },
      {
        status: 'Unknown',
        reason: 'KNSERVICEUNKOWN',
        message: '"Ready" condition for knative service contains an unexpected status: Pending',
      },
    ],
  ])('Ready %s', (_case, condition, expected) => {
    expect(statusOf(readyWith(condition)).conditions).toStrictEqual({ KnativeServiceReady: expected });
  });

  it.each([
    ['not found', undefined],
    ['without status', observedKsvc(undefined)],
    ['without a Ready condition', observedKsvc({ conditions: [{ type: 'RoutesReady', status: 'True' }] })],
  ])('is Unknown/KNSERVICEUNKOWN/"" when the Knative Service is %s', (_case, observed) => {
    expect(statusOf(observed).conditions).toStrictEqual({
      KnativeServiceReady: { status: 'Unknown', reason: 'KNSERVICEUNKOWN', message: '' },
    });
  });
});

describe('address (§8.7)', () => {
  it('is the observed status.address.url', () => {
    expect(
      statusOf(observedKsvc({ address: { url: 'http://mailer-orders.shop.svc.cluster.local' } })).address,
    ).toStrictEqual({
      kind: 'url',
      url: 'http://mailer-orders.shop.svc.cluster.local',
    });
  });

  it.each([
    ['not found', undefined],
    ['without status', observedKsvc(undefined)],
    ['without address', observedKsvc({})],
    ['with an empty url', observedKsvc({ address: { url: '' } })],
    ['with a non-string url', observedKsvc({ address: { url: 42 } })],
    ['with a non-object address', observedKsvc({ address: 'http://x' })],
  ])('is removed when the Knative Service is %s', (_case, observed) => {
    expect(statusOf(observed).address).toStrictEqual({ kind: 'none' });
  });
});

describe('declarations (§2)', () => {
  it('manages Knative Services and needs Knative Serving', () => {
    expect(knativeServiceFormFactor.requiredApis).toStrictEqual(['serving.knative.dev/v1']);
    expect(knativeServiceFormFactor.managedKinds).toStrictEqual([
      { apiVersion: 'serving.knative.dev/v1', kind: 'Service' },
    ]);
    expect(knativeServiceFormFactor.conditionTypes).toStrictEqual(['KnativeServiceReady']);
  });
});
