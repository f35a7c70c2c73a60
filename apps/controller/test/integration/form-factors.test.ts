/**
 * The Knative Service form factor (docs/spec/children-and-status.md §3.3, §8.3, §8.7), its missing API
 * (docs/spec/registration.md §4 CONTROLLERFAILED), and pruning on form-factor changes (§6).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { KubeObject } from '@scoby/kube-objects';
import { crdFor, startTestCluster, type TestCluster } from '../support/cluster.ts';
import {
  conditionOf,
  conditionsOf,
  editRegistration,
  namespaceObject,
  registrationObject,
  registrationTarget,
  waitForCondition,
  writesIn,
} from '../support/scoby.ts';

let cluster: TestCluster;

beforeAll(async () => {
  cluster = await startTestCluster();
  await cluster.apply(namespaceObject('shop'));
  await cluster.apply(crdFor({ group: 'serverless.example.com', kind: 'Function', plural: 'functions' }));
  await cluster.apply(crdFor({ group: 'web.example.com', kind: 'Site', plural: 'sites' }));
  await cluster.apply(crdFor({ group: 'api.example.com', kind: 'Endpoint', plural: 'endpoints' }));
});
afterAll(() => cluster.stop());

const LABELS = (registration: string, instance: string) => ({
  'app.kubernetes.io/name': registration,
  'app.kubernetes.io/instance': instance,
  'app.kubernetes.io/component': 'workload',
  'app.kubernetes.io/part-of': 'scoby-component',
  'app.kubernetes.io/managed-by': 'scoby-controller',
});

const ADAPTER = {
  name: 'adapter',
  terminationMessagePolicy: 'FallbackToLogsOnError',
  securityContext: { allowPrivilegeEscalation: false, readOnlyRootFilesystem: true },
};

const knativeCrd = () => crdFor({ group: 'serving.knative.dev', kind: 'Service', plural: 'services' });

function ownerOf(instance: KubeObject) {
  return [
    {
      apiVersion: instance.apiVersion,
      kind: instance.kind,
      name: instance.metadata.name,
      uid: instance.metadata.uid,
      controller: true,
      blockOwnerDeletion: true,
    },
  ];
}

describe('knativeService form factor', () => {
  const fn = { apiVersion: 'serverless.example.com/v1', kind: 'Function', namespace: 'shop', name: 'resize' };

  it('fails with CONTROLLERFAILED while Knative Serving is not installed', async () => {
    await cluster.apply(
      registrationObject('fn', {
        crd: 'functions.serverless.example.com',
        workload: {
          fromImage: { repo: 'registry.example.com/fn:2' },
          formFactor: { knativeService: { minScale: 1, maxScale: 5, visibility: 'cluster-local' } },
          parameterConfiguration: { add: { toEnv: [{ name: 'MODE', value: 'thumbnail' }] } },
        },
      }),
    );
    const failed = await waitForCondition(cluster, registrationTarget('fn'), 'ControllerReady', 'False');
    const message =
      'form factor "knativeService" needs API serving.knative.dev/v1, which the cluster does not serve';
    expect(conditionsOf(failed)).toEqual([
      { type: 'CRDExists', status: 'True', reason: 'CRDEXIST', message: '' },
      { type: 'ControllerReady', status: 'False', reason: 'CONTROLLERFAILED', message },
      { type: 'Ready', status: 'False', reason: 'CONTROLLERFAILED', message },
      { type: 'Reconciling', status: 'True', reason: 'CONTROLLERFAILED', message },
    ]);
  });

  it('starts once the Knative Service CRD is installed, and renders the exact Knative Service', async () => {
    await cluster.apply(knativeCrd());
    await waitForCondition(cluster, registrationTarget('fn'), 'Ready', 'True');
    const instance = await cluster.apply({
      apiVersion: fn.apiVersion,
      kind: fn.kind,
      metadata: { name: fn.name, namespace: fn.namespace },
      spec: { width: 640 },
    });
    const ksvc = await cluster.waitFor('ksvc', () =>
      cluster.get('serving.knative.dev/v1', 'Service', 'shop', 'fn-resize'),
    );
    expect(ksvc.metadata.labels).toEqual({
      ...LABELS('fn', 'resize'),
      'networking.knative.dev/visibility': 'cluster-local',
    });
    expect(ksvc.metadata.ownerReferences).toEqual(ownerOf(instance));
    expect(Object.keys(ksvc.metadata.annotations ?? {})).toEqual(['scoby.triggermesh.io/desired-hash']);
    expect(ksvc.spec).toEqual({
      template: {
        metadata: {
          annotations: { 'autoscaling.knative.dev/min-scale': '1', 'autoscaling.knative.dev/max-scale': '5' },
        },
        spec: {
          containers: [
            {
              ...ADAPTER,
              image: 'registry.example.com/fn:2',
              env: [
                { name: 'MODE', value: 'thumbnail' },
                { name: 'WIDTH', value: '640' },
              ],
            },
          ],
        },
      },
    });

    const ready = await waitForCondition(cluster, fn, 'Ready', 'True');
    expect(conditionsOf(ready)).toEqual([
      { type: 'KnativeServiceReady', status: 'True', reason: 'KNSERVICEOK', message: '' },
      { type: 'Ready', status: 'True', reason: 'CONDITIONSOK', message: '' },
    ]);
    expect(ready.status).toMatchObject({
      observedGeneration: 1,
      address: { url: 'http://fn-resize.shop.svc.cluster.local' },
    });
    expect(Object.keys(ready.status as object).sort()).toEqual([
      'address',
      'conditions',
      'observedGeneration',
    ]);
  });
});

describe('pruning on form-factor changes', () => {
  it('replaces Deployment and Service with a Knative Service when the form factor is switched', async () => {
    await cluster.waitFor('Knative API served', () =>
      cluster.client.resourceFor('serving.knative.dev/v1', 'Service'),
    );
    await cluster.apply(
      registrationObject('site', {
        crd: 'sites.web.example.com',
        workload: {
          fromImage: { repo: 'registry.example.com/site:1' },
          formFactor: { deployment: { replicas: 1, service: { port: 80, targetPort: 8080 } } },
        },
      }),
    );
    await waitForCondition(cluster, registrationTarget('site'), 'Ready', 'True');
    const site = { apiVersion: 'web.example.com/v1', kind: 'Site', namespace: 'shop', name: 'blog' };
    await cluster.apply({
      apiVersion: site.apiVersion,
      kind: site.kind,
      metadata: { name: site.name, namespace: site.namespace },
      spec: {},
    });
    await waitForCondition(cluster, site, 'ServiceReady', 'True');
    await waitForCondition(cluster, site, 'Ready', 'True');

    cluster.server.requestLog.clear();
    await editRegistration(cluster, 'site', (spec) => {
      (spec.workload as Record<string, unknown>).formFactor = { knativeService: {} };
    });
    const ready = await cluster.waitFor('Knative Service ready', async () => {
      const object = await cluster.get(site.apiVersion, site.kind, site.namespace, site.name);
      return hasTrue(object, 'KnativeServiceReady') && hasTrue(object, 'Ready') ? object : undefined;
    });
    expect(conditionsOf(ready)).toEqual([
      { type: 'KnativeServiceReady', status: 'True', reason: 'KNSERVICEOK', message: '' },
      { type: 'Ready', status: 'True', reason: 'CONDITIONSOK', message: '' },
    ]);
    expect(await cluster.get('apps/v1', 'Deployment', 'shop', 'site-blog')).toBeUndefined();
    expect(await cluster.get('v1', 'Service', 'shop', 'site-blog')).toBeUndefined();
    expect(await cluster.get('serving.knative.dev/v1', 'Service', 'shop', 'site-blog')).toBeDefined();
    const childWrites = writesIn(cluster.server.requestLog.entries(), '/namespaces/shop/').filter(
      (entry) => !entry.path.includes('/events') && !entry.path.includes('/sites/'),
    );
    expect(childWrites).toEqual([
      { method: 'DELETE', path: '/apis/apps/v1/namespaces/shop/deployments/site-blog' },
      { method: 'DELETE', path: '/api/v1/namespaces/shop/services/site-blog' },
      { method: 'POST', path: '/apis/serving.knative.dev/v1/namespaces/shop/services' },
    ]);
  });

  it('prunes the Service when the service block is removed', async () => {
    await cluster.apply(
      registrationObject('api', {
        crd: 'endpoints.api.example.com',
        workload: {
          fromImage: { repo: 'registry.example.com/api:1' },
          formFactor: { deployment: { replicas: 2, service: { port: 8080, targetPort: 8080 } } },
        },
      }),
    );
    await waitForCondition(cluster, registrationTarget('api'), 'Ready', 'True');
    const endpoint = { apiVersion: 'api.example.com/v1', kind: 'Endpoint', namespace: 'shop', name: 'users' };
    await cluster.apply({
      apiVersion: endpoint.apiVersion,
      kind: endpoint.kind,
      metadata: { name: endpoint.name, namespace: endpoint.namespace },
      spec: {},
    });
    const withService = await waitForCondition(cluster, endpoint, 'Ready', 'True');
    expect((withService.status as { address?: unknown }).address).toEqual({
      url: 'http://api-users.shop.svc.cluster.local:8080',
    });

    await editRegistration(cluster, 'api', (spec) => {
      (spec.workload as Record<string, unknown>).formFactor = { deployment: { replicas: 2 } };
    });
    await cluster.waitFor(
      'Service pruned',
      async () => (await cluster.get('v1', 'Service', 'shop', 'api-users')) === undefined,
    );
    const ready = await cluster.waitFor('ServiceReady dropped', async () => {
      const object = await cluster.get(endpoint.apiVersion, endpoint.kind, endpoint.namespace, endpoint.name);
      return conditionsOf(object).length === 2 && hasTrue(object, 'Ready') ? object : undefined;
    });
    expect(conditionsOf(ready)).toEqual([
      { type: 'DeploymentReady', status: 'True', reason: 'MinimumReplicasAvailable', message: '' },
      { type: 'Ready', status: 'True', reason: 'CONDITIONSOK', message: '' },
    ]);
    // Without a configured Service the address is not managed: the last value stays.
    expect((ready.status as { address?: unknown }).address).toEqual({
      url: 'http://api-users.shop.svc.cluster.local:8080',
    });
    expect(await cluster.get('apps/v1', 'Deployment', 'shop', 'api-users')).toBeDefined();
  });
});

function hasTrue(object: KubeObject | undefined, type: string): boolean {
  return conditionOf(object, type)?.status === 'True';
}
