/**
 * Replicas sharing keys through Leases on the in-memory API server: each one a WorkSharing with
 * a client of its own user, so the server's faults can cut one off.
 */
import { CoordinationV1Api } from '@kubernetes/client-node';
import { startApiServer, type InMemoryApiServer } from '@scoby/in-memory-apiserver';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DynamicClient, type ResourceRef } from '../../src/client/dynamic-client.ts';
import { LeaderElector } from '../../src/leader-election/leader-elector.ts';
import { dynamicShardLeaseClient } from '../../src/sharding/shard-leases.ts';
import { WorkSharing, type WorkSharingOptions } from '../../src/sharding/work-sharing.ts';
import { createLogger } from '../../src/log/logger.ts';
import { eventually } from '../../src/testing/eventually.ts';
import { holdersOf } from './lease-holders.ts';

const LEASES: ResourceRef = {
  group: 'coordination.k8s.io',
  version: 'v1',
  resource: 'leases',
  namespaced: true,
};
const NAMESPACES: ResourceRef = { group: '', version: 'v1', resource: 'namespaces', namespaced: false };
const LEASE_DURATION_MS = 600;
const TIMINGS = { leaseDurationMs: LEASE_DURATION_MS, renewDeadlineMs: 400, retryPeriodMs: 50 };
const KEYS = Array.from({ length: 12 }, (_, index) => `registration-${index}`);

let server: InMemoryApiServer;
let admin: DynamicClient;
let keys: string[];
const replicas: Replica[] = [];

interface Replica {
  name: string;
  sharing: WorkSharing;
  client: DynamicClient;
  /** What onAcquired and onStopping were told, in order. */
  calls: string[];
  /** Each onStopping as `<key> <how>: <reason>`, in order. */
  stops: string[];
}

beforeEach(async () => {
  server = await startApiServer();
  admin = new DynamicClient(server.kubeConfig());
  await admin.create(NAMESPACES, { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'scoby' } });
  keys = [...KEYS];
});

afterEach(async () => {
  stopSampling();
  for (const replica of replicas.splice(0)) {
    await replica.sharing.stop({ release: false });
    replica.client.close();
  }
  admin.close();
  await server.stop();
});

function replica(name: string, options: Partial<WorkSharingOptions> = {}): Replica {
  // A request may take three quarters of the renew deadline, as with the defaults (300 of 400 ms).
  const renewDeadlineMs = options.renewDeadlineMs ?? TIMINGS.renewDeadlineMs;
  const client = new DynamicClient(server.kubeConfig(name), { requestTimeoutMs: (renewDeadlineMs * 3) / 4 });
  const calls: string[] = [];
  const stops: string[] = [];
  const sharing = new WorkSharing({
    client: dynamicShardLeaseClient(client),
    namespace: 'scoby',
    identity: `${name}_0e3c`,
    leasePrefix: 'scoby-',
    keyKind: 'registration',
    ...TIMINGS,
    keys: () => keys,
    keysSynced: () => true,
    onAcquired: (key) => calls.push(`acquired ${key}`),
    onStopping: async (key, reason, how) => {
      calls.push(`stopping ${key}`);
      stops.push(`${key} ${how}: ${reason}`);
    },
    ...options,
  });
  const created = { name, sharing, client, calls, stops };
  replicas.push(created);
  sharing.start();
  return created;
}

function counts(of: readonly Replica[]): number[] {
  return of.map((member) => member.sharing.owned().length);
}

/** Every key held by exactly one of `of`. */
async function settled(of: readonly Replica[], expected: number[]): Promise<void> {
  await eventually(() => {
    expect(counts(of)).toEqual(expected);
    expect(of.flatMap((member) => member.sharing.owned()).sort()).toEqual([...keys].sort());
  }, 10_000);
}

/** Two replicas whose fences are open for one key at one instant: what fencing must never allow. */
const overlaps: string[] = [];
let sampler: NodeJS.Timeout | undefined;
function startSampling(): void {
  overlaps.length = 0;
  sampler = setInterval(() => {
    for (const key of keys) {
      const open = replicas.filter((member) => member.sharing.writeRefusal(key) === undefined);
      if (open.length > 1) overlaps.push(`${key}: ${open.map((member) => member.name).join(', ')}`);
    }
  }, 5);
}
function stopSampling(): void {
  clearInterval(sampler);
}

const leaseHolders = () => holdersOf(admin, 'scoby');

