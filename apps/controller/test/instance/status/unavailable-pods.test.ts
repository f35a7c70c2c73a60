/** Reading the Pods of a Deployment that is not available: when, how often, and what a refusal does. */
import { describe, expect, it } from 'vitest';
import type { KubeObject } from '@scoby/kube-objects';
import { ApiError, type DynamicClient } from '@scoby/controller-runtime';
import { captureLogs } from '@scoby/controller-runtime/testing';
import {
  POD_READ_INTERVAL_MS,
  unavailableDeployment,
  UnavailablePodReader,
} from '../../../src/instance/status/unavailable-pods.ts';

function deployment(available: string | undefined): KubeObject {
  return {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name: 'mailer-orders', namespace: 'shop' },
    spec: { selector: { matchLabels: { 'scoby.triggermesh.io/instance': 'orders', app: 'mailer' } } },
    status: available === undefined ? {} : { conditions: [{ type: 'Available', status: available }] },
  };
}

const ORDERS = { group: 'example.com', kind: 'Mailer', namespace: 'shop', name: 'orders' };
const POD: KubeObject = { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'mailer-orders-x' } };

function world(answer: () => KubeObject[]) {
  let now = 1_000_000;
  const lists: { namespace: string | undefined; query: unknown }[] = [];
  const client = {
    list: async (_ref: unknown, namespace: string | undefined, query: unknown) => {
      lists.push({ namespace, query });
      return { items: answer() };
    },
  } as unknown as DynamicClient;
  const logs = captureLogs('info');
  const reader = new UnavailablePodReader(client, () => now, logs.logger);
  return { reader, lists, logs, advance: (ms: number) => (now += ms) };
}

describe('unavailableDeployment', () => {
  it('is the namespace and selector of a Deployment its controller reported not available', () => {
    expect(unavailableDeployment(deployment('False'))).toEqual({
      namespace: 'shop',
      labelSelector: 'scoby.triggermesh.io/instance=orders,app=mailer',
    });
    expect(unavailableDeployment(deployment('Unknown'))).toBeDefined();
    expect(unavailableDeployment(deployment('True'))).toBeUndefined();
    // Just created: its controller has not looked yet.
    expect(unavailableDeployment(deployment(undefined))).toBeUndefined();
    expect(unavailableDeployment({ ...deployment('False'), kind: 'StatefulSet' })).toBeUndefined();
  });
});

describe('UnavailablePodReader', () => {
  it('reads nothing while every Deployment is available', async () => {
    const { reader, lists } = world(() => [POD]);
    expect(await reader.read(ORDERS, { deployment: deployment('True') })).toEqual({
      pods: {},
      unavailable: false,
    });
    expect(lists).toEqual([]);
  });

  it('lists by the selector at most once per interval, the answer reused in between', async () => {
    const { reader, lists, advance } = world(() => [POD]);
    const observed = { deployment: deployment('False'), service: undefined };
    const expected = { pods: { deployment: [POD] }, unavailable: true };
    expect(await reader.read(ORDERS, observed)).toEqual(expected);
    advance(POD_READ_INTERVAL_MS - 1);
    expect(await reader.read(ORDERS, observed)).toEqual(expected);
    expect(lists).toEqual([
      { namespace: 'shop', query: { labelSelector: 'scoby.triggermesh.io/instance=orders,app=mailer' } },
    ]);
    advance(1);
    await reader.read(ORDERS, observed);
    expect(lists).toHaveLength(2);
  });

  it('degrades when forbidden: no Pods, one info line per instance, looked at again later', async () => {
    const { reader, logs, advance } = world(() => {
      throw new ApiError(403, 'Forbidden', 'pods is forbidden: User "scoby" cannot list resource "pods"');
    });
    const observed = { deployment: deployment('False') };
    expect(await reader.read(ORDERS, observed)).toEqual({ pods: {}, unavailable: true });
    advance(POD_READ_INTERVAL_MS);
    expect(await reader.read(ORDERS, observed)).toEqual({ pods: {}, unavailable: true });
    expect(logs.lines().map((line) => [line.msg, line.instance])).toEqual([
      [
        'the Pods of a Deployment that is not available could not be read; DeploymentReady says only what the Deployment says',
        'shop/orders',
      ],
    ]);
  });
});
