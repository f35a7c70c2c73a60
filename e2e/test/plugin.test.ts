/**
 * A third-party form factor: the example StatefulSet plugin, loaded by module specifier when Scoby
 * starts (as SCOBY_FORM_FACTOR_PLUGINS would), runs instances as a StatefulSet behind a headless Service.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ADAPTER_IMAGE,
  adapterOf,
  clusterForScenario,
  conditionOf,
  conditionsOf,
  registeredKindYaml,
  statusOf,
  type ClusterHandle,
} from '../src/index.ts';

const KIND = { group: 'plugin.e2e.scoby.dev', kind: 'Cache', plural: 'caches' };
const SELECTOR = {
  'app.kubernetes.io/name': 'cache',
  'app.kubernetes.io/instance': 'sessions',
  'app.kubernetes.io/component': 'workload',
};

let cluster: ClusterHandle;
beforeAll(async () => {
  cluster = clusterForScenario();
  await cluster.apply(registeredKindYaml(KIND, 'plugin'));
  await cluster.apply(`
apiVersion: scoby.triggermesh.io/v1alpha1
kind: CRDRegistration
metadata:
  name: cache
spec:
  crd: caches.plugin.e2e.scoby.dev
  workload:
    fromImage: {repo: ${ADAPTER_IMAGE}}
    formFactor:
      statefulSet:
        replicas: 2
        port: 6379
`);
});
afterAll(() => cluster.close());

describe('plugin form factor', () => {
  it('runs an instance as a StatefulSet with a headless Service and reports the plugin condition', async () => {
    await cluster.apply(
      '{apiVersion: plugin.e2e.scoby.dev/v1, kind: Cache, metadata: {name: sessions, namespace: plugin}, spec: {maxMemory: 64Mi}}',
    );
    const statefulSet = await cluster.waitForObject(
      'apps/v1',
      'StatefulSet',
      'plugin',
      'cache-sessions',
      'to be created',
    );
    expect(statefulSet.spec).toMatchObject({
      serviceName: 'cache-sessions',
      replicas: 2,
      selector: { matchLabels: SELECTOR },
      template: { metadata: { labels: SELECTOR } },
    });
    expect(adapterOf(statefulSet)).toMatchObject({
      name: 'adapter',
      image: ADAPTER_IMAGE,
      env: [{ name: 'MAXMEMORY', value: '64Mi' }],
    });
    const service = await cluster.waitForObject('v1', 'Service', 'plugin', 'cache-sessions', 'to be created');
    expect(service.spec).toMatchObject({
      clusterIP: 'None',
      selector: SELECTOR,
      ports: [{ port: 6379, targetPort: 6379, protocol: 'TCP' }],
    });

    const ready = await cluster.waitForObject(
      'plugin.e2e.scoby.dev/v1',
      'Cache',
      'plugin',
      'sessions',
      'to be Ready',
      (object) => conditionOf(object, 'Ready')?.status === 'True',
    );
    expect(conditionsOf(ready)).toEqual([
      { type: 'Ready', status: 'True', reason: 'CONDITIONSOK', message: '' },
      { type: 'StatefulSetReady', status: 'True', reason: 'AllReplicasReady', message: '' },
    ]);
    expect(statusOf(ready).address).toEqual({ url: 'http://cache-sessions.plugin.svc.cluster.local:6379' });
  });
});
