/**
 * Convergence under API faults: dropped watches, expired resourceVersions (410), and failing child
 * writes (docs/spec/children-and-status.md §5.4: ApplyFailed, then Ready once the writes succeed).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { KubeObject } from '@scoby/kube-objects';
import { startTestCluster, type TestCluster } from '../support/cluster.ts';
import { conditionsOf, eventViews, registerKind, waitForCondition } from '../support/scoby.ts';

let cluster: TestCluster;
const api = 'faulty.example.com/v1';
const target = (name: string) => ({ apiVersion: api, kind: 'Sensor', namespace: 'shop', name });
const sensor = (name: string): KubeObject => ({
  apiVersion: api,
  kind: 'Sensor',
  metadata: { name, namespace: 'shop' },
  spec: {},
});

beforeAll(async () => {
  cluster = await startTestCluster();
  await registerKind(cluster, {
    namespace: 'shop',
    group: 'faulty.example.com',
    kind: 'Sensor',
    plural: 'sensors',
    registration: 'sensor',
  });
});
afterAll(() => cluster.stop());

describe('watch faults', () => {
  it('picks up new instances after every watch was dropped', async () => {
    cluster.server.faults.dropWatches();
    await cluster.apply(sensor('after-drop'));
    await waitForCondition(cluster, target('after-drop'), 'Ready', 'True');
  });

  it('relists after a watch resume is answered with 410 Expired', async () => {
    cluster.server.requestLog.clear();
    // Every informer resumes at once; enough expiries that the instance informer gets some.
    cluster.server.faults.expireNextWatch(20);
    cluster.server.faults.dropWatches();
    await cluster.apply(sensor('after-expiry'));
    await waitForCondition(cluster, target('after-expiry'), 'Ready', 'True');
    const relists = cluster.server.requestLog
      .entries()
      .filter(
        (entry) =>
          entry.method === 'GET' &&
          entry.path === '/apis/faulty.example.com/v1/sensors' &&
          entry.query.watch === undefined,
      );
    expect(relists.length).toBeGreaterThan(0);
    cluster.server.faults.reset();
  });
});

describe('failing child writes', () => {
  it('reports ApplyFailed, then converges to Ready', async () => {
    const message = 'Deployment "shop/sensor-flaky": etcd is unavailable';
    cluster.server.faults.failNext(
      { verb: 'create', resource: 'deployments', namespace: 'shop' },
      { code: 500, count: 2, message: 'etcd is unavailable' },
    );
    cluster.server.requestLog.clear();
    await cluster.apply(sensor('flaky'));
    const ready = await waitForCondition(cluster, target('flaky'), 'Ready', 'True');
    expect(conditionsOf(ready)).toEqual([
      { type: 'DeploymentReady', status: 'True', reason: 'MinimumReplicasAvailable', message: '' },
      { type: 'Ready', status: 'True', reason: 'CONDITIONSOK', message: '' },
    ]);

    const collection = '/apis/apps/v1/namespaces/shop/deployments';
    const childWrites = cluster.server.requestLog
      .entries()
      .filter(
        (entry) =>
          entry.path === `${collection}/sensor-flaky` ||
          (entry.path === collection && (entry.body as KubeObject).metadata.name === 'sensor-flaky'),
      )
      .map((entry) => ({ method: entry.method, code: entry.code }));
    // A name the cache lacks is created at once (a create fails, rather than merges, when the name is taken).
    expect(childWrites).toEqual([
      { method: 'POST', code: 500 },
      { method: 'POST', code: 500 },
      { method: 'POST', code: 201 },
    ]);
    // The failure was visible in the instance status before the retry succeeded.
    const statusPatches = cluster.server.requestLog
      .entries()
      .filter((entry) => entry.method === 'PATCH' && entry.path.endsWith('/sensors/flaky/status'))
      .map(
        (entry) =>
          (
            entry.body as {
              status: { conditions?: { type: string; status: string; reason: string; message: string }[] };
            }
          ).status,
      );
    expect(
      statusPatches[0]?.conditions?.map(({ type, status, reason, message }) => ({
        type,
        status,
        reason,
        message,
      })),
    ).toEqual([
      { type: 'DeploymentReady', status: 'Unknown', reason: 'UNKNOWN', message: '' },
      { type: 'Ready', status: 'False', reason: 'ApplyFailed', message },
      { type: 'Reconciling', status: 'True', reason: 'ApplyFailed', message },
    ]);
    const events = (await cluster.events('shop', 'flaky')).filter((event) => event.reason === 'ApplyFailed');
    expect(eventViews(events)).toEqual([{ type: 'Warning', reason: 'ApplyFailed', message }]);
    expect(events[0]?.count).toBe(2);
  });
});
