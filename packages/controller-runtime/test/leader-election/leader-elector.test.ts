import { CoordinationV1Api } from '@kubernetes/client-node';
import { startApiServer, type InMemoryApiServer } from '@scoby/in-memory-apiserver';
import type { KubeObject } from '@scoby/kube-objects';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DynamicClient, type ResourceRef } from '../../src/client/dynamic-client.ts';
import { realClock } from '../../src/time/clock.ts';
import { LeaderElector, type LeaderElectorOptions } from '../../src/leader-election/leader-elector.ts';
import { dynamicLeaseClient } from '../../src/leader-election/lease-client.ts';
import { eventually } from '../../src/testing/eventually.ts';

const LEASES: ResourceRef = {
  group: 'coordination.k8s.io',
  version: 'v1',
  resource: 'leases',
  namespaced: true,
};
const NAMESPACES: ResourceRef = { group: '', version: 'v1', resource: 'namespaces', namespaced: false };
const MICRO_TIME = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}Z$/;

let server: InMemoryApiServer;
let client: DynamicClient;
const electors: LeaderElector[] = [];

beforeEach(async () => {
  server = await startApiServer();
  client = new DynamicClient(server.kubeConfig());
  await client.create(NAMESPACES, { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'scoby' } });
});

afterEach(async () => {
  for (const elector of electors.splice(0)) await elector.stop();
  client.close();
  await server.stop();
});

interface Candidate {
  elector: LeaderElector;
  /** `started` / `stopped` transitions with the time they happened. */
  transitions: Array<{ what: 'started' | 'stopped'; at: number }>;
}

function candidate(identity: string, options: Partial<LeaderElectorOptions> = {}): Candidate {
  const transitions: Candidate['transitions'] = [];
  const elector = new LeaderElector({
    client: server.kubeConfig().makeApiClient(CoordinationV1Api),
    namespace: 'scoby',
    name: 'scoby-controller-leader',
    identity,
    leaseDurationMs: 600,
    renewDeadlineMs: 400,
    retryPeriodMs: 50,
    onStartedLeading: () => transitions.push({ what: 'started', at: Date.now() }),
    onStoppedLeading: () => transitions.push({ what: 'stopped', at: Date.now() }),
    ...options,
  });
  electors.push(elector);
  return { elector, transitions };
}

async function readLease(): Promise<{ spec: Record<string, unknown> } & KubeObject> {
  return (await client.get(LEASES, 'scoby', 'scoby-controller-leader')) as {
    spec: Record<string, unknown>;
  } & KubeObject;
}

const whats = (c: Candidate) => c.transitions.map((transition) => transition.what);

