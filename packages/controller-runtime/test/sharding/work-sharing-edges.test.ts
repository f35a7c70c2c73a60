/**
 * Work sharing at its edges, on the in-memory API server: each replica's Lease calls recorded in
 * the order it makes them (and, where a test needs it, one call held back), its log read back.
 * What the main suite shows for the common paths, this one shows for a key list not yet synced,
 * failed writes, stops in the middle of a hand-over, the legacy Lease at stop and late answers.
 */
import { CoordinationV1Api } from '@kubernetes/client-node';
import { startApiServer, type InMemoryApiServer } from '@scoby/in-memory-apiserver';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DynamicClient, type ResourceRef } from '../../src/client/dynamic-client.ts';
import { LEASES } from '../../src/leader-election/lease-client.ts';
import { LeaderElector } from '../../src/leader-election/leader-elector.ts';
import {
  dynamicShardLeaseClient,
  memberLeaseName,
  type ShardLeaseClient,
} from '../../src/sharding/shard-leases.ts';
import { WorkSharing, type WorkSharingOptions } from '../../src/sharding/work-sharing.ts';
import { captureLogs } from '../../src/testing/log-capture.ts';
import { type Deferred, deferred } from '../../src/testing/deferred.ts';
import { eventually } from '../../src/testing/eventually.ts';
import { holdersOf } from './lease-holders.ts';

const NAMESPACES: ResourceRef = { group: '', version: 'v1', resource: 'namespaces', namespaced: false };
const TIMINGS = { leaseDurationMs: 600, renewDeadlineMs: 400, retryPeriodMs: 50 };
const LEGACY = 'scoby-controller-leader';
const memberLease = (name: string) => memberLeaseName('scoby-', `${name}_0e3c`);

let server: InMemoryApiServer;
let admin: DynamicClient;
let keys: string[];
const cleanups: Array<() => Promise<void>> = [];

beforeEach(async () => {
  server = await startApiServer();
  admin = new DynamicClient(server.kubeConfig());
  await admin.create(NAMESPACES, { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'scoby' } });
  keys = ['k1', 'k2'];
});

afterEach(async () => {
  server.faults.reset();
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  admin.close();
  await server.stop();
});

interface Replica {
  sharing: WorkSharing;
  /** Its Lease calls in the order made: `list`, `create <name>`, `replace <name> (held by <holder>)`, `delete <name>`. */
  calls: string[];
  /** onAcquired and onStopping, in order: `acquired <key>`, `<key> <how>: <reason>`. */
  events: string[];
  logs: ReturnType<typeof captureLogs>;
}

interface ReplicaOptions extends Partial<WorkSharingOptions> {
  /** Milliseconds to hold a call back before it is sent (undefined: at once). */
  delayOf?: (call: string) => number | undefined;
}

/** A ShardLeaseClient that records every call before it goes to the server. */
function recorded(
  inner: ShardLeaseClient,
  calls: string[],
  delayOf: ReplicaOptions['delayOf'],
): ShardLeaseClient {
  const send = async <T>(call: string, run: () => Promise<T>): Promise<T> => {
    calls.push(call);
    const delay = delayOf?.(call);
    if (delay !== undefined) await new Promise((resolve) => setTimeout(resolve, delay));
    return run();
  };
  return {
    list: (namespace) => send('list', () => inner.list(namespace)),
    create: (namespace, name, record, metadata) =>
      send(`create ${name}`, () => inner.create(namespace, name, record, metadata)),
    replace: (lease, record) =>
      send(`replace ${lease.name} (held by ${lease.record.holderIdentity ?? ''})`, () =>
        inner.replace(lease, record),
      ),
    delete: (namespace, lease) =>
      send(`delete ${(lease as { name?: string } | undefined)?.name}`, () => inner.delete(namespace, lease)),
  };
}

