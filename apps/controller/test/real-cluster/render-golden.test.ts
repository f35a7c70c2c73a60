/**
 * Golden test (issue 16) on the real control plane, the controller running as Scoby's ServiceAccount:
 * `scoby render` prints what the controller writes on kube-apiserver — the first status write, the
 * children, and with --observed the settled status — for Go Scoby's samples; and the API server
 * accepts every document of the stream rendered from a sample manifest (`| kubectl apply -f -`).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { KubeObject } from '@scoby/kube-objects';
import {
  acceptedStream,
  checkGolden,
  registerSample,
  sampleObjects,
  type GoldenSample,
} from '../support/golden-render.ts';
import { namespaceObject } from '../support/scoby.ts';
import { registeredKindRole } from './support/grants.ts';
import { REAL_PATIENCE_MS, startRealCluster, type RealCluster } from './support/real-cluster.ts';

const SAMPLES: Record<string, GoldenSample & { group: string; plural: string }> = {
  'kuard with an address reference (no namespace in the manifest)': {
    crd: 'kuard-crd.yaml',
    registration: 'kuard-addressable-registration.yaml',
    instance: 'kuard-addressable-instance.yaml',
    objects: ['kuard-service.yaml'],
    namespace: 'golden-kuard',
    group: 'extensions.triggermesh.io',
    plural: 'kuards',
  },
  'kafkasource (fields the CRD prunes, a Broker sink)': {
    crd: 'kafkasource-crd.yaml',
    registration: 'kafkasource-registration.yaml',
    instance: 'kafkasource-instance.yaml',
    objects: ['broker.yaml'],
    namespace: 'golden-kafka',
    group: 'sources.triggermesh.io',
    plural: 'kafkasources',
  },
  'httptarget (a schema default in the CRD)': {
    crd: 'httptarget-crd.yaml',
    registration: 'httptarget-registration.yaml',
    instance: 'httptarget-instance.yaml',
    objects: [],
    namespace: 'mynamespace',
    group: 'targets.triggermesh.io',
    plural: 'httptargets',
  },
};

/** What Knative ships for Brokers (deploy/10-rbac.yaml aggregates it into Scoby's addressable resolver). */
const BROKER_READER = {
  apiVersion: 'rbac.authorization.k8s.io/v1',
  kind: 'ClusterRole',
  metadata: { name: 'golden-broker-addressable', labels: { 'duck.knative.dev/addressable': 'true' } },
  rules: [{ apiGroups: ['eventing.knative.dev'], resources: ['brokers'], verbs: ['get', 'list', 'watch'] }],
} as KubeObject;

let cluster: RealCluster;
beforeAll(() => {
  cluster = startRealCluster();
});
afterAll(() => cluster?.stop());

describe('scoby render equals what the controller wrote (real control plane)', () => {
  for (const [name, sample] of Object.entries(SAMPLES)) {
    it(name, async () => {
      const grants = [
        registeredKindRole(sample.group, sample.plural),
        BROKER_READER,
        ...(await sampleObjects('broker-crd.yaml')),
      ];
      await registerSample(cluster, sample, grants, REAL_PATIENCE_MS);
      await checkGolden(cluster, sample, REAL_PATIENCE_MS);
    });
  }

  it('the stream of a manifest without a namespace is created by the API server in -n', async () => {
    const sample = SAMPLES['kuard with an address reference (no namespace in the manifest)']!;
    await cluster.apply(namespaceObject('golden-stream'));
    expect(await acceptedStream(cluster, sample, 'golden-stream')).toEqual([
      { kind: 'Kuard', name: 'my-kuard-extension', namespace: 'golden-stream' },
      { kind: 'Deployment', name: 'kuard-my-kuard-extension', namespace: 'golden-stream' },
      { kind: 'Service', name: 'kuard-my-kuard-extension', namespace: 'golden-stream' },
    ]);
  });
});
