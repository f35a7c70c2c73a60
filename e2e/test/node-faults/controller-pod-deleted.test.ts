/**
 * The Scoby pod that owns a registration deleted (kubectl delete pod) while instances of it are parked
 * in deletion, their finalize hook refusing permanently. The other replica takes the registration
 * over, asks the hook again about every parked instance (a new owner starts afresh, hooks-v1.md §6.3)
 * and keeps every finalizer while the hook refuses; the spec edits made meanwhile are all applied; once
 * the hook consents, the finalizers go.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FaultBench } from '../../src/faults/fault-bench.ts';
import { clusterForScenario, hookHost, SCOBY_NAMESPACE, type ClusterHandle } from '../../src/index.ts';
import { realPodsOrReason } from '../../src/node-only.ts';

const skipped = realPodsOrReason();
let cluster: ClusterHandle;
let bench: FaultBench;

beforeAll(async () => {
  if (skipped !== undefined) return;
  cluster = clusterForScenario();
  bench = await FaultBench.start(cluster, hookHost(), { name: 'pod-deleted' });
});
afterAll(async () => {
  await bench?.close();
  cluster?.close();
});

/** The pod whose replica holds the registration's Lease (docs/spec/registration.md §9.3). */
async function owner(): Promise<string | undefined> {
  const lease = await cluster.get(
    'coordination.k8s.io/v1',
    'Lease',
    SCOBY_NAMESPACE,
    `scoby-registration-${bench.registration}`,
  );
  const holder = (lease?.spec as { holderIdentity?: string } | undefined)?.holderIdentity;
  return holder ? holder.split('_')[0] : undefined;
}

describe.skipIf(skipped !== undefined)('a Scoby pod deleted while instances are parked in deletion', () => {
  it('keeps their finalizers while the hook refuses, applies every edit, and lets them go once it consents', async () => {
    const deleted = await cluster.waitFor('the registration to have an owner', owner);
    const started = Date.now();
    const report = await bench.measure('Scoby pod deleted', async (duringFault) => {
      await cluster.remove({
        apiVersion: 'v1',
        kind: 'Pod',
        metadata: { namespace: SCOBY_NAMESPACE, name: deleted },
      });
      await duringFault();
      await cluster.waitForGone('v1', 'Pod', SCOBY_NAMESPACE, deleted);
      return Date.now();
    });
    const successor = await cluster.waitFor('another pod to own the registration', async () => {
      const pod = await owner();
      return pod !== undefined && pod !== deleted ? pod : undefined;
    });
    console.log(
      `[e2e] registration ${bench.registration}: owned by ${deleted}, deleted; now by ${successor}`,
    );
    // The new owner asked again about every parked instance, and was refused.
    const asked = await cluster.waitFor(
      'the new owner to ask the hook about every held instance',
      async () => {
        const calls = bench.callsSince(started);
        return bench.held.every((instance) => calls.some((call) => call.instance === instance))
          ? calls
          : undefined;
      },
    );
    expect(asked.every((call) => call.answer === 'refused')).toBe(true);
    expect(report.recoverySeconds).toBeDefined();
    expect(report.lost).toEqual([]);
    expect(report.duplicates).toEqual([]);
    expect(report.unconsented).toEqual([]);
    expect(await bench.releaseHeld()).toEqual([]);
  });
});
