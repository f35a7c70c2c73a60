/**
 * On the real control plane, an instance's Ready follows its Deployment's Available, not the queue
 * (docs/spec/children-and-status.md §9): INSTANCES instances exist when the controller starts, it runs
 * one reconcile at a time, and each reconcile calls a pre-reconcile hook that answers after HOOK_MS.
 * Each Deployment (0 replicas: Available once kube-controller-manager has looked at it) becomes
 * Available soon after its instance's first reconcile created it. Judged by the two objects'
 * condition times, every instance is Ready within LAG_BOUND_S of its Deployment. A queue that took
 * every instance's first reconcile first made the first instance wait for all the others'
 * (INSTANCES − 1 reconciles of at least HOOK_MS each).
 */
import type { KubeObject } from '@scoby/kube-objects';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningProcess } from '../../src/index.ts';
import { formatLags, readyLags } from '../../bench/ready-lag.ts';
import { crdFor } from '../support/cluster.ts';
import { hookedRegistration } from '../support/hooks-fixtures.ts';
import { startScriptedHook, type ScriptedHook } from '../support/hooks-server.ts';
import { conditionOf, namespaceObject, sleep } from '../support/scoby.ts';
import { registeredKindRole } from './support/grants.ts';
import { realClusterAdmin, REAL_PATIENCE_MS, startRealController } from './support/real-cluster.ts';

const GROUP = 'beacons.example.com';
const API = `${GROUP}/v1`;
const KIND = 'Beacon';
const PLURAL = 'beacons';
const NAMESPACE = 'ready-lag';
const REGISTRATION = 'beacons';
const INSTANCES = 40;
const HOOK_MS = 250;
/** The bench's target for the p99 at N = 3,000 (docs/operations/benchmarks.md), here for every instance. */
const LAG_BOUND_S = 5;

const admin = realClusterAdmin();
let controller: RunningProcess | undefined;
let hook: ScriptedHook;

function beacon(index: number): KubeObject {
  return {
    apiVersion: API,
    kind: KIND,
    metadata: { namespace: NAMESPACE, name: `beacon-${String(index).padStart(2, '0')}` },
    spec: { signal: `signal-${index}` },
  };
}

beforeAll(async () => {
  hook = await startScriptedHook(async () => {
    await sleep(HOOK_MS);
    return { status: 204 };
  });
  await admin.apply(registeredKindRole(GROUP, PLURAL));
  await admin.apply(namespaceObject(NAMESPACE));
  await admin.apply(crdFor({ group: GROUP, kind: KIND, plural: PLURAL }));
  await admin.waitFor(
    'the CRD served',
    async () => (await admin.client.resourceFor(API, KIND)) !== undefined,
  );
  for (let index = 0; index < INSTANCES; index++) await admin.apply(beacon(index));
  const registration = hookedRegistration(REGISTRATION, `${PLURAL}.${GROUP}`, {
    hook: { address: { uri: hook.url }, capabilities: ['pre-reconcile'] },
  });
  const workload = (registration.spec as { workload: { formFactor: { deployment: { replicas: number } } } })
    .workload;
  workload.formFactor.deployment.replicas = 0;
  await admin.apply(registration);
});
afterAll(async () => {
  await controller?.stop();
  await hook?.close();
  await admin.remove(namespaceObject(NAMESPACE)).catch(() => undefined);
  await admin.stop();
});

describe('Ready on the real control plane, at a start over existing instances', () => {
  it(`follows each Deployment's Available within ${LAG_BOUND_S} s, the first instance's included`, async () => {
    controller = startRealController({ workingNamespaces: [NAMESPACE], concurrency: 1 });
    const instances = await admin.waitFor(
      `all ${INSTANCES} beacons Ready=True`,
      async () => {
        const listed = await admin.list(API, KIND, NAMESPACE);
        const ready = listed.filter((object) => conditionOf(object, 'Ready')?.status === 'True');
        return ready.length === INSTANCES ? listed : undefined;
      },
      REAL_PATIENCE_MS + INSTANCES * 4 * HOOK_MS,
    );
    const lags = readyLags(instances, await admin.list('apps/v1', 'Deployment', NAMESPACE));
    console.info(`Ready lag behind the Deployment's Available, N = ${INSTANCES}: ${formatLags(lags)}`);
    expect(lags).toHaveLength(INSTANCES);
    expect(lags[0]!.lagSeconds).toBeLessThanOrEqual(LAG_BOUND_S);
    expect(lags.filter((lag) => lag.lagSeconds > LAG_BOUND_S)).toEqual([]);
  });
});
