/**
 * The caches keep of a child only what is read (docs/spec/children-and-status.md §5.2): once a child is
 * found up to date, its metadata, status and fingerprint, frozen; an edit of a field the cache no
 * longer holds (a container's env) is still corrected; a kind a form factor declares nothing for is
 * cached whole.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deploymentFormFactor } from '@scoby/formfactor-deployment';
import { startTestCluster, type TestCluster } from '../support/cluster.ts';
import {
  containerEnv,
  DEPLOYMENTS,
  editEnvValue,
  expectSharedEmpties,
  expectSlim,
  greetWorld,
  SERVICES,
  waitForSlim,
} from '../support/child-cache.ts';
import { reconcileCount, sleep } from '../support/scoby.ts';

const INSTANCE = { apiVersion: 'cache.example.com/v1', kind: 'Greeter', namespace: 'shop', name: 'main' };

function registerGreeters(cluster: TestCluster): Promise<unknown> {
  return greetWorld(cluster, { group: 'cache.example.com', namespace: 'shop', registration: 'greeter' });
}

describe('children cached slim by the built-in form factors', () => {
  let cluster: TestCluster;

  beforeAll(async () => {
    cluster = await startTestCluster();
    await registerGreeters(cluster);
  });
  afterAll(() => cluster.stop());

  it('keeps of an up-to-date child its metadata and status only, frozen, and reads nothing more', async () => {
    const deployment = await waitForSlim(cluster, cluster.controller, DEPLOYMENTS, 'shop', 'greeter-main');
    expectSlim(deployment);
    expect(deployment.metadata).not.toHaveProperty('managedFields');
    expect(deployment.status).toMatchObject({ availableReplicas: 1 });
    const service = await waitForSlim(cluster, cluster.controller, SERVICES, 'shop', 'greeter-main');
    expectSlim(service);
    expect(service.status).toEqual({ loadBalancer: {} });
    expectSharedEmpties([deployment, service]);

    // A reconcile with the slim children in the cache (the instance changed, not its children)
    // decides that they are up to date without their spec: no read, no write of a child.
    const reconciles = await reconcileCount(cluster.controller.metrics, 'greeter');
    cluster.server.requestLog.clear();
    const main = { apiVersion: INSTANCE.apiVersion, kind: INSTANCE.kind, namespace: 'shop', name: 'main' };
    await cluster.edit(main, (instance) => ({
      ...instance,
      metadata: { ...instance.metadata, labels: { touched: 'yes' } },
    }));
    await cluster.waitFor(
      'the instance reconciled',
      async () => (await reconcileCount(cluster.controller.metrics, 'greeter')) > reconciles,
    );
    await sleep(200);
    const childRequests = cluster.server.requestLog
      .entries()
      .filter((entry) => entry.path.includes('/deployments') || entry.path.includes('/services'))
      .filter((entry) => !(entry.method === 'GET' && entry.query?.['watch'] === 'true'));
    expect(childRequests.map(({ method, path }) => ({ method, path }))).toEqual([]);
    expectSlim(cluster.controller.cached(DEPLOYMENTS, 'shop', 'greeter-main'));
  });

  it('corrects an edit of a child field its cache does not hold (a container env value)', async () => {
    await waitForSlim(cluster, cluster.controller, DEPLOYMENTS, 'shop', 'greeter-main');
    cluster.server.requestLog.clear();
    await editEnvValue(cluster, 'shop', 'greeter-main', 'GREETING', 'edited by hand');
    const restored = await cluster.waitFor('the env value restored', async () => {
      const live = await cluster.get('apps/v1', 'Deployment', 'shop', 'greeter-main');
      return containerEnv(live).find((env) => env.name === 'GREETING')?.value === 'hello' ? live : undefined;
    });
    expect(containerEnv(restored)).toEqual([{ name: 'GREETING', value: 'hello' }]);
    const applies = cluster.server.requestLog
      .entries()
      .filter((entry) => entry.method === 'PATCH' && entry.path.endsWith('/deployments/greeter-main'));
    expect(applies.map(({ contentType }) => contentType)).toContain('application/apply-patch+yaml');
    // Found up to date again once corrected: the cache holds the slim form again.
    expectSlim(await waitForSlim(cluster, cluster.controller, DEPLOYMENTS, 'shop', 'greeter-main'));
  });
});

describe('a kind a form factor declares no observed fields for', () => {
  let cluster: TestCluster;

  beforeAll(async () => {
    // A plugin managing Deployments that does not say what its status() reads.
    const { observedFields: _declared, hookName: _hookName, ...undeclared } = deploymentFormFactor;
    const plugin = {
      ...undeclared,
      name: 'wholeDeployment',
      managedKinds: [{ apiVersion: 'apps/v1', kind: 'Deployment' }],
    };
    cluster = await startTestCluster({ plugins: [plugin] });
    await registerGreeters(cluster);
  });
  afterAll(() => cluster.stop());

  it('is cached whole (without managedFields), for every registration managing it', async () => {
    await sleep(300);
    const deployment = cluster.controller.cached(DEPLOYMENTS, 'shop', 'greeter-main');
    expect(deployment).toBeDefined();
    expect(Object.isFrozen(deployment)).toBe(false);
    expect(containerEnv(deployment)).toEqual([{ name: 'GREETING', value: 'hello' }]);
    expect(deployment?.metadata).not.toHaveProperty('managedFields');
    expect(deployment?.metadata.creationTimestamp).toEqual(expect.any(String));
    // Services are managed by the built-in form factor only, which declares what it reads.
    expectSlim(await waitForSlim(cluster, cluster.controller, SERVICES, 'shop', 'greeter-main'));
  });
});
