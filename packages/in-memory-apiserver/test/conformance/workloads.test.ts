import {
  ApiextensionsV1Api,
  AppsV1Api,
  CoordinationV1Api,
  CoreV1Api,
  CustomObjectsApi,
  PatchStrategy,
  setHeaderOptions,
  type V1Deployment,
} from '@kubernetes/client-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  connect,
  CONTROLLER_PATIENCE_MS,
  eventually,
  freshNamespace,
  inMemoryOnly,
  type Target,
} from './harness.ts';

let target: Target;
let apps: AppsV1Api;
let core: CoreV1Api;
let namespace: string;

beforeAll(async () => {
  target = await connect();
  apps = target.kubeConfig.makeApiClient(AppsV1Api);
  core = target.kubeConfig.makeApiClient(CoreV1Api);
  namespace = await freshNamespace(target);
});
afterAll(() => target.stop());

function deployment(
  name: string,
  replicas: number,
  env: { name: string; value: string }[] = [],
): V1Deployment {
  return {
    metadata: { name },
    spec: {
      replicas,
      selector: { matchLabels: { app: name } },
      template: {
        metadata: { labels: { app: name } },
        spec: {
          containers: [{ name: 'main', image: 'example.com/app:1.0', env, ports: [{ containerPort: 8080 }] }],
        },
      },
    },
  };
}

