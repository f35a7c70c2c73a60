import type { KubeObject } from '@scoby/kube-objects';
import { describe, expect, it } from 'vitest';
import { deploymentFormFactor } from '../src/index.ts';
import { renderFor, resolvedBlock } from './fixtures.ts';

function deploymentWith(conditions: unknown): KubeObject {
  return {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name: 'mailer-orders' },
    status: { conditions },
  };
}

function available(fields: Record<string, unknown>) {
  return deploymentWith([
    { type: 'Progressing', status: 'True', reason: 'NewReplicaSetAvailable' },
    { type: 'Available', ...fields },
  ]);
}

function readiness(observedDeployment: KubeObject | undefined) {
  const block = resolvedBlock({});
  const children = renderFor({});
  return deploymentFormFactor.status({
    block,
    children,
    observed: { deployment: observedDeployment },
    clusterDomain: 'cluster.local',
  }).conditions['DeploymentReady'];
}

describe('DeploymentReady (§8.3)', () => {
  it.each([
    [
      'True with a reason',
      { status: 'True', reason: 'MinimumReplicasAvailable', message: 'ok' },
      { status: 'True', reason: 'MinimumReplicasAvailable', message: '' },
    ],
    [
      'True without a reason',
      { status: 'True' },
      { status: 'True', reason: 'DeploymentAvailable', message: '' },
    ],
    [
      'True with an empty reason',
      { status: 'True', reason: '' },
      { status: 'True', reason: 'DeploymentAvailable', message: '' },
    ],
    [
      'False with reason and message',
      {
        status: 'False',
        reason: 'MinimumReplicasUnavailable',
        message: 'Deployment does not have minimum availability.',
      },
      {
        status: 'False',
        reason: 'MinimumReplicasUnavailable',
        message: 'Deployment does not have minimum availability.',
      },
    ],
    [
      'False without a reason',
      { status: 'False', message: 'quota' },
      { status: 'False', reason: 'DeploymentUnavailable', message: 'quota' },
    ],
    [
      'Unknown',
      { status: 'Unknown', reason: 'Whatever', message: 'checking' },
      { status: 'Unknown', reason: 'DeploymentUnknown', message: 'checking' },
    ],
    [
      'another value',
      { status: 'Maybe', reason: 'X', message: 'y' },
      {
        status: 'Unknown',
        reason: 'DeploymentUnknown',
        message: '"Available" condition for deployment contains an unexpected status: Maybe',
      },
    ],
  ])('Available %s', (_case, condition, expected) => {
    expect(readiness(available(condition))).toStrictEqual(expected);
  });

  it.each([
    ['the Deployment is not found', undefined],
    ['it has no status yet', { apiVersion: 'apps/v1', kind: 'Deployment', metadata: {} }],
    ['it has no Available condition', deploymentWith([{ type: 'Progressing', status: 'True' }])],
    ['its conditions are not a list', deploymentWith({ Available: 'True' })],
  ])('is Unknown/DeploymentUnknown/"" when %s', (_case, observed) => {
    expect(readiness(observed as KubeObject | undefined)).toStrictEqual({
      status: 'Unknown',
      reason: 'DeploymentUnknown',
      message: '',
    });
  });

  it('takes ProgressDeadlineExceeded from Progressing, where kube-controller-manager writes it, while Available is not True', () => {
    const message = 'ReplicaSet "mailer-orders-5d4f" has timed out progressing.';
    const pastDeadline = deploymentWith([
      {
        type: 'Available',
        status: 'False',
        reason: 'MinimumReplicasUnavailable',
        message: 'Deployment does not have minimum availability.',
      },
      { type: 'Progressing', status: 'False', reason: 'ProgressDeadlineExceeded', message },
    ]);
    expect(readiness(pastDeadline)).toStrictEqual({
      status: 'False',
      reason: 'ProgressDeadlineExceeded',
      message,
    });
    const availableAnyway = deploymentWith([
      { type: 'Available', status: 'True', reason: 'MinimumReplicasAvailable' },
      { type: 'Progressing', status: 'False', reason: 'ProgressDeadlineExceeded', message },
    ]);
    expect(readiness(availableAnyway)).toStrictEqual({
      status: 'True',
      reason: 'MinimumReplicasAvailable',
      message: '',
    });
  });

  it('uses the first Available condition', () => {
    const twice = deploymentWith([
      { type: 'Available', status: 'False', reason: 'First' },
      { type: 'Available', status: 'True', reason: 'Second' },
    ]);
    expect(readiness(twice)).toStrictEqual({ status: 'False', reason: 'First', message: '' });
  });
});

