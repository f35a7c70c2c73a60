/**
 * The chaos soak's bookkeeping (bench/chaos/soak-bookkeeping.ts, latency.ts): a soak that reports
 * 0 double writes, 0 lost updates, a flat RSS or Scoby's share of the latency is only as good as
 * these functions.
 */
import { describe, expect, it, vi } from 'vitest';
import type { Violation } from '../../bench/chaos/invariants.ts';
import type { DynamicClient } from '@scoby/controller-runtime';
import type { KubeObject } from '@scoby/kube-objects';
import type { TrackedInstance } from '../../bench/chaos/churn.ts';
import { percentile, ReconcileLatency, summarize } from '../../bench/chaos/latency.ts';
import { DEPLOYMENTS } from '../../bench/world.ts';
import {
  EMPTY_LEDGER,
  flatness,
  parseSoakDuration,
  recordLeaseWrites,
  updatesLost,
} from '../../bench/chaos/soak-bookkeeping.ts';

const LEASE = '/apis/coordination.k8s.io/v1/namespaces/scoby-system/leases/scoby-controller-leader';
const LEASES = '/apis/coordination.k8s.io/v1/namespaces/scoby-system/leases';
const DEPLOYMENT = '/apis/apps/v1/namespaces/bench/deployments/mailer-mailer-1';
const isController = (user: string | undefined) => user?.startsWith('scoby-') ?? false;
const entry = (user: string, method: string, path: string, code = 200) => ({ user, method, path, code });

describe('recordLeaseWrites', () => {
  it('counts writes of a replica that did not hold the Lease, and nothing else', () => {
    const ledger = recordLeaseWrites(
      EMPTY_LEDGER,
      [
        entry('scoby-0', 'POST', LEASES, 201),
        entry('scoby-0', 'PATCH', DEPLOYMENT),
        entry('scoby-1', 'GET', LEASE),
        // A failed takeover leaves the holder as it was.
        entry('scoby-1', 'PUT', LEASE, 409),
        entry('scoby-1', 'PATCH', DEPLOYMENT, 500),
        entry('chaos-harness', 'PATCH', DEPLOYMENT),
        entry('scoby-1', 'PUT', LEASE, 200),
        entry('scoby-1', 'POST', '/api/v1/namespaces/bench/events', 201),
        // The deposed leader's write that reached the server after the takeover.
        entry('scoby-0', 'PUT', DEPLOYMENT),
      ],
      isController,
    );
    expect(ledger).toEqual({
      holder: 'scoby-1',
      doubleWrites: 2,
      examples: [
        `PATCH ${DEPLOYMENT} by scoby-1 while scoby-0 held the Lease`,
        `PUT ${DEPLOYMENT} by scoby-0 while scoby-1 held the Lease`,
      ],
    });
  });

  it('counts a write before anyone held the Lease, and carries the holder from one call to the next', () => {
    const first = recordLeaseWrites(EMPTY_LEDGER, [entry('scoby-0', 'DELETE', DEPLOYMENT)], isController);
    expect(first.doubleWrites).toBe(1);
    expect(first.examples).toEqual([`DELETE ${DEPLOYMENT} by scoby-0 while nobody held the Lease`]);
    const second = recordLeaseWrites(first, [entry('scoby-0', 'PUT', LEASE)], isController);
    const third = recordLeaseWrites(second, [entry('scoby-0', 'PATCH', DEPLOYMENT)], isController);
    expect({ holder: third.holder, doubleWrites: third.doubleWrites }).toEqual({
      holder: 'scoby-0',
      doubleWrites: 1,
    });
  });
});

describe('updatesLost', () => {
  const violation = (kind: Violation['kind'], object: string): Violation => ({ kind, object, detail: '' });

  it('counts each object with a lost-update violation once', () => {
    expect(
      updatesLost([
        violation('lost-write', 'Mailer/mailer-1'),
        violation('lost-status', 'Mailer/mailer-1'),
        violation('stale-child', 'Deployment bench/mailer-mailer-2'),
        violation('missing-child', 'Mailer/mailer-3'),
        violation('half-write', 'Deployment bench/mailer-mailer-4'),
        violation('orphan', 'Deployment bench/mailer-mailer-5'),
        violation('duplicate', 'Service bench/mailer-mailer-6'),
        violation('stuck-finalizer', 'Relay/relay-7'),
      ]),
    ).toBe(4);
    expect(updatesLost([])).toBe(0);
  });
});

