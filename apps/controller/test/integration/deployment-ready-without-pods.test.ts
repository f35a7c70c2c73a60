/**
 * docs/spec/children-and-status.md §8.3 in memory: the in-memory server serves no Pods (a listed
 * difference), so what can be shown here is the clean degradation. A Deployment its controller
 * reports not available has its Pods listed by its selector; the list fails (404 here, 403 where the
 * role lacks `list` on pods) and DeploymentReady says what the Deployment says, with one info line.
 * The Pods' own reasons are proven on the real control plane (test/real-cluster/deployment-ready-why.test.ts)
 * and in the form factor's unit tests: a behaviour of its own, not a scenario on two backends (the
 * in-memory server has no Pods to give reasons, and Scoby's shipped role may list them).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { captureLogs } from '@scoby/controller-runtime/testing';
import { crdFor, startTestCluster, type TestCluster } from '../support/cluster.ts';
import { conditionOf, namespaceObject, registrationObject, sleep } from '../support/scoby.ts';

const GROUP = 'why.example.com';
const API = `${GROUP}/v1`;
const CONTROLLER = 'scoby-controller';
const logs = captureLogs('info');
let cluster: TestCluster;

beforeAll(async () => {
  cluster = await startTestCluster({
    user: CONTROLLER,
    server: { simulate: { deployments: false } },
    logger: logs.logger,
  });
  await cluster.apply(namespaceObject('why'));
  await cluster.apply(crdFor({ group: GROUP, kind: 'Mailer', plural: 'mailers' }));
  await cluster.apply(
    registrationObject('why', {
      crd: `mailers.${GROUP}`,
      workload: { fromImage: { repo: 'registry.example.com/mailer:1' } },
    }),
  );
});
afterAll(() => cluster.stop());

const podLists = () =>
  cluster.server.requestLog
    .entries()
    .filter((entry) => entry.user === CONTROLLER && entry.path.startsWith('/api/v1/namespaces/why/pods'))
    .map((entry) => ({
      method: entry.method,
      path: entry.path,
      selector: entry.query.labelSelector,
      code: entry.code,
    }));

describe('DeploymentReady where the Pods cannot be read', () => {
  it("is the Deployment's verdict, after one list by its selector and one info line", async () => {
    await cluster.apply({
      apiVersion: API,
      kind: 'Mailer',
      metadata: { name: 'orders', namespace: 'why' },
      spec: {},
    });
    const deployment = await cluster.waitFor('the Deployment', () =>
      cluster.get('apps/v1', 'Deployment', 'why', 'why-orders'),
    );
    // Nothing is read while the Deployment's controller has not reported on it.
    await sleep(300);
    expect(podLists()).toEqual([]);
    const apps = (await cluster.client.resourceFor('apps/v1', 'Deployment'))!;
    await cluster.client.update(
      apps,
      {
        ...deployment,
        status: {
          observedGeneration: deployment.metadata.generation,
          replicas: 1,
          unavailableReplicas: 1,
          conditions: [
            {
              type: 'Available',
              status: 'False',
              reason: 'MinimumReplicasUnavailable',
              message: 'Deployment does not have minimum availability.',
            },
          ],
        },
      },
      { subresource: 'status' },
    );
    const mailer = await cluster.waitFor('DeploymentReady=False', async () => {
      const current = await cluster.get(API, 'Mailer', 'why', 'orders');
      return conditionOf(current, 'DeploymentReady')?.status === 'False' ? current : undefined;
    });
    expect(conditionOf(mailer, 'DeploymentReady')).toMatchObject({
      reason: 'MinimumReplicasUnavailable',
      message: 'Deployment does not have minimum availability.',
    });
    const deployed = (await cluster.get('apps/v1', 'Deployment', 'why', 'why-orders'))!;
    const matchLabels = (deployed.spec as { selector: { matchLabels: Record<string, string> } }).selector
      .matchLabels;
    expect(podLists()).toEqual([
      {
        method: 'GET',
        path: '/api/v1/namespaces/why/pods',
        selector: Object.entries(matchLabels)
          .map(([key, value]) => `${key}=${value}`)
          .join(','),
        code: 404,
      },
    ]);
    expect(logs.lines().filter((line) => String(line.msg).startsWith('the Pods of a Deployment'))).toEqual([
      expect.objectContaining({ instance: 'why/orders' }),
    ]);
  });
});