describe('Deployments', () => {
  it('are defaulted like by the real API server', async () => {
    const created = await apps.createNamespacedDeployment({ namespace, body: deployment('defaulted', 2) });
    expect(created.metadata?.generation).toBe(1);
    expect(created.spec?.strategy).toEqual({
      type: 'RollingUpdate',
      rollingUpdate: { maxUnavailable: '25%', maxSurge: '25%' },
    });
    expect(created.spec?.revisionHistoryLimit).toBe(10);
    expect(created.spec?.progressDeadlineSeconds).toBe(600);
    const container = created.spec?.template.spec?.containers[0];
    expect(container?.imagePullPolicy).toBe('IfNotPresent');
    expect(container?.terminationMessagePath).toBe('/dev/termination-log');
    expect(container?.ports).toEqual([{ containerPort: 8080, protocol: 'TCP' }]);
    expect(created.spec?.template.spec?.restartPolicy).toBe('Always');
  });

  // In memory a simulation; on the real control plane the deployment controller and kwok's fake pods.
  it('report a healthy status for the current generation', async () => {
    await apps.createNamespacedDeployment({ namespace, body: deployment('healthy', 3) });
    const ready = await eventually(async () => {
      const current = await apps.readNamespacedDeployment({ name: 'healthy', namespace });
      const { observedGeneration, availableReplicas } = current.status ?? {};
      return observedGeneration === 1 && availableReplicas === 3 ? current : undefined;
    }, CONTROLLER_PATIENCE_MS);
    expect(ready.status).toMatchObject({
      observedGeneration: 1,
      replicas: 3,
      updatedReplicas: 3,
      readyReplicas: 3,
      availableReplicas: 3,
    });
    const available = ready.status?.conditions?.find((condition) => condition.type === 'Available');
    expect(available).toMatchObject({
      status: 'True',
      reason: 'MinimumReplicasAvailable',
      message: 'Deployment has minimum availability.',
    });
    expect(ready.status?.conditions?.find((condition) => condition.type === 'Progressing')).toMatchObject({
      status: 'True',
      reason: 'NewReplicaSetAvailable',
    });
    await apps.patchNamespacedDeployment(
      { name: 'healthy', namespace, body: { spec: { replicas: 5 } } },
      setHeaderOptions('Content-Type', PatchStrategy.StrategicMergePatch),
    );
    const scaled = await eventually(async () => {
      const current = await apps.readNamespacedDeployment({ name: 'healthy', namespace });
      const { observedGeneration, availableReplicas } = current.status ?? {};
      return observedGeneration === 2 && availableReplicas === 5 ? current : undefined;
    }, CONTROLLER_PATIENCE_MS);
    expect(scaled.status?.readyReplicas).toBe(5);
  });

  it('merge containers and env by name with a strategic merge patch', async () => {
    await apps.createNamespacedDeployment({
      namespace,
      body: deployment('smp', 1, [
        { name: 'A', value: '1' },
        { name: 'B', value: '2' },
      ]),
    });
    const patched = await apps.patchNamespacedDeployment(
      {
        name: 'smp',
        namespace,
        body: {
          spec: {
            template: {
              spec: {
                containers: [
                  {
                    name: 'main',
                    env: [
                      { name: 'B', value: 'two' },
                      { name: 'C', value: '3' },
                    ],
                  },
                ],
              },
            },
          },
        },
      },
      setHeaderOptions('Content-Type', PatchStrategy.StrategicMergePatch),
    );
    const container = patched.spec?.template.spec?.containers[0];
    expect(container?.image).toBe('example.com/app:1.0');
    expect(container?.env).toEqual([
      { name: 'A', value: '1' },
      { name: 'B', value: 'two' },
      { name: 'C', value: '3' },
    ]);
    expect(patched.metadata?.generation).toBe(2);
  });

  it('take server-side apply: fields a manager stops applying are removed', async () => {
    const apply = setHeaderOptions('Content-Type', PatchStrategy.ServerSideApply);
    const applied = (env: { name: string; value: string }[], labels: Record<string, string>) => ({
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      metadata: { name: 'applied', namespace, labels },
      spec: {
        selector: { matchLabels: { app: 'applied' } },
        template: {
          metadata: { labels: { app: 'applied' } },
          spec: { containers: [{ name: 'main', image: 'example.com/app:1.0', env }] },
        },
      },
    });
    const created = await apps.patchNamespacedDeployment(
      {
        name: 'applied',
        namespace,
        fieldManager: 'scoby',
        force: true,
        body: applied(
          [
            { name: 'A', value: '1' },
            { name: 'B', value: '2' },
          ],
          { one: '1', two: '2' },
        ),
      },
      apply,
    );
    expect(created.metadata?.labels).toEqual({ one: '1', two: '2' });
    await core.readNamespace({ name: namespace });
    const reapplied = await apps.patchNamespacedDeployment(
      {
        name: 'applied',
        namespace,
        fieldManager: 'scoby',
        force: true,
        body: applied([{ name: 'A', value: '1' }], { one: '1' }),
      },
      apply,
    );
    expect(reapplied.metadata?.labels).toEqual({ one: '1' });
    expect(reapplied.spec?.template.spec?.containers[0]?.env).toEqual([{ name: 'A', value: '1' }]);
    expect(reapplied.spec?.replicas).toBe(1);
  });
});

describe('StatefulSets', () => {
  it('report a ready status', async () => {
    await apps.createNamespacedStatefulSet({
      namespace,
      body: {
        metadata: { name: 'sts' },
        spec: {
          serviceName: 'sts',
          replicas: 2,
          selector: { matchLabels: { app: 'sts' } },
          template: {
            metadata: { labels: { app: 'sts' } },
            spec: { containers: [{ name: 'c', image: 'busybox' }] },
          },
        },
      },
    });
    const ready = await eventually(async () => {
      const current = await apps.readNamespacedStatefulSet({ name: 'sts', namespace });
      const { observedGeneration, availableReplicas } = current.status ?? {};
      return observedGeneration === 1 && availableReplicas === 2 ? current : undefined;
    }, CONTROLLER_PATIENCE_MS);
    expect(ready.status).toMatchObject({
      replicas: 2,
      readyReplicas: 2,
      currentReplicas: 2,
      updatedReplicas: 2,
      availableReplicas: 2,
    });
  });
});

