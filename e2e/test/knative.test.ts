/**
 * The Knative form factor: with Knative Serving's Service CRD installed, a registration with
 * `knativeService` runs each instance as a Knative Service. Only the in-memory API server simulates
 * Knative; on a real cluster no Knative controller runs, so the test writes the Service's readiness
 * itself, as Knative Serving would.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ADAPTER_IMAGE,
  clusterForScenario,
  conditionOf,
  conditionsOf,
  readManifests,
  registeredKindYaml,
  statusOf,
  type ClusterHandle,
} from '../src/index.ts';
import { noKnativeOrReason } from '../src/node-only.ts';

const KIND = { group: 'knative.e2e.scoby.dev', kind: 'Function', plural: 'functions' };

const skipped = noKnativeOrReason();
let cluster: ClusterHandle;
beforeAll(async () => {
  if (skipped !== undefined) return;
  cluster = clusterForScenario();
  await cluster.apply(
    await readManifests(new URL('../fixtures/knative-serving-service-crd.yaml', import.meta.url)),
  );
  await cluster.apply(registeredKindYaml(KIND, 'knative'));
  await cluster.apply(`
apiVersion: scoby.triggermesh.io/v1alpha1
kind: CRDRegistration
metadata:
  name: fn
spec:
  crd: functions.knative.e2e.scoby.dev
  workload:
    fromImage: {repo: ${ADAPTER_IMAGE}}
    formFactor:
      knativeService:
        minScale: 1
        maxScale: 5
        visibility: cluster-local
`);
});
afterAll(() => cluster?.close());

describe.skipIf(skipped !== undefined)('Knative Service form factor', () => {
  it('runs an instance as a Knative Service', async () => {
    const [instance] = await cluster.apply(`
apiVersion: knative.e2e.scoby.dev/v1
kind: Function
metadata: {name: resize, namespace: knative}
spec:
  width: 640
`);
    const ksvc = await cluster.waitForObject(
      'serving.knative.dev/v1',
      'Service',
      'knative',
      'fn-resize',
      'to be created',
    );
    expect(ksvc.metadata.labels).toEqual({
      'app.kubernetes.io/name': 'fn',
      'app.kubernetes.io/instance': 'resize',
      'app.kubernetes.io/component': 'workload',
      'app.kubernetes.io/part-of': 'scoby-component',
      'app.kubernetes.io/managed-by': 'scoby-controller',
      'networking.knative.dev/visibility': 'cluster-local',
    });
    expect(ksvc.metadata.ownerReferences).toEqual([
      {
        apiVersion: 'knative.e2e.scoby.dev/v1',
        kind: 'Function',
        name: 'resize',
        uid: instance?.metadata.uid,
        controller: true,
        blockOwnerDeletion: true,
      },
    ]);
    expect(ksvc.spec).toEqual({
      template: {
        metadata: {
          annotations: { 'autoscaling.knative.dev/min-scale': '1', 'autoscaling.knative.dev/max-scale': '5' },
        },
        spec: {
          containers: [
            {
              name: 'adapter',
              image: ADAPTER_IMAGE,
              env: [{ name: 'WIDTH', value: '640' }],
              terminationMessagePolicy: 'FallbackToLogsOnError',
              securityContext: { allowPrivilegeEscalation: false, readOnlyRootFilesystem: true },
            },
          ],
        },
      },
    });
    if (cluster.provider !== 'memory') {
      await cluster.waitForObject(
        'knative.e2e.scoby.dev/v1',
        'Function',
        'knative',
        'resize',
        'to report KnativeServiceReady Unknown',
        (object) => conditionOf(object, 'KnativeServiceReady')?.status === 'Unknown',
      );
      await cluster.client.jsonPatch(
        ksvc,
        [{ op: 'add', path: '/status', value: knativeReadyStatus(ksvc) }],
        'status',
      );
    }
    const ready = await cluster.waitForObject(
      'knative.e2e.scoby.dev/v1',
      'Function',
      'knative',
      'resize',
      'to be Ready',
      (object) => conditionOf(object, 'Ready')?.status === 'True',
    );
    expect(conditionsOf(ready)).toEqual([
      { type: 'KnativeServiceReady', status: 'True', reason: 'KNSERVICEOK', message: '' },
      { type: 'Ready', status: 'True', reason: 'CONDITIONSOK', message: '' },
    ]);
    expect(statusOf(ready).address).toEqual({ url: 'http://fn-resize.knative.svc.cluster.local' });
  });
});

/** What Knative Serving writes once a Service is ready (the in-memory server's simulation writes the same). */
function knativeReadyStatus(ksvc: { metadata: { name?: string; namespace?: string; generation?: number } }) {
  const { name = '', namespace = '', generation = 1 } = ksvc.metadata;
  const now = new Date().toISOString().replace(/\.\d+Z$/, 'Z');
  const revision = `${name}-${String(generation).padStart(5, '0')}`;
  return {
    observedGeneration: generation,
    conditions: ['ConfigurationsReady', 'Ready', 'RoutesReady'].map((type) => ({
      type,
      status: 'True',
      lastTransitionTime: now,
    })),
    latestCreatedRevisionName: revision,
    latestReadyRevisionName: revision,
    url: `http://${name}.${namespace}.example.com`,
    address: { url: `http://${name}.${namespace}.svc.cluster.local` },
    traffic: [{ revisionName: revision, latestRevision: true, percent: 100 }],
  };
}