describe('status with a configured Service (§8.3 ServiceReady, §8.7)', () => {
  const formFactor = { deployment: { replicas: 2, service: { port: 80, targetPort: 8080 } } };
  const block = resolvedBlock(formFactor);
  const children = renderFor(formFactor);
  const ready = available({ status: 'True', reason: 'MinimumReplicasAvailable' });

  it('reports both conditions and the Service URL without port 80', () => {
    expect(
      deploymentFormFactor.status({
        block,
        children,
        observed: { deployment: ready, service: children['service'] },
        clusterDomain: 'cluster.local',
      }),
    ).toStrictEqual({
      conditions: {
        DeploymentReady: { status: 'True', reason: 'MinimumReplicasAvailable', message: '' },
        ServiceReady: { status: 'True', reason: 'ServiceExist', message: '' },
      },
      address: { kind: 'url', url: 'http://mailer-orders.shop.svc.cluster.local' },
    });
  });

  it('reports a missing Service', () => {
    const status = deploymentFormFactor.status({
      block,
      children,
      observed: { deployment: undefined, service: undefined },
      clusterDomain: 'cluster.local',
    });
    expect(status.conditions).toStrictEqual({
      DeploymentReady: { status: 'Unknown', reason: 'DeploymentUnknown', message: '' },
      ServiceReady: { status: 'False', reason: 'ServiceDoesNotExist', message: '' },
    });
    expect(status.address).toStrictEqual({ kind: 'url', url: 'http://mailer-orders.shop.svc.cluster.local' });
  });

  it('writes a port other than 80 and uses the cluster domain', () => {
    const on8080 = { deployment: { service: { port: 8080, targetPort: 8080 } } };
    const status = deploymentFormFactor.status({
      block: resolvedBlock(on8080),
      children: renderFor(on8080),
      observed: {},
      clusterDomain: 'corp.example',
    });
    expect(status.address).toStrictEqual({
      kind: 'url',
      url: 'http://mailer-orders.shop.svc.corp.example:8080',
    });
  });

  it('takes name and port from the final child under key service, as a hook left it', () => {
    const service = children['service']!;
    const renamed: KubeObject = {
      ...service,
      metadata: { ...service.metadata, name: 'mail' },
      spec: { ports: [{ port: 9090 }, { port: 80 }] },
    };
    const status = deploymentFormFactor.status({
      block,
      children: { ...children, service: renamed },
      observed: {},
      clusterDomain: 'cluster.local',
    });
    expect(status.address).toStrictEqual({ kind: 'url', url: 'http://mail.shop.svc.cluster.local:9090' });
  });

  it('removes the URL when the final children have no service', () => {
    const status = deploymentFormFactor.status({
      block,
      children: { deployment: children['deployment']! },
      observed: {},
      clusterDomain: 'cluster.local',
    });
    expect(status.address).toStrictEqual({ kind: 'none' });
  });
});

describe('status without a Service', () => {
  it('reports only DeploymentReady and leaves the address alone, even when a hook added a Service', () => {
    const children = renderFor({});
    const hookService: KubeObject = {
      apiVersion: 'v1',
      kind: 'Service',
      metadata: { name: 'extra', namespace: 'shop' },
      spec: {},
    };
    expect(
      deploymentFormFactor.status({
        block: resolvedBlock({}),
        children: { ...children, service: hookService },
        observed: { deployment: undefined, service: hookService },
        clusterDomain: 'cluster.local',
      }),
    ).toStrictEqual({
      conditions: { DeploymentReady: { status: 'Unknown', reason: 'DeploymentUnknown', message: '' } },
      address: { kind: 'unmanaged' },
    });
  });
});

describe('the deployment form factor’s declarations (§2)', () => {
  it('is hooked as "deployment", manages Deployments and Services, and reports ServiceReady only with a Service', () => {
    expect(deploymentFormFactor.name).toBe('deployment');
    expect(deploymentFormFactor.hookName).toBe('deployment');
    expect(deploymentFormFactor.managedKinds).toStrictEqual([
      { apiVersion: 'apps/v1', kind: 'Deployment' },
      { apiVersion: 'v1', kind: 'Service' },
    ]);
    expect(deploymentFormFactor.conditionTypes).toStrictEqual(['DeploymentReady', 'ServiceReady']);
    expect(deploymentFormFactor.conditionTypesFor!(resolvedBlock({}))).toStrictEqual(['DeploymentReady']);
    expect(
      deploymentFormFactor.conditionTypesFor!(
        resolvedBlock({ deployment: { service: { port: 80, targetPort: 80 } } }),
      ),
    ).toStrictEqual(['DeploymentReady', 'ServiceReady']);
  });
});
