/**
 * A Scoby container killed by its memory limit (OOMKilled). The chart is given a small memory limit
 * (values only), then instances of a ballast kind, each carrying a large spec field that is not
 * rendered, are created until a controller container is killed by the kernel for its memory (its
 * replica caches the instances of the registrations it owns). The spec edits are made while it is
 * down, the ballast is deleted, and the instances converge with nothing lost. The chart's values are
 * rolled back afterwards.
 */
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { helmFor, RELEASE, upgradeChart, type Helm } from '../../src/chart/install-chart.ts';
import { controllerPods, controllerRun, podReady } from '../../src/controller-pods.ts';
import { FaultBench } from '../../src/faults/fault-bench.ts';
import { suiteNode } from '../../src/faults/node-container.ts';
import {
  ADAPTER_IMAGE,
  clusterForScenario,
  hookHost,
  registeredKindYaml,
  SCOBY_NAMESPACE,
  type ClusterHandle,
} from '../../src/index.ts';
import { inject } from 'vitest';
import { realPodsOrReason } from '../../src/node-only.ts';

/**
 * The controller's memory for this scenario: its replicas' cgroups count about 50 MiB each once they
 * reconcile the scenario's instances, so some 70 ballast instances reach the limit.
 */
const MEMORY_LIMIT = '128Mi';
const MEMORY_REQUEST = '96Mi';
/** A ballast instance's spec field: under etcd's 1.5 MiB request limit. */
const BALLAST_BYTES = 900 * 1024;
const BALLAST_BATCH = 8;
/** 4 × the limit in ballast without a kill, and the scenario fails: the limit is not what it says. */
const BALLAST_MAX = 640;
const BALLAST = { group: 'ballast.faults.e2e.scoby.dev', kind: 'Ballast', plural: 'ballasts' };
const BALLAST_NAMESPACE = 'faults-ballast';
const BALLAST_API_VERSION = `${BALLAST.group}/v1`;

const skipped = realPodsOrReason();
let cluster: ClusterHandle;
let bench: FaultBench | undefined;
let helm: Helm;
let revision: number | undefined;

const controllerRuns = async () => (await controllerPods(cluster)).map(controllerRun);

/** Each controller pod's memory as its cgroup counts it (what the limit applies to), in MiB. */
async function controllerMemory(): Promise<number[]> {
  const node = await suiteNode();
  const uids = (await controllerPods(cluster)).map((pod) => String(pod.metadata.uid));
  const answer = await node.exec([
    'sh',
    '-c',
    uids
      .map((uid) => `cat /sys/fs/cgroup/memory/scoby-node-*/kubepods/*/pod${uid}/memory.usage_in_bytes`)
      .join('; '),
  ]);
  return answer
    .trim()
    .split('\n')
    .map((bytes) => Math.round(Number(bytes) / 2 ** 20));
}

beforeAll(async () => {
  if (skipped !== undefined) return;
  cluster = clusterForScenario();
  helm = await helmFor(inject('e2e').kubeconfigYaml);
  revision = (
    JSON.parse(await helm.run(['status', RELEASE, '--namespace', SCOBY_NAMESPACE, '--output', 'json'])) as {
      version: number;
    }
  ).version;
  await upgradeChart(helm, {
    'resources.requests.memory': MEMORY_REQUEST,
    'resources.limits.memory': MEMORY_LIMIT,
  });
  await cluster.waitFor('two ready controller pods with the small limit', async () => {
    const pods = await controllerPods(cluster, { deleting: true });
    return pods.length === 2 && pods.every(podReady);
  });
  await cluster.apply(registeredKindYaml(BALLAST, BALLAST_NAMESPACE));
  await cluster.apply(`
apiVersion: scoby.triggermesh.io/v1alpha1
kind: CRDRegistration
metadata: {name: faults-ballast}
spec:
  crd: ${BALLAST.plural}.${BALLAST.group}
  workload:
    fromImage: {repo: ${ADAPTER_IMAGE}}
    formFactor: {deployment: {replicas: 0}}
    parameterConfiguration:
      fromSpec:
        skip: [{path: spec.payload}]
`);
  bench = await FaultBench.start(cluster, hookHost(), { name: 'oom' });
});
afterAll(async () => {
  await bench?.close();
  if (revision !== undefined) {
    await helm.run([
      'rollback',
      RELEASE,
      String(revision),
      '--namespace',
      SCOBY_NAMESPACE,
      '--wait',
      '--timeout',
      '5m',
    ]);
    await cluster.remove({
      apiVersion: 'scoby.triggermesh.io/v1alpha1',
      kind: 'CRDRegistration',
      metadata: { name: 'faults-ballast' },
    });
  }
  await helm?.close();
  cluster?.close();
});

const ballastName = (index: number): string => `ballast-${index}`;

/** Creates ballast instances a batch at a time until a controller container is OOMKilled; resolves with their count. */
async function ballastUntilKilled(): Promise<number> {
  const killedBefore = (await controllerRuns()).filter((run) => run.lastTermination === 'OOMKilled').length;
  for (let created = 0; created < BALLAST_MAX;) {
    await Promise.all(
      Array.from({ length: BALLAST_BATCH }, (_, offset) =>
        cluster.client.apply({
          apiVersion: BALLAST_API_VERSION,
          kind: BALLAST.kind,
          metadata: { namespace: BALLAST_NAMESPACE, name: ballastName(created + offset) },
          // Random, so that no two share a string (the controller's cache shares equal strings).
          spec: { payload: randomBytes((BALLAST_BYTES * 3) / 4).toString('base64') },
        }),
      ),
    );
    created += BALLAST_BATCH;
    const killed = (await controllerRuns()).filter((run) => run.lastTermination === 'OOMKilled').length;
    if (killed > killedBefore) return created;
  }
  // The last batches may take a moment to reach the controller.
  return cluster.waitFor('a controller container OOMKilled', async () =>
    (await controllerRuns()).some((run) => run.lastTermination === 'OOMKilled') ? BALLAST_MAX : undefined,
  );
}

describe.skipIf(skipped !== undefined)('a Scoby container killed by its memory limit', () => {
  it('restarts, and the instances converge with nothing lost', async () => {
    const before = await controllerRuns();
    const memoryBefore = await controllerMemory();
    let ballast = 0;
    const report = await bench!.measure('Scoby OOMKilled', async (duringFault) => {
      ballast = await ballastUntilKilled();
      await duringFault();
      await Promise.all(
        Array.from({ length: ballast }, (_, index) =>
          cluster.remove({
            apiVersion: BALLAST_API_VERSION,
            kind: BALLAST.kind,
            metadata: { namespace: BALLAST_NAMESPACE, name: ballastName(index) },
          }),
        ),
      );
      return Date.now();
    });
    const after = await controllerRuns();
    console.log(
      `[e2e] limit ${MEMORY_LIMIT}, controller pods at ${memoryBefore.join(' and ')} MiB before: ${ballast} ballast instances of ${BALLAST_BYTES / 1024} KiB; controller containers before ${JSON.stringify(before)}, after ${JSON.stringify(after)}`,
    );
    expect(after.filter((run) => run.lastTermination === 'OOMKilled').length).toBeGreaterThan(0);
    await cluster.waitFor('two ready controller pods', async () => {
      const pods = await controllerPods(cluster);
      return pods.length === 2 && pods.every(podReady);
    });
    expect(report.recoverySeconds).toBeDefined();
    expect(report.lost).toEqual([]);
    expect(report.duplicates).toEqual([]);
    expect(report.unconsented).toEqual([]);
    expect(await bench!.releaseHeld()).toEqual([]);
  });
});
