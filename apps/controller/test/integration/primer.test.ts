import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { KubeObject } from '@scoby/kube-objects';
import { crdFor, startTestCluster, type TestCluster } from '../support/cluster.ts';

let cluster: TestCluster;

beforeAll(async () => {
  cluster = await startTestCluster();
  await cluster.apply(crdFor({ group: 'notify.example.com', kind: 'Mailer', plural: 'mailers' }));
  await cluster.apply({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'shop' } });
});
afterAll(() => cluster.stop());

const conditionsOf = (object: KubeObject | undefined) =>
  (
    (object?.status as { conditions?: { type: string; status: string; reason: string }[] } | undefined)
      ?.conditions ?? []
  ).map(({ type, status, reason }) => ({ type, status, reason }));

describe('primer: CRD + registration + instance → Deployment + Service + status', () => {
  it('reconciles the running example', async () => {
    await cluster.apply({
      apiVersion: 'scoby.triggermesh.io/v1alpha1',
      kind: 'CRDRegistration',
      metadata: { name: 'mailer' },
      spec: {
        crd: 'mailers.notify.example.com',
        workload: {
          fromImage: { repo: 'registry.example.com/mailer-adapter:1.4.2' },
          formFactor: { deployment: { replicas: 2, service: { port: 80, targetPort: 8080 } } },
          parameterConfiguration: {
            global: { defaultPrefix: 'MAILER_' },
            add: {
              toEnv: [{ name: 'POD_NAMESPACE', valueFrom: { field: { fieldPath: 'metadata.namespace' } } }],
            },
          },
        },
      },
    });
    const registration = await cluster.waitFor('registration Ready', async () => {
      const object = await cluster.get(
        'scoby.triggermesh.io/v1alpha1',
        'CRDRegistration',
        undefined,
        'mailer',
      );
      return conditionsOf(object).find((c) => c.type === 'Ready')?.status === 'True' ? object : undefined;
    });
    expect(conditionsOf(registration)).toEqual([
      { type: 'CRDExists', status: 'True', reason: 'CRDEXIST' },
      { type: 'ControllerReady', status: 'True', reason: 'CONTROLLERSTARTED' },
      { type: 'Ready', status: 'True', reason: 'CONDITIONSOK' },
    ]);
    expect(registration.metadata.finalizers).toEqual(['scoby.triggermesh.io/finalizer']);

    const instance = await cluster.apply({
      apiVersion: 'notify.example.com/v1',
      kind: 'Mailer',
      metadata: { name: 'orders', namespace: 'shop' },
      spec: { smtp: { host: 'mail.internal' } },
    });
    const deployment = await cluster.waitFor('deployment', () =>
      cluster.get('apps/v1', 'Deployment', 'shop', 'mailer-orders'),
    );
    const container = (deployment.spec as { template: { spec: { containers: Record<string, unknown>[] } } })
      .template.spec.containers[0];
    expect(container?.env).toEqual([
      { name: 'MAILER_SMTP_HOST', value: 'mail.internal' },
      // The API server defaults the fieldRef's apiVersion, as kube-apiserver does.
      {
        name: 'POD_NAMESPACE',
        valueFrom: { fieldRef: { apiVersion: 'v1', fieldPath: 'metadata.namespace' } },
      },
    ]);
    expect(deployment.metadata.ownerReferences).toEqual([
      {
        apiVersion: 'notify.example.com/v1',
        kind: 'Mailer',
        name: 'orders',
        uid: instance.metadata.uid,
        controller: true,
        blockOwnerDeletion: true,
      },
    ]);
    const service = await cluster.waitFor('service', () =>
      cluster.get('v1', 'Service', 'shop', 'mailer-orders'),
    );
    expect((service.spec as { ports: unknown[] }).ports).toEqual([
      { port: 80, targetPort: 8080, protocol: 'TCP' },
    ]);

    const ready = await cluster.waitFor('instance Ready', async () => {
      const object = await cluster.get('notify.example.com/v1', 'Mailer', 'shop', 'orders');
      return conditionsOf(object).find((c) => c.type === 'Ready')?.status === 'True' ? object : undefined;
    });
    expect(conditionsOf(ready)).toEqual([
      { type: 'DeploymentReady', status: 'True', reason: 'MinimumReplicasAvailable' },
      { type: 'Ready', status: 'True', reason: 'CONDITIONSOK' },
      { type: 'ServiceReady', status: 'True', reason: 'ServiceExist' },
    ]);
    expect((ready.status as Record<string, unknown>).address).toEqual({
      url: 'http://mailer-orders.shop.svc.cluster.local',
    });
    expect((ready.status as Record<string, unknown>).observedGeneration).toBe(1);
  });
});

describe('steady state', () => {
  it('makes no writes at all once converged, across resyncs of every instance', async () => {
    await cluster.waitFor('instance converged', async () => {
      const object = await cluster.get('notify.example.com/v1', 'Mailer', 'shop', 'orders');
      return conditionsOf(object).find((c) => c.type === 'Ready')?.status === 'True';
    });
    await new Promise((resolve) => setTimeout(resolve, 300));
    cluster.server.requestLog.clear();
    // Touch the instance's labels: a reconcile runs, and must find nothing to write.
    const orders = { apiVersion: 'notify.example.com/v1', kind: 'Mailer', namespace: 'shop', name: 'orders' };
    await cluster.edit(orders, (current) => ({
      ...current,
      metadata: { ...current.metadata, labels: { touched: 'yes' } },
    }));
    await new Promise((resolve) => setTimeout(resolve, 500));
    const writes = cluster.server.requestLog
      .entries()
      .filter(
        (entry) =>
          entry.method !== 'GET' && !(entry.method === 'PUT' && entry.path.endsWith('/mailers/orders')),
      );
    expect(writes).toEqual([]);
  });
});