describe('Services', () => {
  it('get a cluster IP from 10.96.0.0/12 and defaulted ports', async () => {
    const created = await core.createNamespacedService({
      namespace,
      body: { metadata: { name: 'web' }, spec: { selector: { app: 'web' }, ports: [{ port: 80 }] } },
    });
    expect(created.spec?.clusterIP).toMatch(/^10\.(9[6-9]|10[0-9]|11[01])\.\d+\.\d+$/);
    expect(created.spec?.clusterIPs).toEqual([created.spec?.clusterIP]);
    expect(created.spec?.type).toBe('ClusterIP');
    expect(created.spec?.ports).toEqual([{ port: 80, protocol: 'TCP', targetPort: 80 }]);
  });

  it('keep their cluster IP across an update that omits it', async () => {
    const created = await core.createNamespacedService({
      namespace,
      body: { metadata: { name: 'kept' }, spec: { ports: [{ port: 80 }] } },
    });
    const replaced = await core.replaceNamespacedService({
      name: 'kept',
      namespace,
      body: {
        metadata: { name: 'kept', resourceVersion: created.metadata?.resourceVersion },
        spec: { ports: [{ port: 81 }] },
      },
    });
    expect(replaced.spec?.clusterIP).toBe(created.spec?.clusterIP);
  });
});

describe('Secrets, Leases and RBAC objects', () => {
  it('turns Secret stringData into base64 data', async () => {
    const created = await core.createNamespacedSecret({
      namespace,
      body: { metadata: { name: 'secret' }, stringData: { token: 'abc' } },
    });
    expect(created.data).toEqual({ token: 'YWJj' });
    expect(created.stringData).toBeUndefined();
    expect(created.type).toBe('Opaque');
  });

  it('stores Leases', async () => {
    const coordination = target.kubeConfig.makeApiClient(CoordinationV1Api);
    await coordination.createNamespacedLease({
      namespace,
      body: { metadata: { name: 'leader' }, spec: { holderIdentity: 'me', leaseDurationSeconds: 15 } },
    });
    const lease = await coordination.readNamespacedLease({ name: 'leader', namespace });
    expect(lease.spec?.holderIdentity).toBe('me');
  });
});

describe('Knative Services', () => {
  it('become Ready with a cluster-local address once the CRD is installed', async (context) => {
    inMemoryOnly(target, context, 'needs the simulated Knative controller');
    const extensions = target.kubeConfig.makeApiClient(ApiextensionsV1Api);
    await extensions.createCustomResourceDefinition({
      body: {
        metadata: { name: 'services.serving.knative.dev' },
        spec: {
          group: 'serving.knative.dev',
          scope: 'Namespaced',
          names: { plural: 'services', singular: 'service', kind: 'Service', shortNames: ['ksvc'] },
          versions: [
            {
              name: 'v1',
              served: true,
              storage: true,
              subresources: { status: {} },
              schema: { openAPIV3Schema: { type: 'object', x_kubernetes_preserve_unknown_fields: true } },
            },
          ],
        },
      },
    });
    const custom = target.kubeConfig.makeApiClient(CustomObjectsApi);
    await custom.createNamespacedCustomObject({
      group: 'serving.knative.dev',
      version: 'v1',
      namespace,
      plural: 'services',
      body: {
        apiVersion: 'serving.knative.dev/v1',
        kind: 'Service',
        metadata: { name: 'hello' },
        spec: { template: { spec: { containers: [{ image: 'hello' }] } } },
      },
    });
    const ready = await eventually(async () => {
      const current = await custom.getNamespacedCustomObject({
        group: 'serving.knative.dev',
        version: 'v1',
        namespace,
        plural: 'services',
        name: 'hello',
      });
      return current.status?.observedGeneration === 1 ? current : undefined;
    });
    expect(ready.status.address).toEqual({ url: `http://hello.${namespace}.svc.cluster.local` });
    expect(
      ready.status.conditions.find((condition: { type: string }) => condition.type === 'Ready'),
    ).toMatchObject({ type: 'Ready', status: 'True' });
  });
});
