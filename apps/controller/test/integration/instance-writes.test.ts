/**
 * What the controller writes for instances: nothing to status without a status subresource
 * (docs/spec/children-and-status.md §7.2), nothing at all in a steady state (§5.3, §8.11), and nothing outside
 * the working namespaces (README, WORKING_NAMESPACES).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { KubeObject } from '@scoby/kube-objects';
import { crdFor, startTestCluster, type TestCluster } from '../support/cluster.ts';
import {
  conditionsOf,
  namespaceObject,
  reconcileCount,
  registrationObject,
  registrationTarget,
  sleep,
  waitForCondition,
  writesIn,
} from '../support/scoby.ts';

/** A registration of image `registry.example.com/<name>:1` with the given further workload fields, Ready. */
async function register(
  cluster: TestCluster,
  name: string,
  crd: string,
  workload: Record<string, unknown> = {},
): Promise<void> {
  await cluster.apply(
    registrationObject(name, {
      crd,
      workload: { fromImage: { repo: `registry.example.com/${name}:1` }, ...workload },
    }),
  );
  await waitForCondition(cluster, registrationTarget(name), 'Ready', 'True');
}

function instanceOf(
  apiVersion: string,
  kind: string,
  namespace: string,
  name: string,
  spec: Record<string, unknown> = {},
): KubeObject {
  return { apiVersion, kind, metadata: { name, namespace }, spec };
}

