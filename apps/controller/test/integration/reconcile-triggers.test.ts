/**
 * What triggers an instance reconcile (docs/spec/children-and-status.md §9): the watch events of the
 * controller's own writes (the children it creates, its status writes) do not; a change anyone else
 * makes to the instance or to a child does. Counted with controller_runtime_reconcile_total of a
 * registration whose only instance is the one under test.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { crdFor, startTestCluster, type TestCluster } from '../support/cluster.ts';
import {
  conditionOf,
  namespaceObject,
  reconcileCount,
  registrationObject,
  registrationTarget,
  sleep,
  waitForCondition,
  writesIn,
} from '../support/scoby.ts';

const API = 'triggers.example.com/v1';
const instance = { apiVersion: API, kind: 'Greeter', namespace: 'triggers', name: 'hello' };
const INSTANCE_PATH = '/apis/triggers.example.com/v1/namespaces/triggers/greeters/hello';
/** Long enough for the watch events of the last writes to arrive and any reconcile they cause to finish. */
const SETTLE_MS = 500;

let cluster: TestCluster;

beforeAll(async () => {
  // No simulated Deployment controller: nothing but the controller and the test writes.
  cluster = await startTestCluster({ server: { simulate: { deployments: false } } });
  await cluster.apply(namespaceObject('triggers'));
  await cluster.apply(crdFor({ group: 'triggers.example.com', kind: 'Greeter', plural: 'greeters' }));
  await cluster.apply(
    registrationObject('greeter', {
      crd: 'greeters.triggers.example.com',
      workload: {
        fromImage: { repo: 'registry.example.com/greeter:1' },
        formFactor: { deployment: { replicas: 1, service: { port: 80, targetPort: 8080 } } },
      },
    }),
  );
  await waitForCondition(cluster, registrationTarget('greeter'), 'Ready', 'True');
});
afterAll(() => cluster?.stop());

const reconciles = () => reconcileCount(cluster.controller.metrics, 'greeter');

describe('the watch events of the controller’s own writes', () => {
  it('cause no reconcile: a new instance is reconciled once for its children and status', async () => {
    const before = await reconciles();
    cluster.server.requestLog.clear();
    await cluster.apply({
      apiVersion: API,
      kind: 'Greeter',
      metadata: { namespace: 'triggers', name: 'hello' },
    });
    await cluster.waitFor('the first status', async () => {
      const stored = await cluster.get(API, 'Greeter', 'triggers', 'hello');
      return conditionOf(stored, 'Ready') !== undefined;
    });
    await sleep(SETTLE_MS);

    // The Deployment and Service created, the status written: their watch events come back unreconciled.
    expect((await reconciles()) - before).toBe(1);
    expect(writesIn(cluster.server.requestLog.entries(), '/namespaces/triggers/')).toEqual([
      { method: 'POST', path: `${INSTANCE_PATH.replace('/greeters/hello', '/greeters')}` },
      { method: 'POST', path: '/apis/apps/v1/namespaces/triggers/deployments' },
      { method: 'POST', path: '/api/v1/namespaces/triggers/services' },
      { method: 'PATCH', path: `${INSTANCE_PATH}/status` },
      { method: 'POST', path: '/api/v1/namespaces/triggers/events' },
    ]);
  });

  it('leave a change someone else makes to a child a trigger, and its status write no echo', async () => {
    const before = await reconciles();
    const deployments = await cluster.client.resourceFor('apps/v1', 'Deployment');
    await cluster.client.patch(
      deployments!,
      'triggers',
      'greeter-hello',
      {
        status: {
          observedGeneration: 1,
          replicas: 1,
          readyReplicas: 1,
          availableReplicas: 1,
          updatedReplicas: 1,
          conditions: [
            { type: 'Available', status: 'True', reason: 'MinimumReplicasAvailable', message: '' },
          ],
        },
      },
      { subresource: 'status' },
    );
    await waitForCondition(cluster, instance, 'Ready', 'True');
    await sleep(SETTLE_MS);

    expect((await reconciles()) - before).toBe(1);
  });

  it('leave a change someone else makes to the instance a trigger', async () => {
    const before = await reconciles();
    const hello = { apiVersion: API, kind: 'Greeter', namespace: 'triggers', name: 'hello' };
    await cluster.edit(hello, (current) => ({
      ...current,
      metadata: { ...current.metadata, labels: { touched: 'yes' } },
    }));
    await cluster.waitFor('a reconcile of the touched instance', async () => (await reconciles()) > before);
    await sleep(SETTLE_MS);

    expect((await reconciles()) - before).toBe(1);
  });
});