function replica(name: string, options: ReplicaOptions = {}, start = true): Replica {
  const client = new DynamicClient(server.kubeConfig(name), { requestTimeoutMs: 300 });
  const calls: string[] = [];
  const events: string[] = [];
  const logs = captureLogs('info', 'test');
  const { delayOf, ...overrides } = options;
  const sharing = new WorkSharing({
    client: recorded(dynamicShardLeaseClient(client), calls, delayOf),
    namespace: 'scoby',
    identity: `${name}_0e3c`,
    leasePrefix: 'scoby-',
    keyKind: 'registration',
    ...TIMINGS,
    keys: () => keys,
    keysSynced: () => true,
    onAcquired: (key) => events.push(`acquired ${key}`),
    onStopping: async (key, reason, how) => {
      events.push(`${key} ${how}: ${reason}`);
    },
    logger: logs.logger,
    ...overrides,
  });
  cleanups.push(async () => {
    await sharing.stop({ release: false });
    client.close();
  });
  if (start) sharing.start();
  return { sharing, calls, events, logs };
}

/** The log lines with message `msg`: level, the fields named, and the error's code if any. */
function logged(of: Replica, msg: string): Array<Record<string, unknown>> {
  return of.logs
    .lines()
    .filter((line) => line.msg === msg)
    .map(
      ({
        level,
        msg: _msg,
        time: _time,
        component: _component,
        err,
        pid: _pid,
        hostname: _host,
        ...fields
      }) => ({
        level,
        ...fields,
        ...(err === undefined ? {} : { code: (err as { code?: number }).code }),
      }),
    );
}

const holders = () => holdersOf(admin, 'scoby');

async function owning(of: Replica, owned: string[]): Promise<void> {
  await eventually(() => expect(of.sharing.owned()).toEqual(owned), 10_000);
}

/** A replica holding k1 and k2 that is handing k2 over (k2 is gone), its onStopping held until `stopping` resolves. */
async function handingOverK2Slowly(): Promise<{ a: Replica; stopping: Deferred<void> }> {
  const stopping = deferred();
  const a = replica('a', {
    onStopping: async (key) => {
      if (key === 'k2') await stopping.promise;
    },
  });
  await owning(a, ['k1', 'k2']);
  keys = ['k1'];
  a.sharing.kick();
  await owning(a, ['k1']);
  return { a, stopping };
}