describe('one cluster, all namespaces', () => {
  let cluster: TestCluster;

  beforeAll(async () => {
    cluster = await startTestCluster();
    await cluster.apply(namespaceObject('shop'));
  });
  afterAll(() => cluster.stop());

  it('never writes status when the CRD has no status subresource, yet creates the children', async () => {
    await cluster.apply(crdFor({ group: 'plain.example.com', kind: 'Job', plural: 'jobs', status: 'none' }));
    await register(cluster, 'job', 'jobs.plain.example.com');
    cluster.server.requestLog.clear();
    await cluster.apply(instanceOf('plain.example.com/v1', 'Job', 'shop', 'nightly', { schedule: 'daily' }));
    const deployment = await cluster.waitFor('deployment available', async () => {
      const object = await cluster.get('apps/v1', 'Deployment', 'shop', 'job-nightly');
      return (object?.status as { availableReplicas?: number } | undefined)?.availableReplicas === 1
        ? object
        : undefined;
    });
    expect(deployment.metadata.ownerReferences?.[0]?.kind).toBe('Job');
    // The Deployment's status change triggers a further reconcile, which must not write status either.
    await sleep(300);
    expect(writesIn(cluster.server.requestLog.entries(), '/jobs')).toEqual([
      { method: 'POST', path: '/apis/plain.example.com/v1/namespaces/shop/jobs' },
    ]);
    expect(
      cluster.server.requestLog
        .entries()
        .filter((entry) => entry.path.includes('/jobs/') && entry.path.endsWith('/status')),
    ).toEqual([]);
    expect(await cluster.get('plain.example.com/v1', 'Job', 'shop', 'nightly')).not.toHaveProperty('status');
  });

  it('creates children with POST, applies changes to them, and merge-patches status changes', async () => {
    await cluster.apply(crdFor({ group: 'patch.example.com', kind: 'Gate', plural: 'gates' }));
    await register(cluster, 'gate', 'gates.patch.example.com', {
      formFactor: { deployment: { service: { port: 80, targetPort: 8080 } } },
    });
    cluster.server.requestLog.clear();
    await cluster.apply(instanceOf('patch.example.com/v1', 'Gate', 'shop', 'main'));
    await waitForCondition(
      cluster,
      { apiVersion: 'patch.example.com/v1', kind: 'Gate', namespace: 'shop', name: 'main' },
      'Ready',
      'True',
    );
    await sleep(200);
    const entries = cluster.server.requestLog.entries();
    const childWrites = entries.filter(
      (entry) =>
        entry.method !== 'GET' &&
        (entry.path.endsWith('/gate-main') ||
          (entry.body as KubeObject | undefined)?.metadata?.name === 'gate-main'),
    );
    // A POST fails when the name is taken, where an apply would merge into someone else's object.
    expect(
      childWrites.map(({ method, path, query, contentType }) => ({ method, path, query, contentType })),
    ).toEqual([
      {
        method: 'POST',
        path: '/apis/apps/v1/namespaces/shop/deployments',
        query: { fieldManager: 'scoby-controller' },
        contentType: 'application/json',
      },
      {
        method: 'POST',
        path: '/api/v1/namespaces/shop/services',
        query: { fieldManager: 'scoby-controller' },
        contentType: 'application/json',
      },
    ]);
    const statusPatches = entries.filter(
      (entry) => entry.path === '/apis/patch.example.com/v1/namespaces/shop/gates/main/status',
    );
    expect(statusPatches.map(({ method, contentType }) => ({ method, contentType }))).toEqual([
      { method: 'PATCH', contentType: 'application/merge-patch+json' },
      { method: 'PATCH', contentType: 'application/merge-patch+json' },
    ]);
    const time = expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
    expect(statusPatches[0]?.body).toEqual({
      status: {
        observedGeneration: 1,
        address: { url: 'http://gate-main.shop.svc.cluster.local' },
        conditions: [
          {
            type: 'DeploymentReady',
            status: 'Unknown',
            reason: 'DeploymentUnknown',
            message: '',
            lastTransitionTime: time,
          },
          { type: 'Ready', status: 'Unknown', reason: 'UNKNOWN', message: '', lastTransitionTime: time },
          {
            type: 'Reconciling',
            status: 'True',
            reason: 'Progressing',
            message: 'DeploymentReady=Unknown for Deployment shop/gate-main: DeploymentUnknown',
            lastTransitionTime: time,
          },
          {
            type: 'ServiceReady',
            status: 'True',
            reason: 'ServiceExist',
            message: '',
            lastTransitionTime: time,
          },
        ],
      },
    });
    // Only what changed; conditions are sent whole.
    expect(statusPatches[1]?.body).toEqual({
      status: {
        conditions: [
          {
            type: 'DeploymentReady',
            status: 'True',
            reason: 'MinimumReplicasAvailable',
            message: '',
            lastTransitionTime: time,
          },
          { type: 'Ready', status: 'True', reason: 'CONDITIONSOK', message: '', lastTransitionTime: time },
          {
            type: 'ServiceReady',
            status: 'True',
            reason: 'ServiceExist',
            message: '',
            lastTransitionTime: time,
          },
        ],
      },
    });

    // A change is applied, naming the child by uid; first the fields Scoby's create set (owned by its
    // Update entry) are handed to its Apply entry, so that applies can remove them later.
    const created = await cluster.get('apps/v1', 'Deployment', 'shop', 'gate-main');
    cluster.server.requestLog.clear();
    await cluster.apply(instanceOf('patch.example.com/v1', 'Gate', 'shop', 'main', { tier: 'gold' }));
    await cluster.waitFor('the Deployment with the new variable', async () => {
      const deployment = await cluster.get('apps/v1', 'Deployment', 'shop', 'gate-main');
      const containers = (deployment?.spec as { template: { spec: { containers: { env?: unknown[] }[] } } })
        .template.spec.containers;
      return JSON.stringify(containers[0]?.env ?? []).includes('TIER') ? true : undefined;
    });
    const updates = cluster.server.requestLog
      .entries()
      .filter(
        (entry) =>
          entry.method !== 'GET' && entry.path === '/apis/apps/v1/namespaces/shop/deployments/gate-main',
      );
    expect(
      updates.map(({ method, query, contentType, body }) => ({ method, query, contentType, body })),
    ).toEqual([
      {
        method: 'PATCH',
        query: { fieldManager: 'scoby-controller' },
        contentType: 'application/json-patch+json',
        body: [
          { op: 'test', path: '/metadata/managedFields/0/manager', value: 'scoby-controller' },
          { op: 'test', path: '/metadata/managedFields/0/operation', value: 'Update' },
          { op: 'replace', path: '/metadata/managedFields/0/operation', value: 'Apply' },
        ],
      },
      {
        method: 'PATCH',
        query: { fieldManager: 'scoby-controller', force: 'true' },
        contentType: 'application/apply-patch+yaml',
        body: expect.objectContaining({
          metadata: expect.objectContaining({ name: 'gate-main', uid: created?.metadata.uid }),
        }),
      },
    ]);
  });

  it('makes zero writes over several reconciles once converged', async () => {
    await cluster.apply(crdFor({ group: 'steady.example.com', kind: 'Feed', plural: 'feeds' }));
    await register(cluster, 'feed', 'feeds.steady.example.com', {
      formFactor: { deployment: { service: { port: 80, targetPort: 8080 } } },
      parameterConfiguration: {
        add: { toEnv: [{ name: 'POD_NAME', valueFrom: { field: { fieldPath: 'metadata.name' } } }] },
      },
    });
    const target = { apiVersion: 'steady.example.com/v1', kind: 'Feed', namespace: 'shop', name: 'news' };
    await cluster.apply(
      instanceOf(target.apiVersion, target.kind, 'shop', 'news', { url: 'https://news.example.com/rss' }),
    );
    const ready = await waitForCondition(cluster, target, 'Ready', 'True');
    expect(conditionsOf(ready).map((condition) => condition.type)).toEqual([
      'DeploymentReady',
      'Ready',
      'ServiceReady',
    ]);
    await sleep(300);

    const before = await reconcileCount(cluster.controller.metrics, 'feed');
    cluster.server.requestLog.clear();
    for (const round of ['1', '2', '3']) {
      await cluster.edit({ ...target, namespace: 'shop', name: 'news' }, (current) => ({
        ...current,
        metadata: { ...current.metadata, labels: { round } },
      }));
      await sleep(100);
    }
    // A child changed by someone else in a field Scoby does not set: its owner is reconciled, nothing is written.
    const feedNews = { apiVersion: 'apps/v1', kind: 'Deployment', namespace: 'shop', name: 'feed-news' };
    await cluster.edit(feedNews, (deployment) => ({
      ...deployment,
      metadata: {
        ...deployment.metadata,
        annotations: { ...deployment.metadata.annotations, 'example.com/audited': 'yes' },
      },
    }));
    await sleep(300);

    expect(await reconcileCount(cluster.controller.metrics, 'feed')).toBeGreaterThanOrEqual(before + 4);
    expect(writesIn(cluster.server.requestLog.entries())).toEqual([
      { method: 'PUT', path: '/apis/steady.example.com/v1/namespaces/shop/feeds/news' },
      { method: 'PUT', path: '/apis/steady.example.com/v1/namespaces/shop/feeds/news' },
      { method: 'PUT', path: '/apis/steady.example.com/v1/namespaces/shop/feeds/news' },
      { method: 'PUT', path: '/apis/apps/v1/namespaces/shop/deployments/feed-news' },
    ]);
  });
});

