/**
 * No head-of-line blocking across registrations: a registration with 1,000 instances whose hook
 * answers after 200 ms must not hold back another registration's instances.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { crdFor, startTestCluster, type TestCluster } from '../support/cluster.ts';
import { conditionOf } from '../support/scoby.ts';
import { hookedRegistration, registrationReady } from '../support/hooks-fixtures.ts';
import { startScriptedHook, type ScriptedHook } from '../support/hooks-server.ts';

const SLOW_INSTANCES = 1000;
const QUICK_INSTANCES = 20;
const HOOK_LATENCY_MS = 200;

let cluster: TestCluster;
let slowHook: ScriptedHook;
let quickHook: ScriptedHook;

beforeAll(async () => {
  cluster = await startTestCluster();
  slowHook = await startScriptedHook(
    () => new Promise((resolve) => setTimeout(() => resolve({ status: 204 }), HOOK_LATENCY_MS)),
  );
  quickHook = await startScriptedHook(() => ({ status: 204 }));
  await cluster.apply(crdFor({ group: 'bulk.example.com', kind: 'Bulk', plural: 'bulks' }));
  await cluster.apply(crdFor({ group: 'quick.example.com', kind: 'Quick', plural: 'quicks' }));
  await cluster.apply({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'load' } });
  await cluster.apply(
    hookedRegistration('bulk', 'bulks.bulk.example.com', {
      hook: { address: { uri: slowHook.url }, capabilities: ['pre-reconcile'] },
    }),
  );
  await cluster.apply(
    hookedRegistration('quick', 'quicks.quick.example.com', {
      hook: { address: { uri: quickHook.url }, capabilities: ['pre-reconcile'] },
    }),
  );
  await Promise.all([registrationReady(cluster, 'bulk'), registrationReady(cluster, 'quick')]);
}, 60_000);
afterAll(async () => {
  await cluster.stop();
  await Promise.all([slowHook.close(), quickHook.close()]);
}, 60_000);

async function createAll(group: string, kind: string, prefix: string, count: number): Promise<void> {
  const names = Array.from({ length: count }, (_, index) => `${prefix}-${index}`);
  for (let start = 0; start < names.length; start += 50) {
    await Promise.all(
      names
        .slice(start, start + 50)
        .map((name) =>
          cluster.apply({ apiVersion: `${group}/v1`, kind, metadata: { name, namespace: 'load' }, spec: {} }),
        ),
    );
  }
}

const slowInstancesSeen = () =>
  new Set(slowHook.requests.map((request) => request.body.object.metadata.name)).size;

describe('a slow hook with 1,000 instances', () => {
  it('does not delay the instances of another registration', async () => {
    const createStarted = Date.now();
    await createAll('bulk.example.com', 'Bulk', 'bulk', SLOW_INSTANCES);
    const createdInMs = Date.now() - createStarted;

    const quickStarted = Date.now();
    await createAll('quick.example.com', 'Quick', 'quick', QUICK_INSTANCES);
    await cluster.waitFor('every quick instance Ready', async () => {
      const quick = await cluster.list('quick.example.com/v1', 'Quick', 'load');
      return (
        quick.length === QUICK_INSTANCES &&
        quick.every((object) => conditionOf(object, 'Ready')?.status === 'True')
      );
    });
    const quickConvergedInMs = Date.now() - quickStarted;
    const slowSeenMeanwhile = slowInstancesSeen();

    // The slow registration is still working through its backlog when the quick one is done. Even at
    // full concurrency (16) the backlog takes 1000 × 200 ms / 16 = 12.5 s, so 10 s proves the quick
    // instances did not queue behind it, with room for a busy machine.
    expect(slowSeenMeanwhile).toBeLessThan(SLOW_INSTANCES);
    expect(quickConvergedInMs).toBeLessThan(10_000);
    console.info(
      `created ${SLOW_INSTANCES} slow instances in ${createdInMs} ms; ${QUICK_INSTANCES} quick instances Ready in ` +
        `${quickConvergedInMs} ms while the slow hook had seen ${slowSeenMeanwhile} instances ` +
        `(${slowHook.requests.length} calls in ${Date.now() - createStarted} ms)`,
    );
  }, 60_000);
});