describe('flatness', () => {
  const samples = (values: number[]) => values.map((rssMiB, index) => ({ at: index * 1000, rssMiB }));

  it('compares the mean of three samples at the end with three after the first quarter', () => {
    // Samples 0..12 s: the warm-up ends at 3 s, so samples 3, 4 and 5 make "after warm-up".
    const grown = flatness(samples([50, 80, 90, 100, 100, 100, 105, 110, 112, 115, 120, 120, 120]));
    expect(grown).toEqual({ afterWarmUpMiB: 100, endMiB: 120, change: 0.2 });
    expect(flatness(samples([60, 100, 100, 100, 100, 100, 100, 100])).change).toBe(0);
  });

  it('gives NaN for fewer than two windows of samples', () => {
    expect(flatness(samples([100, 100, 100, 100, 100])).change).toBeNaN();
  });
});

describe('latency summary', () => {
  it('takes nearest-rank percentiles', () => {
    const values = Array.from({ length: 100 }, (_, index) => 100 - index);
    expect(summarize(values)).toEqual({ count: 100, p50: 50, p90: 90, p99: 99, max: 100 });
    expect(percentile([7], 99)).toBe(7);
    expect(summarize([]).p50).toBeNaN();
  });
});

describe('parseSoakDuration', () => {
  it('reads seconds, minutes and hours, minutes without a unit', () => {
    expect([
      parseSoakDuration('30m'),
      parseSoakDuration('90s'),
      parseSoakDuration('2'),
      parseSoakDuration('1h'),
    ]).toEqual([1800, 90, 120, 3600]);
  });
  it('refuses what is not a duration', () => {
    expect(() => parseSoakDuration('soon')).toThrow('--soak: not a duration: "soon"');
    expect(() => parseSoakDuration('0m')).toThrow('--soak: must be longer than 0');
  });
});

describe("ReconcileLatency cut at the Deployment's rollout", () => {
  const WIDGETS = {
    registration: 'widget',
    apiVersion: 'example.com/v1',
    kind: 'Widget',
    resource: { group: 'example.com', version: 'v1', resource: 'widgets', namespaced: true },
  };
  let instance: KubeObject;
  let deployment: KubeObject;
  const client = {
    list: async (resource: { resource: string }) => ({
      items: [resource.resource === 'deployments' ? deployment : instance],
    }),
  } as unknown as DynamicClient;
  const status = (generation: number, ready: string, reason: string) => ({
    observedGeneration: generation,
    conditions: [{ type: 'Ready', status: ready, reason }],
  });
  const deploymentAt = (generation: number, observed: number, available: number): KubeObject => ({
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: {
      name: 'one',
      generation,
      ownerReferences: [
        { apiVersion: 'example.com/v1', kind: 'Widget', name: 'one', uid: 'u1', controller: true },
      ],
    },
    spec: { replicas: 1 },
    status: {
      observedGeneration: observed,
      replicas: 1,
      updatedReplicas: available,
      availableReplicas: available,
      conditions: [{ type: 'Available', status: available === 1 ? 'True' : 'False' }],
    },
  });
  const at = (generation: number, ...rest: Parameters<typeof status>) => ({
    apiVersion: 'example.com/v1',
    kind: 'Widget',
    metadata: { name: 'one', uid: 'u1', generation },
    status: status(...rest),
  });

  it('splits write → taken → rolled out → Ready, ignoring a rollout seen before Scoby took the change', async () => {
    const latency = new ReconcileLatency(client, [WIDGETS], 500, DEPLOYMENTS);
    const tracked = { workload: WIDGETS, name: 'one', revision: 2, deleted: false } as TrackedInstance;
    const clock = vi.spyOn(Date, 'now');
    const look = async (now: number) => {
      clock.mockReturnValue(now);
      await latency.observe();
    };
    latency.written(tracked, 2, 1_000);
    // The old Deployment is rolled out, a failed hook holds generation 2: not taken yet.
    instance = at(2, 2, 'False', 'HookFailed');
    deployment = deploymentAt(1, 1, 1);
    await look(1_500);
    // Taken: the new template is not rolled out yet.
    instance = at(2, 2, 'False', 'DeploymentUnavailable');
    deployment = deploymentAt(2, 2, 0);
    await look(3_000);
    deployment = deploymentAt(2, 2, 1);
    await look(7_000);
    instance = at(2, 2, 'True', 'Ready');
    await look(7_500);
    clock.mockRestore();
    expect(latency.samples).toEqual([6_500]);
    expect(latency.parts).toEqual([{ taken: 2_000, rollout: 4_000, ready: 500 }]);
  });

  it('cuts nothing without the Deployments', async () => {
    const latency = new ReconcileLatency(client, [WIDGETS], 500);
    latency.written(
      { workload: WIDGETS, name: 'one', revision: 2, deleted: false } as TrackedInstance,
      2,
      Date.now(),
    );
    instance = at(2, 2, 'True', 'Ready');
    await latency.observe();
    expect(latency.samples).toHaveLength(1);
    expect(latency.parts).toEqual([]);
  });
});