describe('work sharing', () => {
  it('shares twelve keys four each between three replicas, a Lease per key and per member', async () => {
    startSampling();
    const three = [replica('a'), replica('b'), replica('c')];
    await settled(three, [4, 4, 4]);
    const holders = await leaseHolders();
    for (const member of three) {
      for (const key of member.sharing.owned())
        expect(holders[`scoby-registration-${key}`]).toBe(`${member.name}_0e3c`);
      expect(member.sharing.members()).toEqual(['a_0e3c', 'b_0e3c', 'c_0e3c']);
      const owned = member.sharing.owned();
      expect(owned).toEqual([...owned].sort());
      expect(member.calls).toEqual(expect.arrayContaining(owned.map((key) => `acquired ${key}`)));
      expect(member.calls.filter((call) => call.startsWith('acquired'))).toHaveLength(owned.length);
      expect(member.sharing.isHealthy()).toBe(true);
    }
    expect(Object.keys(holders).filter((name) => name.startsWith('scoby-member-'))).toHaveLength(3);
    const lease = await admin.get(LEASES, 'scoby', `scoby-registration-${three[0]!.sharing.owned()[0]}`);
    expect(lease.metadata.labels).toEqual({ 'scoby.triggermesh.io/lease': 'registration' });
    expect(lease.metadata.annotations).toEqual({ 'scoby.triggermesh.io/key': three[0]!.sharing.owned()[0] });
    expect(overlaps).toEqual([]);
  });

  it('hands a stopping replica’s keys over at once, stopping its work before the Lease is emptied', async () => {
    startSampling();
    const [a, b, c] = [replica('a'), replica('b'), replica('c')];
    await settled([a, b, c], [4, 4, 4]);
    const handed = a.sharing.owned();
    await a.sharing.stop();
    expect(a.calls.filter((call) => call.startsWith('stopping')).sort()).toEqual(
      handed.map((key) => `stopping ${key}`).sort(),
    );
    expect(a.stops.sort()).toEqual(handed.map((key) => `${key} released: this replica is stopping`).sort());
    // Emptied as it stopped, not left to expire: free at once (or already taken by the others).
    const afterStop = await leaseHolders();
    for (const key of handed) {
      expect(['', 'b_0e3c', 'c_0e3c']).toContain(afterStop[`scoby-registration-${key}`]);
    }
    await settled([b, c], [6, 6]);
    const holders = await leaseHolders();
    expect(Object.keys(holders).filter((name) => name.startsWith('scoby-member-'))).toHaveLength(2);
    expect(overlaps).toEqual([]);
  });

  it('hands the keys over at once when the member that keeps the legacy Lease stops, and no other member stands down', async () => {
    startSampling();
    const withLegacy = { legacyLeaseName: 'scoby-controller-leader' };
    const three = [replica('a', withLegacy), replica('b', withLegacy), replica('c', withLegacy)];
    await settled(three, [4, 4, 4]);
    const holder = (await leaseHolders())['scoby-controller-leader'];
    const stopping = three.find((member) => `${member.name}_0e3c` === holder)!;
    const others = three.filter((member) => member !== stopping);
    const before = new Map(others.map((member) => [member, member.sharing.owned()]));
    const handed = stopping.sharing.owned();
    await stopping.sharing.stop();
    const afterStop = await leaseHolders();
    for (const key of handed) {
      expect(['', ...others.map((member) => `${member.name}_0e3c`)]).toContain(
        afterStop[`scoby-registration-${key}`],
      );
    }
    await settled(others, [6, 6]);
    // The stopped member's Lease is kept from older-mode replicas by another member, not left to
    // look like an older-mode leader's: nobody stood down for it.
    for (const member of others) {
      expect(member.calls.filter((call) => call.startsWith('stopping'))).toEqual([]);
      expect(member.sharing.owned()).toEqual(expect.arrayContaining(before.get(member)!));
    }
    await eventually(async () => {
      const kept = (await leaseHolders())['scoby-controller-leader'];
      expect(others.map((member) => `${member.name}_0e3c`)).toContain(kept);
    }, 5000);
    expect(overlaps).toEqual([]);
  });

  it('takes a crashed replica’s keys once its Leases have gone a lease duration unchanged', async () => {
    startSampling();
    const [a, b, c] = [replica('a'), replica('b'), replica('c')];
    await settled([a, b, c], [4, 4, 4]);
    const crashedAt = Date.now();
    await a.sharing.stop({ release: false });
    await settled([b, c], [6, 6]);
    expect(Date.now() - crashedAt).toBeGreaterThanOrEqual(LEASE_DURATION_MS - TIMINGS.retryPeriodMs);
    expect(overlaps).toEqual([]);
  });

  it('gives a joining replica its share, moving no more keys than that', async () => {
    startSampling();
    // Which keys move is the question, not how fast: timings a loaded machine keeps (with the short
    // ones, a renewal 400 ms late on a machine at load 11 lost Leases and moved more keys).
    const relaxed = { leaseDurationMs: 4_000, renewDeadlineMs: 2_400, retryPeriodMs: 100 };
    const three = [replica('a', relaxed), replica('b', relaxed), replica('c', relaxed)];
    await settled(three, [4, 4, 4]);
    const before = new Map(
      three.flatMap((member) => member.sharing.owned().map((key) => [key, member.name])),
    );
    const d = replica('d', relaxed);
    await settled([...three, d], [3, 3, 3, 3]);
    const after = new Map(
      [...three, d].flatMap((member) => member.sharing.owned().map((key) => [key, member.name])),
    );
    const moved = [...after].filter(([key, owner]) => before.get(key) !== owner);
    expect(moved.map(([, owner]) => owner)).toEqual(['d', 'd', 'd']);
    expect(three.flatMap((member) => member.stops).sort()).toEqual(
      moved.map(([key]) => `${key} released: another replica is assigned to it`).sort(),
    );
    expect(overlaps).toEqual([]);
  });

  it('closes a partitioned replica’s fences at its renew deadline, before anyone else takes its keys', async () => {
    const opened = new Map<string, number>();
    const [a, b] = [replica('a'), replica('b')];
    await settled([a, b], [6, 6]);
    const cut = a.sharing.owned();
    startSampling();
    const heal = server.faults.blackHole({ user: 'a', deliverOnHeal: true });
    const closedAt = new Map<string, number>();
    await eventually(() => {
      for (const key of cut) {
        if (a.sharing.writeRefusal(key) !== undefined && !closedAt.has(key)) closedAt.set(key, Date.now());
        if (b.sharing.writeRefusal(key) === undefined && !opened.has(key)) opened.set(key, Date.now());
      }
      expect(opened.size).toBe(cut.length);
    }, 10_000);
    for (const key of cut) expect(closedAt.get(key)!).toBeLessThan(opened.get(key)!);
    expect(a.stops.sort()).toEqual(
      cut.map((key) => `${key} lost: the Lease was not renewed within the renew deadline of 400 ms`).sort(),
    );
    // Its LISTs time out meanwhile: it says it is not healthy.
    expect(a.sharing.isHealthy()).toBe(false);
    heal();
    await settled([a, b], [6, 6]);
    expect(a.sharing.isHealthy()).toBe(true);
    expect(overlaps).toEqual([]);
  });

  it('closes its fences at the renew deadline when the API server refuses its renewals', async () => {
    const [a, b] = [replica('a'), replica('b')];
    await settled([a, b], [6, 6]);
    const held = a.sharing.owned();
    // Only its keys' Leases: its membership goes on being renewed.
    for (const key of held) {
      server.faults.failNext(
        { verb: 'update', resource: 'leases', name: `scoby-registration-${key}`, user: 'a' },
        { code: 500, count: 10_000 },
      );
    }
    const refusedFrom = Date.now();
    await eventually(
      () => expect(held.map((key) => a.sharing.writeRefusal(key) !== undefined)).not.toContain(false),
      3000,
    );
    expect(Date.now() - refusedFrom).toBeLessThan(400 + 300);
    await eventually(
      () =>
        expect(a.stops.sort()).toEqual(
          held
            .map((key) => `${key} lost: the Lease was not renewed within the renew deadline of 400 ms`)
            .sort(),
        ),
      3000,
    );
  });

  it('releases the Lease of a key that is gone and deletes it', async () => {
    const [a, b] = [replica('a'), replica('b')];
    await settled([a, b], [6, 6]);
    const gone = keys.pop()!;
    const holder = a.sharing.owns(gone) ? a : b;
    a.sharing.kick();
    b.sharing.kick();
    await eventually(async () => {
      expect(Object.keys(await leaseHolders())).not.toContain(`scoby-registration-${gone}`);
    }, 5000);
    expect(holder.stops).toEqual([`${gone} released: registration "${gone}" no longer exists`]);
    await eventually(() => {
      expect(counts([a, b]).sort()).toEqual([5, 6]);
      expect([a, b].flatMap((member) => member.sharing.owned()).sort()).toEqual([...keys].sort());
    }, 5000);
  });

  it('hands a key over as lost, naming the holder, when another replica wrote its Lease', async () => {
    const [a] = [replica('a')];
    await settled([a], [12]);
    const key = a.sharing.owned()[0]!;
    const lease = await admin.get(LEASES, 'scoby', `scoby-registration-${key}`);
    const spec = (lease as { spec: Record<string, unknown> }).spec;
    await admin.update(LEASES, { ...lease, spec: { ...spec, holderIdentity: 'x_0e3c' } });
    await eventually(() => expect(a.stops).toEqual([`${key} lost: the Lease is held by x_0e3c`]), 5000);
    expect(a.sharing.owns(key)).toBe(false);
  });

  it('logs each Lease it takes and hands over, and a deletion that failed for another reason than a race', async () => {
    const lines: Array<{ level: string; msg: string; [field: string]: unknown }> = [];
    const logger = createLogger({
      component: 'test',
      format: 'json',
      destination: { write: (line: string) => void lines.push(JSON.parse(line)) },
    });
    const a = replica('a', { logger });
    await settled([a], [12]);
    const gone = keys.pop()!;
    // Refused three times: gone already (404) and changed meanwhile (409) are no news; a 500 is.
    for (const code of [404, 409, 500])
      server.faults.failNext({ verb: 'delete', resource: 'leases' }, { code });
    a.sharing.kick();
    await eventually(async () => {
      expect(Object.keys(await leaseHolders())).not.toContain(`scoby-registration-${gone}`);
    }, 5000);
    const picked = (msg: string) =>
      lines
        .filter((line) => line.msg === msg)
        .map(({ level, msg: _msg, time: _time, component: _component, err, ...fields }) => ({
          level,
          ...fields,
          ...(err === undefined ? {} : { code: (err as { code?: number }).code }),
        }));
    expect(picked(`acquired the Lease of registration "${gone}"`)).toEqual([
      { level: 'info', identity: 'a_0e3c', registration: gone, lease: `scoby-registration-${gone}` },
    ]);
    expect(picked(`handing over registration "${gone}"`)).toEqual([
      {
        level: 'info',
        identity: 'a_0e3c',
        registration: gone,
        reason: `registration "${gone}" no longer exists`,
      },
    ]);
    expect(picked('could not delete a Lease')).toEqual([
      { level: 'warn', identity: 'a_0e3c', lease: `scoby-registration-${gone}`, code: 500 },
    ]);
  });

  it('releases the legacy Lease when the last member stops, even if another member held it', async () => {
    const withLegacy = { legacyLeaseName: 'scoby-controller-leader' };
    const [a, b] = [replica('a', withLegacy), replica('b', withLegacy)];
    await settled([a, b], [6, 6]);
    const holder = (await leaseHolders())['scoby-controller-leader'];
    const [first, last] = holder === 'a_0e3c' ? [a, b] : [b, a];
    await first.sharing.stop();
    await last.sharing.stop();
    expect((await leaseHolders())['scoby-controller-leader']).toBe('');
  });

  it('owns nothing while a replica in leader mode holds the legacy Lease, and keeps it from older replicas after', async () => {
    const legacy = (identity: string) =>
      new LeaderElector({
        client: server.kubeConfig('old').makeApiClient(CoordinationV1Api),
        namespace: 'scoby',
        name: 'scoby-controller-leader',
        identity,
        ...TIMINGS,
      });
    const oldLeader = legacy('old-leader');
    oldLeader.start();
    await eventually(() => expect(oldLeader.isLeader()).toBe(true), 5000);
    const [a, b] = [
      replica('a', { legacyLeaseName: 'scoby-controller-leader' }),
      replica('b', { legacyLeaseName: 'scoby-controller-leader' }),
    ];
    await new Promise((resolve) => setTimeout(resolve, 3 * LEASE_DURATION_MS));
    expect(counts([a, b])).toEqual([0, 0]);
    expect(a.sharing.mayWork()).toBe(false);
    await oldLeader.release();
    await settled([a, b], [6, 6]);
    const oldStandby = legacy('old-standby');
    oldStandby.start();
    const holder = (await leaseHolders())['scoby-controller-leader'];
    expect(['a_0e3c', 'b_0e3c']).toContain(holder);
    // The older standby never gets it while members keep it, even after its holder crashes.
    const holderReplica = holder === 'a_0e3c' ? a : b;
    await holderReplica.sharing.stop({ release: false });
    await new Promise((resolve) => setTimeout(resolve, 3 * LEASE_DURATION_MS));
    expect(oldStandby.isLeader()).toBe(false);
    await oldStandby.stop();
    await oldLeader.stop();
  });
});
