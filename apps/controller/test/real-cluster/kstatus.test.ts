/**
 * docs/spec/children-and-status.md §8.12 and docs/spec/registration.md §5.6 on the real control plane:
 * instances and registrations driven into each state, then judged by kstatus itself
 * (sigs.k8s.io/cli-utils's status.Compute, built from test/kstatus), as Flux's health checks and kpt
 * judge them. The Pods of the Deployments that must not become available stay unscheduled (a
 * nodeSelector no node has); the test writes a crash-looping container's status as the kubelet would.
 */
import type { KubeObject } from '@scoby/kube-objects';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningProcess } from '../../src/index.ts';
import { computeKstatus, kstatusBinary } from '../kstatus/kstatus.ts';
import { crdFor } from '../support/cluster.ts';
import { hookedRegistration } from '../support/hooks-fixtures.ts';
import { errorReply, startScriptedHook, type HookReply, type ScriptedHook } from '../support/hooks-server.ts';
import { conditionOf, namespaceObject, REGISTRATION_API } from '../support/scoby.ts';
import { containerWaits } from './support/container-status.ts';
import { registeredKindRole } from './support/grants.ts';
import { realClusterAdmin, startRealController } from './support/real-cluster.ts';

const GROUP = 'kstatus.real.example.com';
const API = `${GROUP}/v1`;
const KIND = 'Probe';
const NAMESPACE = 'kstatus';
const IMAGE = 'registry.example.com/adapter:1.0';
const admin = realClusterAdmin();
let controller: RunningProcess;
let hook: ScriptedHook;
let binary: string;
/** The finalize hook refuses while this holds, so a deleted instance stays Terminating. */
let holdFinalize = true;

type Children = Record<string, KubeObject & { spec: Record<string, unknown> }>;

/** The pre-reconcile answer for each instance: its children changed as its state needs. */
function preReconcile(name: string, given: Children): HookReply {
  const children = structuredClone(given);
  const deployment = children['deployment']!;
  const pod = (deployment.spec.template as { spec: Record<string, unknown> }).spec;
  const unschedulable = () => (pod.nodeSelector = { [`${GROUP}/no-such-node`]: 'true' });
  switch (name) {
    case 'flaky':
      return errorReply(503, { message: 'quota service restarting' });
    case 'refused':
      return errorReply(422, { message: 'over quota', permanent: true });
    case 'invalid-child':
      deployment.spec.replicas = -1;
      break;
    case 'waiting':
    case 'crashing':
      unschedulable();
      break;
    case 'deadline':
      unschedulable();
      deployment.spec.progressDeadlineSeconds = 1;
      break;
    default:
      // Zero replicas: Available as soon as kube-controller-manager has looked at the Deployment.
      deployment.spec.replicas = 0;
  }
  return { status: 200, headers: { 'Content-Type': 'application/json' }, body: { children } };
}

function probe(name: string, spec: Record<string, unknown> = {}): KubeObject {
  return { apiVersion: API, kind: KIND, metadata: { name, namespace: NAMESPACE }, spec };
}

const INSTANCES = [
  'healthy',
  'waiting',
  'deadline',
  'crashing',
  'flaky',
  'refused',
  'invalid-child',
  'leaving',
];

beforeAll(async () => {
  binary = kstatusBinary();
  hook = await startScriptedHook((request) => {
    const name = request.body.object.metadata.name ?? '';
    if (request.body.phase === 'finalize') {
      return holdFinalize ? errorReply(409, { message: 'backup still running' }) : { status: 204 };
    }
    return preReconcile(name, (request.body.children ?? {}) as Children);
  });
  await admin.apply(registeredKindRole(GROUP, 'probes'));
  await admin.apply(registeredKindRole(GROUP, 'spares'));
  await admin.apply(namespaceObject(NAMESPACE));
  await admin.apply(crdFor({ group: GROUP, kind: KIND, plural: 'probes' }));
  await admin.apply(crdFor({ group: GROUP, kind: 'Spare', plural: 'spares' }));
  await admin.waitFor(
    'the CRDs served',
    async () =>
      (await admin.client.resourceFor(API, KIND)) !== undefined &&
      (await admin.client.resourceFor(API, 'Spare')) !== undefined,
  );
  controller = startRealController();
  const probes = hookedRegistration('kstatus-probes', `probes.${GROUP}`, {
    hook: { address: { uri: hook.url }, capabilities: ['pre-reconcile', 'finalize'] },
  });
  const workload = (probes.spec as { workload: Record<string, unknown> }).workload;
  // A sink that is not an address object cannot be rendered until the spec changes: parked.
  workload.parameterConfiguration = {
    fromSpec: {
      toEnv: [{ path: 'spec.sink', name: 'K_SINK', valueFrom: { builtInFunc: { name: 'resolveAddress' } } }],
    },
  };
  await admin.apply(probes);
  await admin.apply(hookedRegistration('kstatus-no-crd', `absents.${GROUP}`));
  await admin.apply(
    hookedRegistration('kstatus-invalid', `absents.${GROUP}`, {
      hook: { address: { uri: hook.url }, capabilities: ['pre-reconcile'], timeout: '10s' },
    }),
  );
  await admin.apply(
    hookedRegistration('kstatus-hook-unresolved', `spares.${GROUP}`, {
      hook: {
        address: { ref: { apiVersion: 'v1', kind: 'Service', name: 'no-such-hook', namespace: NAMESPACE } },
        capabilities: ['pre-reconcile'],
      },
    }),
  );
  for (const name of INSTANCES) await admin.apply(probe(name));
  await admin.apply(probe('unrenderable', { sink: 'not an address' }));
});

const REGISTRATIONS = ['kstatus-probes', 'kstatus-no-crd', 'kstatus-invalid', 'kstatus-hook-unresolved'];