describe('LeaderElector against an API server', () => {
  it('creates the Lease when absent and leads, writing MicroTime timestamps', async () => {
    const a = candidate('a');
    a.elector.start();
    await eventually(() => expect(a.elector.isLeader()).toBe(true));
    expect(whats(a)).toEqual(['started']);
    expect(a.elector.isHealthy()).toBe(true);
    const lease = await readLease();
    expect(lease.spec).toEqual({
      holderIdentity: 'a',
      leaseDurationSeconds: 1,
      acquireTime: expect.stringMatching(MICRO_TIME),
      renewTime: expect.stringMatching(MICRO_TIME),
      leaseTransitions: 0,
    });
  });

  it('keeps renewing while leading, so a second candidate only stands by', async () => {
    // Generous durations: this test is about renewal, not about how fast a takeover can be.
    const a = candidate('a', { leaseDurationMs: 1500, renewDeadlineMs: 1000 });
    a.elector.start();
    await eventually(() => expect(a.elector.isLeader()).toBe(true));
    const firstRenew = Date.parse((await readLease()).spec.renewTime as string);
    const b = candidate('b', { leaseDurationMs: 1500, renewDeadlineMs: 1000 });
    b.elector.start();
    await new Promise((resolve) => setTimeout(resolve, 1200));
    expect(b.elector.isLeader()).toBe(false);
    expect(b.elector.isHealthy()).toBe(true);
    expect(whats(b)).toEqual([]);
    expect(whats(a)).toEqual(['started']);
    const lease = await readLease();
    expect(lease.spec.holderIdentity).toBe('a');
    expect(Date.parse(lease.spec.renewTime as string)).toBeGreaterThan(firstRenew + 900);
  });

  it('takes over within the lease duration when the leader stops without releasing', async () => {
    const a = candidate('a');
    a.elector.start();
    await eventually(() => expect(a.elector.isLeader()).toBe(true));
    const b = candidate('b');
    b.elector.start();
    await eventually(() => expect(b.elector.isHealthy()).toBe(true));
    const lastRenew = Date.parse((await readLease()).spec.renewTime as string);
    await a.elector.stop();
    const stoppedAt = Date.now();
    expect(whats(a)).toEqual(['started', 'stopped']);
    await eventually(() => expect(b.elector.isLeader()).toBe(true), 3000);
    const takeover = b.transitions[0]?.at ?? 0;
    // Not before the lease expired, and no later than one retry period after (plus scheduling slack).
    expect(takeover).toBeGreaterThan(lastRenew + 600);
    expect(takeover - stoppedAt).toBeLessThan(600 + 50 + 250);
    const lease = await readLease();
    expect(lease.spec).toMatchObject({ holderIdentity: 'b', leaseTransitions: 1 });
  });

  it('hands over at once when the leader releases the Lease', async () => {
    const a = candidate('a');
    a.elector.start();
    await eventually(() => expect(a.elector.isLeader()).toBe(true));
    const b = candidate('b', { retryPeriodMs: 20 });
    b.elector.start();
    await eventually(() => expect(b.elector.isHealthy()).toBe(true));
    const releasedAt = Date.now();
    await a.elector.release();
    expect(whats(a)).toEqual(['started', 'stopped']);
    await eventually(() => expect(b.elector.isLeader()).toBe(true), 3000);
    expect((b.transitions[0]?.at ?? Infinity) - releasedAt).toBeLessThan(250);
  });

  it('release leaves an empty holder and a one-second lease', async () => {
    const a = candidate('a');
    a.elector.start();
    await eventually(() => expect(a.elector.isLeader()).toBe(true));
    await a.elector.release();
    expect((await readLease()).spec).toEqual({
      holderIdentity: '',
      leaseDurationSeconds: 1,
      acquireTime: expect.stringMatching(MICRO_TIME),
      renewTime: expect.stringMatching(MICRO_TIME),
      leaseTransitions: 0,
    });
  });

  it('steps down when renewals fail past the renew deadline, and leads again once the API answers', async () => {
    const a = candidate('a');
    a.elector.start();
    await eventually(() => expect(a.elector.isLeader()).toBe(true));
    server.faults.failNext({ resource: 'leases' }, { code: 500, count: 1000 });
    const failingFrom = Date.now();
    await eventually(() => expect(whats(a)).toEqual(['started', 'stopped']), 3000);
    const steppedDownAfter = (a.transitions[1]?.at ?? 0) - failingFrom;
    expect(steppedDownAfter).toBeGreaterThan(300);
    expect(steppedDownAfter).toBeLessThan(400 + 250);
    expect(a.elector.isHealthy()).toBe(false);
    server.faults.reset();
    await eventually(() => expect(whats(a)).toEqual(['started', 'stopped', 'started']), 3000);
    expect(a.elector.isHealthy()).toBe(true);
  });

  it('never leads on a claim that came back after the renew deadline', async () => {
    // Every request takes 250 ms: a read and a create or update take 500 ms, past the 400 ms deadline.
    server.faults.setLatency(250);
    const a = candidate('a');
    a.elector.start();
    await eventually(async () => expect((await readLease()).spec.holderIdentity).toBe('a'), 3000);
    await new Promise((resolve) => setTimeout(resolve, 1_200));
    expect(whats(a)).toEqual([]);
    expect(a.elector.isLeader()).toBe(false);
  });

  it('steps down, saying why, when another candidate holds the Lease', async () => {
    const reasons: string[] = [];
    const a = candidate('a', {
      leaseDurationMs: 3000,
      renewDeadlineMs: 2000,
      onStoppedLeading: (why) => reasons.push(why),
    });
    a.elector.start();
    await eventually(() => expect(a.elector.isLeader()).toBe(true));
    const lease = await readLease();
    await client.update(LEASES, { ...lease, spec: { ...lease.spec, holderIdentity: 'b' } });
    await eventually(() => expect(reasons).toEqual(['the lease is held by another candidate']), 1_000);
    expect(a.elector.isLeader()).toBe(false);
  });

  it('rides out write conflicts without stepping down', async () => {
    const a = candidate('a', { leaseDurationMs: 3000, renewDeadlineMs: 2000 });
    a.elector.start();
    await eventually(() => expect(a.elector.isLeader()).toBe(true));
    server.faults.conflictStorm({ resource: 'leases' }, 3);
    await new Promise((resolve) => setTimeout(resolve, 400));
    expect(whats(a)).toEqual(['started']);
    expect(a.elector.isLeader()).toBe(true);
  });

  it('a standby whose clock runs 20 s ahead does not take the lease from a leader that keeps renewing', async () => {
    const durations = { leaseDurationMs: 1500, renewDeadlineMs: 1000, retryPeriodMs: 100 };
    const a = candidate('a', durations);
    a.elector.start();
    await eventually(() => expect(a.elector.isLeader()).toBe(true));
    // The old rule, renewTime + leaseDuration < now, called this lease expired at every look.
    const ahead = { ...realClock, now: () => Date.now() + 20_000 };
    const b = candidate('b', { ...durations, clock: ahead });
    b.elector.start();
    await new Promise((resolve) => setTimeout(resolve, 2500));
    expect(b.elector.isHealthy()).toBe(true);
    expect(whats(b)).toEqual([]);
    expect(whats(a)).toEqual(['started']);
    expect((await readLease()).spec).toMatchObject({ holderIdentity: 'a', leaseTransitions: 0 });
  });

  it('works over the DynamicClient too, whose request timeout bounds every Lease call', async () => {
    const leaseClient = new DynamicClient(server.kubeConfig(), { requestTimeoutMs: 200 });
    const a = candidate('a', { client: dynamicLeaseClient(leaseClient) });
    a.elector.start();
    await eventually(() => expect(a.elector.isLeader()).toBe(true));
    expect((await readLease()).spec).toEqual({
      holderIdentity: 'a',
      leaseDurationSeconds: 1,
      acquireTime: expect.stringMatching(MICRO_TIME),
      renewTime: expect.stringMatching(MICRO_TIME),
      leaseTransitions: 0,
    });
    // Renewals are PUTs through the same client.
    const acquired = Date.parse((await readLease()).spec.renewTime as string);
    await eventually(async () =>
      expect(Date.parse((await readLease()).spec.renewTime as string)).toBeGreaterThan(acquired),
    );
    const heal = server.faults.blackHole();
    await eventually(() => expect(whats(a)).toEqual(['started', 'stopped']), 3000);
    heal();
    // Without the timeout the elector would wait for the swallowed request forever.
    await eventually(() => expect(whats(a)).toEqual(['started', 'stopped', 'started']), 3000);
    leaseClient.close();
  });

  it('two candidates started together elect exactly one leader', async () => {
    // Timings long enough that a loaded machine's event-loop stall cannot miss a renewal: this test
    // is about the election, and a step-down would count as a second transition.
    const durations = { leaseDurationMs: 3000, renewDeadlineMs: 2000, retryPeriodMs: 50 };
    const a = candidate('a', durations);
    const b = candidate('b', durations);
    a.elector.start();
    b.elector.start();
    await eventually(() =>
      expect([a.elector.isLeader(), b.elector.isLeader()].filter(Boolean)).toHaveLength(1),
    );
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(whats(a).length + whats(b).length).toBe(1);
  });

  it('three candidates started together on a released Lease: one claims it, the others lose their update to a 409 and stand by', async () => {
    await client.create(LEASES, {
      apiVersion: 'coordination.k8s.io/v1',
      kind: 'Lease',
      metadata: { name: 'scoby-controller-leader', namespace: 'scoby' },
      spec: { holderIdentity: '' },
    });
    server.requestLog.clear();
    const durations = { leaseDurationMs: 3000, renewDeadlineMs: 2000, retryPeriodMs: 50 };
    const all = ['a', 'b', 'c'].map((identity) => candidate(identity, durations));
    for (const { elector } of all) elector.start();
    await eventually(() => expect(all.filter(({ elector }) => elector.isLeader())).toHaveLength(1));
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(all.flatMap(whats)).toEqual(['started']);
    const writes = server.requestLog
      .entries()
      .filter((entry) => entry.method !== 'GET')
      .map(({ method, code }) => ({ method, code }));
    // Nobody creates a Lease that exists; every claim is an update, and all but one conflict.
    expect(writes.filter((write) => write.code !== 200)).toEqual([
      { method: 'PUT', code: 409 },
      { method: 'PUT', code: 409 },
    ]);
    expect(writes.every((write) => write.method === 'PUT')).toBe(true);
  });
});
