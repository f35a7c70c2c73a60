/**
 * parameterConfiguration and statusConfiguration end to end (docs/spec/env.md §6, docs/spec/children-and-status.md §8.9),
 * and render errors (docs/spec/env.md §9, docs/spec/children-and-status.md §8.5): the exact container the Deployment gets.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { KubeObject } from '@scoby/kube-objects';
import { crdFor, startTestCluster, type TestCluster } from '../support/cluster.ts';
import {
  adapterOf,
  conditionsOf,
  configMapObject,
  eventViews,
  namespaceObject,
  podSpecOf,
  registrationObject,
  registrationTarget,
  waitForCondition,
  writesIn,
} from '../support/scoby.ts';

let cluster: TestCluster;

beforeAll(async () => {
  cluster = await startTestCluster();
  for (const name of ['shop', 'infra']) await cluster.apply(namespaceObject(name));
  await cluster.apply(crdFor({ group: 'apps.example.com', kind: 'Adapter', plural: 'adapters' }));
  await cluster.apply(crdFor({ group: 'db.example.com', kind: 'Database', plural: 'databases' }));
  await cluster.apply(crdFor({ group: 'eventing.example.com', kind: 'Broker', plural: 'brokers' }));
});
afterAll(() => cluster.stop());

const CONTAINER_BASE = {
  name: 'adapter',
  terminationMessagePolicy: 'FallbackToLogsOnError',
  securityContext: { allowPrivilegeEscalation: false, readOnlyRootFilesystem: true },
  // Defaults the API server adds to every container.
  imagePullPolicy: 'IfNotPresent',
  resources: {},
  terminationMessagePath: '/dev/termination-log',
};

describe('every parameter customization end to end', () => {
  const adapter = { apiVersion: 'apps.example.com/v1', kind: 'Adapter', namespace: 'shop', name: 'orders' };

  beforeAll(async () => {
    await cluster.apply({
      apiVersion: 'v1',
      kind: 'Service',
      metadata: { name: 'collector', namespace: 'shop' },
      spec: { ports: [{ port: 80 }] },
    });
    const broker = await cluster.apply({
      apiVersion: 'eventing.example.com/v1',
      kind: 'Broker',
      metadata: { name: 'default', namespace: 'infra' },
      spec: {},
    });
    await cluster.client.patch(
      { group: 'eventing.example.com', version: 'v1', resource: 'brokers', namespaced: true },
      'infra',
      broker.metadata.name ?? '',
      {
        status: {
          address: { url: 'http://broker-ingress.knative-eventing.svc.cluster.local/infra/default' },
        },
      },
      { subresource: 'status' },
    );
    await cluster.apply(configMapObject('scoby-system', 'scoby-flags', { flags: 'beta,metrics' }));
    await cluster.apply(
      registrationObject('adapter', {
        crd: 'adapters.apps.example.com',
        workload: {
          fromImage: { repo: 'registry.example.com/adapter:1.0.0' },
          formFactor: { deployment: { replicas: 1 } },
          parameterConfiguration: {
            global: { defaultPrefix: 'APP_' },
            fromSpec: {
              skip: [{ path: 'spec.internal' }],
              toEnv: [
                { path: 'spec.region', name: 'REGION' },
                { path: 'spec.mode', default: { value: 'fast' } },
                {
                  path: 'spec.token',
                  name: 'API_TOKEN',
                  default: { secret: { name: 'api-creds', key: 'token' } },
                },
                {
                  path: 'spec.tuning',
                  name: 'TUNING_CONF',
                  default: { configMap: { name: 'tuning', key: 'conf', optional: true } },
                },
                {
                  path: 'spec.credentials',
                  name: 'DB_PASSWORD',
                  valueFrom: {
                    secretPath: { name: 'spec.credentials.secretName', key: 'spec.credentials.passwordKey' },
                  },
                },
                {
                  path: 'spec.settings',
                  valueFrom: {
                    configMapPath: {
                      name: '$.spec.settings.cmName',
                      key: 'spec.settings.key',
                      optional: true,
                    },
                  },
                },
                { path: 'spec.sink', name: 'K_SINK', valueFrom: { builtInFunc: { name: 'resolveAddress' } } },
                { path: 'spec.broker', valueFrom: { builtInFunc: { name: 'resolveAddress' } } },
              ],
              toVolume: [
                {
                  path: 'spec.tls',
                  name: 'tls',
                  mountPath: '/etc/tls',
                  mountFrom: {
                    secretPath: {
                      secretName: 'spec.tls.secret',
                      items: [{ key: 'spec.tls.certKey', path: 'cert.pem' }],
                      defaultMode: 256,
                    },
                  },
                },
              ],
            },
            add: {
              toEnv: [
                { name: 'LOG_LEVEL', value: 'info' },
                { name: 'POD_NAMESPACE', valueFrom: { field: { fieldPath: 'metadata.namespace' } } },
                { name: 'SHARED_CONF', valueFrom: { configMap: { name: 'shared', key: 'conf' } } },
                { name: 'API_KEY', valueFrom: { secret: { name: 'shared-keys', key: 'api' } } },
                {
                  name: 'FEATURE_FLAGS',
                  valueFromControllerConfigMap: { name: 'scoby-flags', key: 'flags' },
                },
              ],
              toVolume: [
                {
                  name: 'ca-bundle',
                  mountPath: '/etc/ssl/custom',
                  mountFrom: {
                    configMapPath: {
                      name: 'cluster-ca',
                      items: [{ key: 'ca.crt', path: 'ca.crt' }],
                      optional: true,
                    },
                  },
                },
              ],
            },
          },
          statusConfiguration: { add: [{ path: 'status.sinkUri', valueFrom: { path: 'spec.sink' } }] },
        },
      }),
    );
    await waitForCondition(cluster, registrationTarget('adapter'), 'Ready', 'True');
    await cluster.apply({
      apiVersion: adapter.apiVersion,
      kind: adapter.kind,
      metadata: { name: adapter.name, namespace: adapter.namespace },
      spec: {
        region: 'eu-west-1',
        replicas: 3,
        internal: { debug: true, level: 'trace' },
        credentials: { secretName: 'db-secret', passwordKey: 'password' },
        settings: { cmName: 'db-settings', key: 'pool.conf' },
        sink: { ref: { apiVersion: 'v1', kind: 'Service', name: 'collector' }, uri: '/events' },
        broker: {
          ref: { apiVersion: 'eventing.example.com/v1', kind: 'Broker', name: 'default', namespace: 'infra' },
        },
        tls: { secret: 'web-tls', certKey: 'tls.crt' },
      },
    });
  });

  it('renders the exact container env, volumes and mounts', async () => {
    const deployment = await cluster.waitFor('deployment', () =>
      cluster.get('apps/v1', 'Deployment', 'shop', 'adapter-orders'),
    );
    expect(podSpecOf(deployment).volumes).toEqual([
      {
        name: 'ca-bundle',
        // The API server defaults the mode (0644) where the registration left it out, as kube-apiserver does.
        configMap: {
          name: 'cluster-ca',
          items: [{ key: 'ca.crt', path: 'ca.crt' }],
          optional: true,
          defaultMode: 420,
        },
      },
      {
        name: 'tls',
        secret: { secretName: 'web-tls', items: [{ key: 'tls.crt', path: 'cert.pem' }], defaultMode: 256 },
      },
    ]);
    expect(adapterOf(deployment)).toEqual({
      ...CONTAINER_BASE,
      image: 'registry.example.com/adapter:1.0.0',
      env: [
        { name: 'API_KEY', valueFrom: { secretKeyRef: { name: 'shared-keys', key: 'api' } } },
        { name: 'API_TOKEN', valueFrom: { secretKeyRef: { name: 'api-creds', key: 'token' } } },
        {
          name: 'APP_BROKER',
          value: 'http://broker-ingress.knative-eventing.svc.cluster.local/infra/default',
        },
        { name: 'APP_MODE', value: 'fast' },
        { name: 'APP_REPLICAS', value: '3' },
        {
          name: 'APP_SETTINGS',
          valueFrom: { configMapKeyRef: { name: 'db-settings', key: 'pool.conf', optional: true } },
        },
        { name: 'DB_PASSWORD', valueFrom: { secretKeyRef: { name: 'db-secret', key: 'password' } } },
        { name: 'FEATURE_FLAGS', value: 'beta,metrics' },
        { name: 'K_SINK', value: 'http://collector.shop.svc.cluster.local/events' },
        { name: 'LOG_LEVEL', value: 'info' },
        {
          name: 'POD_NAMESPACE',
          valueFrom: { fieldRef: { apiVersion: 'v1', fieldPath: 'metadata.namespace' } },
        },
        { name: 'REGION', value: 'eu-west-1' },
        { name: 'SHARED_CONF', valueFrom: { configMapKeyRef: { name: 'shared', key: 'conf' } } },
        {
          name: 'TUNING_CONF',
          valueFrom: { configMapKeyRef: { name: 'tuning', key: 'conf', optional: true } },
        },
      ],
      volumeMounts: [
        { name: 'ca-bundle', mountPath: '/etc/ssl/custom' },
        { name: 'tls', mountPath: '/etc/tls' },
      ],
    });
  });

  it('copies the rendered sink URL into status.sinkUri', async () => {
    const ready = await waitForCondition(cluster, adapter, 'Ready', 'True');
    expect(ready.status).toEqual({
      observedGeneration: 1,
      sinkUri: 'http://collector.shop.svc.cluster.local/events',
      conditions: [
        expect.objectContaining({
          type: 'DeploymentReady',
          status: 'True',
          reason: 'MinimumReplicasAvailable',
          message: '',
        }),
        expect.objectContaining({ type: 'Ready', status: 'True', reason: 'CONDITIONSOK', message: '' }),
      ],
    });
  });

  it('re-renders every instance when the controller ConfigMap changes', async () => {
    await cluster.apply(configMapObject('scoby-system', 'scoby-flags', { flags: 'gamma' }));
    const updated = await cluster.waitFor('FEATURE_FLAGS=gamma', async () => {
      const deployment = await cluster.get('apps/v1', 'Deployment', 'shop', 'adapter-orders');
      const env = (adapterOf(deployment).env ?? []) as { name: string; value?: string }[];
      return env.find((entry) => entry.name === 'FEATURE_FLAGS')?.value === 'gamma' ? env : undefined;
    });
    expect(updated.map((entry) => entry.name)).toEqual([
      'API_KEY',
      'API_TOKEN',
      'APP_BROKER',
      'APP_MODE',
      'APP_REPLICAS',
      'APP_SETTINGS',
      'DB_PASSWORD',
      'FEATURE_FLAGS',
      'K_SINK',
      'LOG_LEVEL',
      'POD_NAMESPACE',
      'REGION',
      'SHARED_CONF',
      'TUNING_CONF',
    ]);
  });
});

describe('literal values (docs/spec/env.md §4)', () => {
  const notifier = { apiVersion: 'apps.example.com/v1', kind: 'Notifier', namespace: 'shop', name: 'alerts' };

  beforeAll(async () => {
    await cluster.apply(crdFor({ group: 'apps.example.com', kind: 'Notifier', plural: 'notifiers' }));
    await cluster.apply(
      registrationObject('notifier', {
        crd: 'notifiers.apps.example.com',
        workload: {
          fromImage: { repo: 'registry.example.com/notifier:1.0.0' },
          formFactor: { deployment: { replicas: 1 } },
          parameterConfiguration: {
            fromSpec: {
              toEnv: [
                { path: 'spec.authHeader', name: 'AUTH_HEADER', default: { value: 'Bearer $(API_TOKEN)' } },
              ],
            },
            add: {
              toEnv: [
                { name: 'API_TOKEN', valueFrom: { secret: { name: 'api-creds', key: 'token' } } },
                { name: 'TOKEN_COPY', value: '$(API_TOKEN)' },
              ],
            },
          },
          statusConfiguration: { add: [{ path: 'status.greeting', valueFrom: { path: 'spec.greeting' } }] },
        },
      }),
    );
    await waitForCondition(cluster, registrationTarget('notifier'), 'Ready', 'True');
    await cluster.apply({
      apiVersion: notifier.apiVersion,
      kind: notifier.kind,
      metadata: { name: notifier.name, namespace: notifier.namespace },
      spec: { greeting: '$(API_TOKEN)', channels: ['$(API_TOKEN)', 'ops'] },
    });
  });

  it('escapes every $ of spec values and leaves the values the registration wrote alone', async () => {
    const deployment = await cluster.waitFor('deployment', () =>
      cluster.get('apps/v1', 'Deployment', 'shop', 'notifier-alerts'),
    );
    expect(adapterOf(deployment).env).toEqual([
      { name: 'API_TOKEN', valueFrom: { secretKeyRef: { name: 'api-creds', key: 'token' } } },
      { name: 'AUTH_HEADER', value: 'Bearer $(API_TOKEN)' },
      { name: 'CHANNELS', value: '$$(API_TOKEN),ops' },
      { name: 'GREETING', value: '$$(API_TOKEN)' },
      { name: 'TOKEN_COPY', value: '$(API_TOKEN)' },
    ]);
  });

  it('writes the spec value unescaped into the status', async () => {
    const ready = await waitForCondition(cluster, notifier, 'Ready', 'True');
    expect((ready.status as Record<string, unknown>).greeting).toBe('$(API_TOKEN)');
  });
});

describe('render errors', () => {
  const database = { apiVersion: 'db.example.com/v1', kind: 'Database', namespace: 'shop', name: 'orders' };
  const message =
    'spec.credentials: valueFrom.secretPath.name: no value at "spec.credentials.secretName"; ' +
    'spec.settings: valueFrom.configMapPath.name: value at "spec.settings.cmName" is not a string';
  let instance: KubeObject;

  beforeAll(async () => {
    await cluster.apply(
      registrationObject('pg', {
        crd: 'databases.db.example.com',
        workload: {
          fromImage: { repo: 'registry.example.com/pg:1' },
          parameterConfiguration: {
            global: { defaultPrefix: 'PG_' },
            fromSpec: {
              toEnv: [
                {
                  path: 'spec.credentials',
                  name: 'DB_PASSWORD',
                  valueFrom: {
                    secretPath: { name: 'spec.credentials.secretName', key: 'spec.credentials.passwordKey' },
                  },
                },
                {
                  path: 'spec.settings',
                  valueFrom: {
                    configMapPath: {
                      name: '$.spec.settings.cmName',
                      key: 'spec.settings.key',
                      optional: true,
                    },
                  },
                },
              ],
            },
          },
        },
      }),
    );
    await waitForCondition(cluster, registrationTarget('pg'), 'Ready', 'True');
    cluster.server.requestLog.clear();
    instance = await cluster.apply({
      apiVersion: database.apiVersion,
      kind: database.kind,
      metadata: { name: database.name, namespace: database.namespace },
      spec: {
        database: 'orders',
        credentials: { passwordKey: 'password' },
        settings: { cmName: 42, key: 'pool.conf' },
      },
    });
  });

  it('sets Ready=False/RenderFailed with the joined messages, emits a Warning Event and writes no child', async () => {
    const failed = await waitForCondition(cluster, database, 'Ready', 'False', 'RenderFailed');
    expect(conditionsOf(failed)).toEqual([
      { type: 'DeploymentReady', status: 'Unknown', reason: 'UNKNOWN', message: '' },
      { type: 'Ready', status: 'False', reason: 'RenderFailed', message },
      { type: 'Stalled', status: 'True', reason: 'RenderFailed', message },
    ]);
    expect((failed.status as { observedGeneration?: number }).observedGeneration).toBe(1);
    const events = await cluster.waitFor('RenderFailed event', async () => {
      const found = await cluster.events('shop', 'orders');
      return found.some((event) => event.reason === 'RenderFailed') ? found : undefined;
    });
    expect(eventViews(events.filter((event) => event.reason === 'RenderFailed'))).toEqual([
      { type: 'Warning', reason: 'RenderFailed', message },
    ]);
    expect(writesIn(cluster.server.requestLog.entries(), '/deployments')).toEqual([]);
    expect(await cluster.get('apps/v1', 'Deployment', 'shop', 'pg-orders')).toBeUndefined();
  });

  it('recovers once the instance is fixed', async () => {
    await cluster.edit(database, (current) => ({
      ...current,
      spec: {
        database: 'orders',
        credentials: { secretName: 'db-secret', passwordKey: 'password' },
        settings: { cmName: 'db-settings', key: 'pool.conf' },
      },
    }));
    const ready = await waitForCondition(cluster, database, 'Ready', 'True');
    expect(conditionsOf(ready)).toEqual([
      { type: 'DeploymentReady', status: 'True', reason: 'MinimumReplicasAvailable', message: '' },
      { type: 'Ready', status: 'True', reason: 'CONDITIONSOK', message: '' },
    ]);
    expect((ready.status as { observedGeneration?: number }).observedGeneration).toBe(2);
    const deployment = await cluster.get('apps/v1', 'Deployment', 'shop', 'pg-orders');
    expect(deployment?.metadata.ownerReferences?.[0]?.uid).toBe(instance.metadata.uid);
    expect(adapterOf(deployment).env).toEqual([
      { name: 'DB_PASSWORD', valueFrom: { secretKeyRef: { name: 'db-secret', key: 'password' } } },
      { name: 'PG_DATABASE', value: 'orders' },
      {
        name: 'PG_SETTINGS',
        valueFrom: { configMapKeyRef: { name: 'db-settings', key: 'pool.conf', optional: true } },
      },
    ]);
  });
});