describe('WORKING_NAMESPACES', () => {
  let cluster: TestCluster;

  beforeAll(async () => {
    cluster = await startTestCluster({ workingNamespaces: ['team-a'] });
    for (const name of ['team-a', 'team-b']) await cluster.apply(namespaceObject(name));
    await cluster.apply(crdFor({ group: 'scoped.example.com', kind: 'Bot', plural: 'bots' }));
    await register(cluster, 'bot', 'bots.scoped.example.com');
  });
  afterAll(() => cluster.stop());

  it('reconciles instances in the working namespaces only', async () => {
    await cluster.apply(instanceOf('scoped.example.com/v1', 'Bot', 'team-b', 'outside'));
    await cluster.apply(instanceOf('scoped.example.com/v1', 'Bot', 'team-a', 'inside'));
    await waitForCondition(
      cluster,
      { apiVersion: 'scoped.example.com/v1', kind: 'Bot', namespace: 'team-a', name: 'inside' },
      'Ready',
      'True',
    );
    expect(await cluster.get('apps/v1', 'Deployment', 'team-a', 'bot-inside')).toBeDefined();
    await sleep(200);
    expect(await cluster.get('apps/v1', 'Deployment', 'team-b', 'bot-outside')).toBeUndefined();
    expect(await cluster.get('scoped.example.com/v1', 'Bot', 'team-b', 'outside')).not.toHaveProperty(
      'status',
    );
    expect(writesIn(cluster.server.requestLog.entries(), '/namespaces/team-b/')).toEqual([
      { method: 'POST', path: '/apis/scoped.example.com/v1/namespaces/team-b/bots' },
    ]);
  });
});