/**
 * What this file made goes while its controller and hook still answer: the files after it share the
 * control plane, and their controllers would otherwise keep reconciling these instances (a hook gone,
 * a Pod crash-looping), writes inside their windows of "nothing written".
 */
async function removeEverything(): Promise<void> {
  holdFinalize = false;
  // Deleted again at each look, and a look the API server cannot answer yet (a CRD's storage
  // initialising, 429) is only a look too early.
  await admin.waitFor('the kstatus instances and registrations gone', async () => {
    try {
      const listed = async (apiVersion: string, kind: string, namespace?: string) =>
        (await admin.list(apiVersion, kind, namespace)).map((object) => ({ ...object, apiVersion, kind }));
      const left = [
        ...(await listed(API, KIND, NAMESPACE)),
        ...(await listed(API, 'Spare', NAMESPACE)),
        ...(await listed(REGISTRATION_API, 'CRDRegistration')).filter((registration) =>
          REGISTRATIONS.includes(registration.metadata.name ?? ''),
        ),
      ];
      for (const object of left)
        if (object.metadata.deletionTimestamp === undefined) await admin.remove(object);
      return left.length === 0;
    } catch {
      return false;
    }
  });
}

afterAll(async () => {
  try {
    if (controller !== undefined) await removeEverything();
  } finally {
    await controller?.stop();
    await hook?.close();
    await admin.stop();
  }
});

/** What the kubelet writes for a container that keeps crashing. */
const crashLoops = (pod: KubeObject): Promise<void> =>
  containerWaits(
    admin.client,
    pod,
    IMAGE,
    { reason: 'CrashLoopBackOff', message: 'back-off 1m20s restarting failed container=adapter' },
    {
      restartCount: 4,
      lastState: { terminated: { exitCode: 1, reason: 'Error', startedAt: null, finishedAt: null } },
    },
  );

/** `<type>=<reason>` of the kstatus condition the object carries, or `neither`. */
function kstatusCondition(object: KubeObject): string {
  const found = ['Reconciling', 'Stalled'].flatMap((type) => {
    const condition = conditionOf(object, type);
    return condition ? [`${type}=${condition.status}/${condition.reason}`] : [];
  });
  return found.length === 0 ? 'neither' : found.join(', ');
}

async function settled(
  apiVersion: string,
  kind: string,
  namespace: string | undefined,
  name: string,
  expected: string,
): Promise<KubeObject> {
  let seen = 'nothing';
  try {
    return await admin.waitFor(`${kind} ${name} with ${expected}`, async () => {
      const object = await admin.get(apiVersion, kind, namespace, name);
      seen = JSON.stringify(object?.status ?? null);
      // An object Scoby has not written a status for yet carries neither condition either.
      const written = expected !== 'neither' || conditionOf(object, 'Ready')?.status === 'True';
      return object && written && kstatusCondition(object) === expected ? object : undefined;
    });
  } catch (error) {
    throw new Error(`${(error as Error).message}; last status ${seen}`, { cause: error });
  }
}

describe('kstatus reads Scoby on the real control plane (§8.12, registration.md §5.6)', () => {
  it('reads each instance state as the spec table says', async () => {
    const [pod] = await admin.waitFor('the Pod of "crashing"', async () => {
      const pods = (await admin.list('v1', 'Pod', NAMESPACE)).filter((candidate) =>
        candidate.metadata.name?.startsWith('kstatus-probes-crashing-'),
      );
      return pods.length === 1 ? pods : undefined;
    });
    await crashLoops(pod!);
    await settled(API, KIND, NAMESPACE, 'leaving', 'neither');
    await admin.remove(probe('leaving'));

    const table: [string, string, string][] = [
      ['healthy', 'neither', 'Current'],
      ['waiting', 'Reconciling=True/Progressing', 'InProgress'],
      ['deadline', 'Stalled=True/ProgressDeadlineExceeded', 'Failed'],
      ['crashing', 'Stalled=True/CrashLoopBackOff', 'Failed'],
      ['flaky', 'Reconciling=True/HookFailed', 'InProgress'],
      ['refused', 'Stalled=True/HookFailed', 'Failed'],
      ['unrenderable', 'Stalled=True/RenderFailed', 'Failed'],
      ['invalid-child', 'Reconciling=True/ApplyFailed', 'InProgress'],
      ['leaving', 'Reconciling=True/HookFailed', 'Terminating'],
    ];
    const objects: KubeObject[] = [];
    for (const [name, condition] of table) objects.push(await settled(API, KIND, NAMESPACE, name, condition));
    const leaving = objects.at(-1)!;
    expect(leaving.metadata.deletionTimestamp).toEqual(expect.any(String));
    const verdicts = computeKstatus(binary, objects);
    expect(
      table.map(([name], index) => [name, kstatusCondition(objects[index]!), verdicts[index]?.status]),
    ).toEqual(table);
  });

  it('reads each registration state as the spec table says', async () => {
    const table: [string, string, string][] = [
      ['kstatus-probes', 'neither', 'Current'],
      ['kstatus-no-crd', 'Reconciling=True/CRDERROR', 'InProgress'],
      ['kstatus-invalid', 'Stalled=True/InvalidHookTimeout', 'Failed'],
      ['kstatus-hook-unresolved', 'Reconciling=True/HOOKFAILED', 'InProgress'],
    ];
    const objects: KubeObject[] = [];
    for (const [name, condition] of table) {
      objects.push(await settled(REGISTRATION_API, 'CRDRegistration', undefined, name, condition));
    }
    const verdicts = computeKstatus(binary, objects);
    expect(
      table.map(([name], index) => [name, kstatusCondition(objects[index]!), verdicts[index]?.status]),
    ).toEqual(table);
  });
});
