/**
 * Golden test on the real control plane, the controller running as Scoby's ServiceAccount:
 * `scoby render` prints what the controller writes on kube-apiserver — the first status write, the
 * children, and with --observed the settled status — for Go Scoby's samples; and the API server
 * accepts every document of the stream rendered from a sample manifest (`| kubectl apply -f -`).
 */
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { locateBinaries } from '@scoby/kube-control-plane';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { KubeObject } from '@scoby/kube-objects';
import {
  checkGolden,
  manifestStream,
  registerSample,
  sampleObjects,
  type GoldenSample,
  unregisterSample,
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

/** The kubectl of the control plane's release, as the admin; `input` is its stdin. */
async function kubectl(
  args: string[],
  input: string,
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const binaries = locateBinaries();
  if (!binaries.ok) throw new Error(binaries.message);
  const kubeconfig = join(await mkdtemp(join(tmpdir(), 'scoby-kubectl-')), 'kubeconfig');
  await writeFile(kubeconfig, inject('realCluster').adminKubeconfigYaml);
  const child = spawn(join(binaries.folder, 'kubectl'), ['--kubeconfig', kubeconfig, ...args], {
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  child.stdin.end(input);
  const [code] = (await once(child, 'close')) as [number | null];
  return { code, stdout, stderr };
}

let cluster: RealCluster;
beforeAll(() => {
  cluster = startRealCluster();
});
afterAll(async () => {
  if (cluster === undefined) return;
  for (const sample of Object.values(SAMPLES)) await unregisterSample(cluster, sample, REAL_PATIENCE_MS);
  await cluster.stop();
});

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

  it('kubectl apply -f - takes the stream of a manifest without a namespace and creates it in -n', async () => {
    const sample = SAMPLES['kuard with an address reference (no namespace in the manifest)']!;
    await cluster.apply(namespaceObject('golden-stream'));
    expect(
      await kubectl(['apply', '--dry-run=server', '-f', '-'], await manifestStream(sample, 'golden-stream')),
    ).toEqual({
      code: 0,
      stdout:
        'kuard.extensions.triggermesh.io/my-kuard-extension created (server dry run)\n' +
        'deployment.apps/kuard-my-kuard-extension created (server dry run)\n' +
        'service/kuard-my-kuard-extension created (server dry run)\n',
      stderr: '',
    });
  });
});