/** Writes the Lease `name` as held by `holder`, as another replica would (retried on a conflict with its holder's renewal). */
async function writeHolder(name: string, holder: string): Promise<void> {
  await eventually(async () => {
    const lease = await admin.get(LEASES, 'scoby', name);
    const spec = (lease as { spec: Record<string, unknown> }).spec;
    await admin.update(LEASES, { ...lease, spec: { ...spec, holderIdentity: holder } });
  }, 5_000);
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('work sharing edges', () => {
  it('writes its membership Lease, labelled a member, twice before it claims a key; a failed write does not count', async () => {
    const member = memberLease('a');
    // Its first two renewals are refused: a 500 (logged) and a 409 (someone wrote it: no news).
    server.faults.failNext({ verb: 'update', resource: 'leases', name: member }, { code: 500 });
    server.faults.failNext({ verb: 'update', resource: 'leases', name: member }, { code: 409 });
    const a = replica('a', { renewDeadlineMs: 5_000, leaseDurationMs: 8_000 });
    await owning(a, ['k1', 'k2']);
    const firstClaim = a.calls.indexOf('create scoby-registration-k1');
    expect(a.calls.slice(0, firstClaim + 2)).toEqual([
      'list',
      `create ${member}`,
      'list',
      `replace ${member} (held by a_0e3c)`,
      'list',
      `replace ${member} (held by a_0e3c)`,
      'list',
      `replace ${member} (held by a_0e3c)`,
      'list',
      `replace ${member} (held by a_0e3c)`,
      'create scoby-registration-k1',
      'create scoby-registration-k2',
    ]);
    expect(logged(a, 'Lease write failed')).toEqual([
      { level: 'warn', identity: 'a_0e3c', lease: member, code: 500 },
    ]);
    const stored = await admin.get(LEASES, 'scoby', member);
    expect(stored.metadata.labels).toEqual({ 'scoby.triggermesh.io/lease': 'member' });
    expect(a.events).toEqual(['acquired k1', 'acquired k2']);
  });

  it('claims nothing while its key list is not synced, and all of it once it is', async () => {
    let synced = false;
    const a = replica('a', { keysSynced: () => synced });
    await eventually(
      () =>
        expect(a.calls.filter((call) => call.startsWith('replace scoby-member-')).length).toBeGreaterThan(3),
      5_000,
    );
    expect(a.calls.filter((call) => call.includes('registration'))).toEqual([]);
    expect(a.sharing.owned()).toEqual([]);
    synced = true;
    await owning(a, ['k1', 'k2']);
    expect(a.events).toEqual(['acquired k1', 'acquired k2']);
  });

  it('logs a LIST that failed, and is healthy again at the next', async () => {
    server.faults.failNext({ verb: 'list', resource: 'leases' }, { code: 500 });
    const a = replica('a');
    await owning(a, ['k1', 'k2']);
    expect(a.sharing.isHealthy()).toBe(true);
    expect(logged(a, 'could not list the Leases of work sharing')).toEqual([
      { level: 'warn', identity: 'a_0e3c', code: 500 },
    ]);
  });

  it('hands its keys over, saying why, when a replica in leader mode holds the legacy Lease', async () => {
    const a = replica('a', { legacyLeaseName: LEGACY });
    await owning(a, ['k1', 'k2']);
    const oldLeader = new LeaderElector({
      client: server.kubeConfig('old').makeApiClient(CoordinationV1Api),
      namespace: 'scoby',
      name: LEGACY,
      identity: 'old-leader',
      ...TIMINGS,
    });
    // It writes the Lease over a's (as one whose clock says a's expired would), and keeps it.
    await writeHolder(LEGACY, 'old-leader');
    oldLeader.start();
    cleanups.push(() => oldLeader.stop());
    await owning(a, []);
    const why = `the Lease ${LEGACY} is held by a replica in leader mode`;
    expect(a.events).toEqual(['acquired k1', 'acquired k2', `k1 released: ${why}`, `k2 released: ${why}`]);
    expect(a.sharing.mayWork()).toBe(false);
    // The Leases of keys that still exist are kept, free, for whoever may work again.
    await sleep(200);
    expect(await holders()).toMatchObject({ 'scoby-registration-k1': '', 'scoby-registration-k2': '' });
    // At its stop it leaves the older replica's Lease alone.
    const before = a.calls.length;
    await a.sharing.stop();
    expect(a.calls.slice(before).filter((call) => call.includes(LEGACY))).toEqual([]);
  });

  it('hands its keys over when it cannot renew its membership, and says so', async () => {
    const a = replica('a');
    await owning(a, ['k1', 'k2']);
    server.faults.failNext(
      { verb: 'update', resource: 'leases', name: memberLease('a') },
      { code: 500, count: 10_000 },
    );
    await owning(a, []);
    const why = 'this replica could not renew its membership';
    expect(a.events).toEqual(['acquired k1', 'acquired k2', `k1 released: ${why}`, `k2 released: ${why}`]);
  });

  it('loses its keys at the renew deadline when cut off, logging each', async () => {
    const a = replica('a');
    await owning(a, ['k1', 'k2']);
    expect([a.sharing.owns('k1'), a.sharing.owns('k3')]).toEqual([true, false]);
    const heal = server.faults.blackHole({ user: 'a' });
    cleanups.push(async () => heal());
    const why = 'the Lease was not renewed within the renew deadline of 400 ms';
    await eventually(
      () => expect(a.events.slice(2).sort()).toEqual([`k1 lost: ${why}`, `k2 lost: ${why}`]),
      5_000,
    );
    expect(a.sharing.owned()).toEqual([]);
    expect([a.sharing.owns('k1'), a.sharing.owns('k2')]).toEqual([false, false]);
    expect(a.sharing.memberRefusal()).toMatch(
      /^the membership Lease was last renewed \d+ ms ago, past the renew deadline of 400 ms$/,
    );
    expect(logged(a, 'lost the Lease of registration "k1"')).toEqual([
      { level: 'warn', identity: 'a_0e3c', registration: 'k1', reason: why },
    ]);
  });

  it('starts no work on a claim answered after the renew deadline, and takes the key at the next', async () => {
    // One key: the tick waits for the late claim, long enough for any other key's deadline to pass too.
    keys = ['k1'];
    let held = false;
    const a = replica('a', {
      delayOf: (call) => {
        if (call !== 'create scoby-registration-k1' || held) return undefined;
        held = true;
        return 500;
      },
    });
    await owning(a, ['k1']);
    await sleep(200);
    expect(a.events).toEqual(['acquired k1']);
    expect(a.calls.filter((call) => call.includes('registration-k1')).slice(0, 2)).toEqual([
      'create scoby-registration-k1',
      'replace scoby-registration-k1 (held by a_0e3c)',
    ]);
  });

  it('takes a key back after handing it over when it returns', async () => {
    const a = replica('a');
    await owning(a, ['k1', 'k2']);
    keys = ['k1'];
    a.sharing.kick();
    await owning(a, ['k1']);
    keys = ['k1', 'k2'];
    a.sharing.kick();
    await owning(a, ['k1', 'k2']);
    expect(a.events).toEqual([
      'acquired k1',
      'acquired k2',
      'k2 released: registration "k2" no longer exists',
      'acquired k2',
    ]);
  });

  it('logs a failed onStopping and a failed release, and hands over all the same', async () => {
    keys = ['k1', 'k2', 'k3'];
    const a = replica('a', {
      onStopping: async (key) => {
        if (key === 'k1') throw new Error('its work would not stop');
        // The next write of k2's Lease is its release.
        server.faults.failNext(
          { verb: 'update', resource: 'leases', name: 'scoby-registration-k2' },
          { code: 500 },
        );
      },
    });
    await owning(a, ['k1', 'k2', 'k3']);
    keys = ['k3'];
    a.sharing.kick();
    await eventually(async () => expect((await holders())['scoby-registration-k1']).toBeUndefined(), 5_000);
    expect(a.sharing.owned()).toEqual(['k3']);
    await eventually(
      () => expect(logged(a, 'could not release the Lease; it will expire')).toHaveLength(1),
      5_000,
    );
    expect(logged(a, 'stopping the work of a handed-over key failed')).toEqual([
      { level: 'error', identity: 'a_0e3c', registration: 'k1' },
    ]);
    expect(
      a.logs.lines().find((line) => line.msg === 'stopping the work of a handed-over key failed')?.err,
    ).toMatchObject({
      message: 'its work would not stop',
    });
    expect(logged(a, 'could not release the Lease; it will expire')).toEqual([
      { level: 'warn', identity: 'a_0e3c', registration: 'k2', code: 500 },
    ]);
  });

  it('claims a key that came back only once its hand-over has ended', async () => {
    const { a, stopping } = await handingOverK2Slowly();
    keys = ['k1', 'k2'];
    a.sharing.kick();
    await sleep(200);
    expect(a.sharing.owned()).toEqual(['k1']);
    stopping.resolve();
    await owning(a, ['k1', 'k2']);
    // (This onStopping records nothing.)
    expect(a.events).toEqual(['acquired k1', 'acquired k2', 'acquired k2']);
  });

  it('deletes the Lease of a gone key only as it listed it: not after someone wrote it', async () => {
    let held = false;
    const a = replica('a', {
      delayOf: (call) => {
        if (call !== 'delete scoby-registration-k2' || held) return undefined;
        held = true;
        return 300;
      },
    });
    await owning(a, ['k1', 'k2']);
    keys = ['k1'];
    a.sharing.kick();
    await eventually(() => expect(held).toBe(true), 5_000);
    await writeHolder('scoby-registration-k2', 'x_0e3c');
    await sleep(350);
    expect((await holders())['scoby-registration-k2']).toBe('x_0e3c');
  });

  it('waits at stop for a hand-over a tick began', async () => {
    const { a, stopping } = await handingOverK2Slowly();
    let stopped = false;
    const stop = a.sharing.stop().then(() => (stopped = true));
    await sleep(200);
    expect(stopped).toBe(false);
    stopping.resolve();
    await stop;
    expect(await holders()).toEqual({ 'scoby-registration-k1': '', 'scoby-registration-k2': '' });
  });

  it('leaves every Lease as it was at a stop without release', async () => {
    const a = replica('a', { legacyLeaseName: LEGACY });
    await owning(a, ['k1', 'k2']);
    await a.sharing.stop({ release: false });
    expect(await holders()).toEqual({
      [memberLease('a')]: 'a_0e3c',
      [LEGACY]: 'a_0e3c',
      'scoby-registration-k1': 'a_0e3c',
      'scoby-registration-k2': 'a_0e3c',
    });
  });

  it('at stop releases its keys and deletes its membership, without a LIST when there is no legacy Lease', async () => {
    const a = replica('a');
    await owning(a, ['k1', 'k2']);
    const before = a.calls.length;
    await a.sharing.stop();
    expect(a.calls.slice(before).sort()).toEqual([
      `delete ${memberLease('a')}`,
      'replace scoby-registration-k1 (held by a_0e3c)',
      'replace scoby-registration-k2 (held by a_0e3c)',
    ]);
  });

  it('deletes nothing when stopped before its first LIST answered', async () => {
    const a = replica('a', { delayOf: (call) => (call === 'list' ? 100 : undefined) });
    expect(a.sharing.identity).toBe('a_0e3c');
    expect(a.sharing.memberRefusal()).toBe('this replica has not joined yet');
    expect(a.sharing.writeRefusal('k1')).toBe('this replica does not hold the Lease of registration "k1"');
    await a.sharing.stop();
    expect(a.calls).toEqual(['list']);
    expect(a.logs.lines()).toEqual([]);
  });

  it('logs a membership Lease it could not delete at stop', async () => {
    const a = replica('a');
    await owning(a, ['k1', 'k2']);
    server.faults.failNext({ verb: 'delete', resource: 'leases', name: memberLease('a') }, { code: 500 });
    await a.sharing.stop();
    expect(logged(a, 'could not delete the membership Lease; it will expire')).toEqual([
      { level: 'warn', identity: 'a_0e3c', code: 500 },
    ]);
  });

  it('logs the legacy Lease released by the last member, or that it could not', async () => {
    const a = replica('a', { legacyLeaseName: LEGACY });
    await owning(a, ['k1', 'k2']);
    server.faults.failNext({ verb: 'update', resource: 'leases', name: LEGACY }, { code: 500 });
    await a.sharing.stop();
    expect(logged(a, 'could not release the legacy leader Lease; it will expire')).toEqual([
      { level: 'warn', identity: 'a_0e3c', lease: LEGACY, code: 500 },
    ]);
    expect((await holders())[LEGACY]).toBe('a_0e3c');

    const b = replica('b', { legacyLeaseName: LEGACY });
    await owning(b, ['k1', 'k2']);
    await b.sharing.stop();
    expect(logged(b, 'released the legacy leader Lease: no other member is left')).toEqual([
      { level: 'info', identity: 'b_0e3c', lease: LEGACY },
    ]);
    expect((await holders())[LEGACY]).toBe('');
  });

  it('stops, releasing nothing, when the legacy Lease could never be written', async () => {
    // A create names no Lease in its path: every create of this replica fails.
    server.faults.failNext({ verb: 'create', resource: 'leases', user: 'a' }, { code: 500, count: 10_000 });
    const a = replica('a', { legacyLeaseName: LEGACY });
    await eventually(
      () => expect(a.calls.filter((call) => call === `create ${LEGACY}`).length).toBeGreaterThan(2),
      5_000,
    );
    expect(a.sharing.mayWork()).toBe(false);
    expect(a.sharing.owned()).toEqual([]);
    const before = a.calls.length;
    await a.sharing.stop();
    expect(a.calls.slice(before).filter((call) => call.includes(LEGACY))).toEqual([]);
  });

  it('never writes a key Lease another replica holds while the assignment moves the key to it', async () => {
    const a = replica('a');
    keys = Array.from({ length: 8 }, (_, index) => `k${index}`);
    await owning(a, [...keys].sort());
    const b = replica('b');
    await eventually(() => {
      expect(a.sharing.owned().length + b.sharing.owned().length).toBe(8);
      expect(b.sharing.owned().length).toBeGreaterThan(0);
      expect(a.sharing.owned().length).toBeGreaterThan(0);
    }, 10_000);
    expect(b.calls.filter((call) => call.includes('(held by a_0e3c)'))).toEqual([]);
  });
});
