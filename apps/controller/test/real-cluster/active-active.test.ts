/**
 * Active-active replicas (docs/spec/registration.md §9) on kube-apiserver: three `scoby run` processes
 * started with the chart's arguments and `leaderElection.mode=active-active` share twelve
 * registrations, four each. Then one is killed, one is added, one is stopped gracefully and one is cut
 * off from the API server and healed. After each, ownership converges (registration Leases and each
 * replica's scoby_registration_owned), every instance edit is reconciled, and the API server's audit
 * log shows no write for a registration's objects outside its writer's Lease term.
 *
 * The default lease timings apply (15 s lease, 10 s renew deadline, 2 s retry period): `scoby run`
 * has no flags for them.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditMicros, type AuditEntry } from '@scoby/kube-control-plane';
import type { KubeObject } from '@scoby/kube-objects';
import { crdFor, type ClusterVerbs } from '../support/cluster.ts';
import { judgeTerms, type RecordedRequest, type TermsReport } from '../support/lease-terms.ts';
import {
  namespaceObject,
  REGISTRATION_API,
  registrationObject,
  registrationTarget,
  sleep,
} from '../support/scoby.ts';
import { registeredKindRole } from './support/grants.ts';
import { realClusterAdmin } from './support/real-cluster.ts';
import { isWriteRequest, startReplicas, type Replica, type Replicas } from './support/replicas.ts';

const LEASE_DURATION_MS = 15_000;
const RETRY_PERIOD_MS = 2_000;
const REGISTRATIONS = 12;
const SCOBY_NAMESPACE = 'scoby-system';
const LEASE_ROLE = 'scoby.triggermesh.io/lease';
const LEASE_KEY = 'scoby.triggermesh.io/key';
/**
 * A crashed or cut-off replica's registrations change hands a lease duration after its last renewal
 * as others saw it: its last renewal may precede the failure by a tick (a retry period and the tick's
 * requests), others see a renewal up to a retry period late and judge expiry at a tick, and a loaded
 * machine adds a retry period more.
 */
const TAKEOVER_MIN_MS = LEASE_DURATION_MS - 2 * RETRY_PERIOD_MS;
const TAKEOVER_MAX_MS = LEASE_DURATION_MS + 4 * RETRY_PERIOD_MS;
/** Ownership and reconciles on two loaded cores: a lease duration and then some. */
const PATIENCE_MS = 60_000;

const indexes = Array.from({ length: REGISTRATIONS }, (_, index) => index);
const registrationName = (index: number) => `aa-worker-${index}`;
const group = (index: number) => `k${index}.aa.real.example.com`;
const apiVersionOf = (index: number) => `${group(index)}/v1`;
/** A namespace per registration: a request's namespace names its registration. */
const namespaceOf = (index: number) => `aa-team-${index}`;
/** One or two instances each. */
const instanceNames = (index: number) => (index % 3 === 0 ? ['w-0'] : ['w-0', 'w-1']);
const ours = new Set(indexes.map(registrationName));

interface InstanceRef {
  index: number;
  name: string;
}
const instances: InstanceRef[] = indexes.flatMap((index) =>
  instanceNames(index).map((name) => ({ index, name })),
);

let admin: ClusterVerbs;
let set: Replicas;
const live = new Set<Replica>();
const identities = new Map<Replica, string>();

function registrationOf(path: string): string | undefined {
  const inNamespace = /\/namespaces\/aa-team-(\d+)\//.exec(path);
  if (inNamespace) return registrationName(Number(inNamespace[1]));
  const registration = /\/crdregistrations\/(aa-worker-\d+)(\/|$)/.exec(path);
  return registration?.[1];
}

/** The path of the object a request wrote, from its objectRef (a create's URI does not name it). */
function pathOf(entry: AuditEntry): string {
  const ref = entry.objectRef ?? {};
  const base = ref.apiGroup ? `/apis/${ref.apiGroup}/${ref.apiVersion}` : `/api/${ref.apiVersion}`;
  return [
    base,
    ref.namespace ? `/namespaces/${ref.namespace}` : '',
    `/${ref.resource}`,
    ref.name ? `/${ref.name}` : '',
    ref.subresource ? `/${ref.subresource}` : '',
  ].join('');
}

const METHODS: Record<string, string> = {
  create: 'POST',
  update: 'PUT',
  patch: 'PATCH',
  delete: 'DELETE',
  deletecollection: 'DELETE',
};

const holderIn = (entry: AuditEntry) =>
  (entry.requestObject as { spec?: { holderIdentity?: string } } | undefined)?.spec?.holderIdentity;

/** The replicas' writes of this file, as the API server committed them (stageTimestamp order). */
async function recordedWrites(): Promise<{ entries: AuditEntry[]; requests: RecordedRequest[] }> {
  const entries = (await set.auditLog())
    .filter(isWriteRequest)
    .sort((a, b) => auditMicros(a.stageTimestamp) - auditMicros(b.stageTimestamp));
  const requests = entries.map((entry) => ({
    user: entry.user,
    method: METHODS[entry.verb] ?? entry.verb,
    path: pathOf(entry),
    code: entry.code ?? 0,
    leaseHolder: holderIn(entry),
  }));
  return { entries, requests };
}

interface Tally {
  lostUpdates: number;
  doubleWrites: number;
  staleWrites: number;
  writes: number;
}

const tallies = new Map<string, Tally>();
const tallyOf = (name: string): Tally => {
  let tally = tallies.get(name);
  if (!tally) tallies.set(name, (tally = { lostUpdates: 0, doubleWrites: 0, staleWrites: 0, writes: 0 }));
  return tally;
};
const replicaNamed = (user: string) => set.replicas.find((replica) => replica.user === user)?.name ?? user;

/**
 * Judges every write of this file so far against the registration Leases' terms, and checks the
 * audit log can: each successful write of a registration Lease was recorded with its body, and names
 * its writer's identity (a claim or renewal) or nobody (a release).
 */
async function judge(stage: string): Promise<TermsReport> {
  const { entries, requests } = await recordedWrites();
  const leaseWrites = entries.filter(
    (entry) =>
      entry.objectRef?.resource === 'leases' &&
      entry.objectRef.name?.startsWith('scoby-registration-aa-worker-') &&
      entry.verb !== 'delete' &&
      entry.code !== undefined &&
      entry.code < 300,
  );
  expect(leaseWrites.length).toBeGreaterThan(0);
  const identityOfUser = new Map([...identities].map(([replica, identity]) => [replica.user, identity]));
  for (const entry of leaseWrites) {
    expect(entry.requestObject, `${entry.verb} ${entry.requestURI} recorded with its body`).toBeDefined();
    expect([identityOfUser.get(entry.user), '']).toContain(holderIn(entry) ?? '');
  }
  const report = judgeTerms(requests, registrationOf);
  for (const replica of set.replicas) {
    const tally = tallyOf(replica.name);
    const mine = report.violations.filter((violation) => violation.user === replica.user);
    tally.doubleWrites = mine.filter((violation) => violation.kind === 'double').length;
    tally.staleWrites = mine.filter((violation) => violation.kind === 'stale').length;
    tally.writes = report.writesByUser[replica.user] ?? 0;
  }
  console.log(
    `[active-active] ${stage}: per replica ${JSON.stringify(Object.fromEntries(tallies))}; ` +
      `terms ${JSON.stringify(report.terms)}`,
  );
  expect(
    report.violations.map((violation) => ({ ...violation, user: replicaNamed(violation.user) })),
  ).toEqual([]);
  expect(Object.keys(report.terms).sort()).toEqual([...ours].sort());
  return report;
}

/** The replica's identity, from the first log line that names it (acquiring or handing over a Lease). */
function identityOf(replica: Replica): string | undefined {
  const record = replica.logs.find((line) => typeof line.identity === 'string');
  return record?.identity as string | undefined;
}

/** Registration → holderIdentity of its Lease ('' when released), for this file's registrations. */
async function leaseHolders(): Promise<Map<string, string>> {
  const leases = await admin.list('coordination.k8s.io/v1', 'Lease', SCOBY_NAMESPACE);
  const holders = new Map<string, string>();
  for (const lease of leases) {
    if (lease.metadata.labels?.[LEASE_ROLE] !== 'registration') continue;
    const key = lease.metadata.annotations?.[LEASE_KEY] ?? '';
    if (!ours.has(key)) continue;
    holders.set(key, (lease.spec as { holderIdentity?: string } | undefined)?.holderIdentity ?? '');
  }
  return holders;
}

/** The registrations whose scoby_registration_owned is 1 on the replica's /metrics. */
async function ownedGauge(replica: Replica): Promise<string[]> {
  const text = await (await fetch(`${replica.metricsUrl}/metrics`)).text();
  const owned: string[] = [];
  for (const line of text.split('\n')) {
    const match = /^scoby_registration_owned\{registration="([^"]+)"\} (\S+)$/.exec(line);
    if (match && match[2] === '1' && ours.has(match[1]!)) owned.push(match[1]!);
  }
  return owned.sort();
}

async function poll<T>(
  description: string,
  probe: () => Promise<T | undefined>,
  timeoutMs = PATIENCE_MS,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let last: unknown;
  for (;;) {
    try {
      const value = await probe();
      if (value !== undefined) return value;
    } catch (error) {
      last = error;
    }
    if (Date.now() > deadline) {
      throw new Error(`${description}: not within ${timeoutMs / 1000} s${last ? `: ${String(last)}` : ''}`);
    }
    await sleep(200);
  }
}

/**
 * Every registration held by exactly one live replica, each holding ⌊R/M⌋ or ⌈R/M⌉, by the Leases and
 * by the replicas' own gauges alike. Returns each live replica's registrations.
 */
async function converged(stage: string): Promise<Map<Replica, string[]>> {
  const members = [...live];
  const floor = Math.floor(REGISTRATIONS / members.length);
  const ceil = Math.ceil(REGISTRATIONS / members.length);
  let seen = '';
  try {
    return await poll(
      `${stage}: ownership converged over ${members.map((r) => r.name).join(', ')}`,
      async () => {
        for (const replica of members) {
          if (!identities.has(replica)) {
            const identity = identityOf(replica);
            if (identity === undefined) return undefined;
            identities.set(replica, identity);
          }
        }
        const holders = await leaseHolders();
        const byReplica = new Map<Replica, string[]>(
          members.map((replica) => [
            replica,
            [...holders]
              .filter(([, holder]) => holder === identities.get(replica))
              .map(([key]) => key)
              .sort(),
          ]),
        );
        const gauges = await Promise.all(members.map(ownedGauge));
        seen = JSON.stringify(
          members.map((replica, at) => ({
            replica: replica.name,
            leases: byReplica.get(replica),
            gauge: gauges[at],
          })),
        );
        const held = [...byReplica.values()].flat();
        const settled =
          held.length === REGISTRATIONS &&
          new Set(held).size === REGISTRATIONS &&
          [...byReplica.values()].every((keys) => keys.length === floor || keys.length === ceil) &&
          members.every(
            (replica, at) => JSON.stringify(gauges[at]) === JSON.stringify(byReplica.get(replica)),
          );
        return settled ? byReplica : undefined;
      },
    );
  } catch (error) {
    throw new Error(`${String(error)}; last seen: ${seen}`);
  }
}

function describeOwners(owners: Map<Replica, string[]>): string {
  return [...owners].map(([replica, keys]) => `${replica.name}: ${keys.length}`).join(', ');
}

/** Sets spec.message of every instance (an edit: the object's finalizers stay as they are). */
async function editAll(message: string): Promise<void> {
  await Promise.all(
    instances.map(async ({ index, name }) => {
      const target = { apiVersion: apiVersionOf(index), kind: 'Worker', namespace: namespaceOf(index), name };
      await admin.edit(target, (current) => ({ ...current, spec: { message } }));
    }),
  );
}

function reconciled(object: KubeObject | undefined, message: string): boolean {
  const status = object?.status as
    { observedGeneration?: number; conditions?: { type: string; status: string }[] } | undefined;
  return (
    (object?.spec as { message?: string } | undefined)?.message === message &&
    status?.observedGeneration === object?.metadata.generation &&
    (status?.conditions ?? []).some((condition) => condition.type === 'Ready' && condition.status === 'True')
  );
}

/**
 * Waits until every instance's edit `message` is reconciled (observedGeneration of the edit, Ready),
 * and returns when each was first seen so; those not reconciled within the patience are lost
 * updates, counted against their registration's owner, and fail the test.
 */
async function everyEditReconciled(
  stage: string,
  message: string,
  owners: Map<Replica, string[]>,
): Promise<Map<string, number>> {
  const seenAt = new Map<string, number>();
  const key = ({ index, name }: InstanceRef) => `${namespaceOf(index)}/${name}`;
  const deadline = Date.now() + PATIENCE_MS;
  while (seenAt.size < instances.length && Date.now() < deadline) {
    await Promise.all(
      instances
        .filter((ref) => !seenAt.has(key(ref)))
        .map(async (ref) => {
          const object = await admin.get(apiVersionOf(ref.index), 'Worker', namespaceOf(ref.index), ref.name);
          if (reconciled(object, message)) seenAt.set(key(ref), Date.now());
        }),
    );
    if (seenAt.size < instances.length) await sleep(200);
  }
  const lost = instances.filter((ref) => !seenAt.has(key(ref)));
  for (const ref of lost) {
    const owner = [...owners].find(([, keys]) => keys.includes(registrationName(ref.index)))?.[0];
    tallyOf(owner?.name ?? 'nobody').lostUpdates += 1;
  }
  expect(lost.map(key), `${stage}: edits "${message}" not reconciled (lost updates)`).toEqual([]);
  return seenAt;
}

/** Polls until none of `keys` is held by `replica` any longer, and every one by a live replica. */
async function movedFrom(stage: string, replica: Replica, keys: readonly string[]): Promise<number> {
  const gone = identities.get(replica);
  const liveIdentities = new Set([...live].map((member) => identities.get(member)));
  await poll(`${stage}: the registrations of ${replica.name} held by live replicas`, async () => {
    const holders = await leaseHolders();
    return keys.every((key) => {
      const holder = holders.get(key);
      return holder !== undefined && holder !== gone && liveIdentities.has(holder);
    })
      ? true
      : undefined;
  });
  return Date.now();
}

const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
const instancesOfKeys = (keys: readonly string[]) =>
  instances
    .filter((ref) => keys.includes(registrationName(ref.index)))
    .map((ref) => `${namespaceOf(ref.index)}/${ref.name}`);

/** Deletes registrations and lets them go without an owner (finalizers removed). */
async function removeRegistrations(names: readonly string[]): Promise<void> {
  for (const name of names) {
    await admin.remove(registrationObject(name, {})).catch(() => undefined);
    await admin
      .edit(registrationTarget(name), (current) =>
        (current.metadata.finalizers ?? []).length > 0
          ? { ...current, metadata: { ...current.metadata, finalizers: [] } }
          : current,
      )
      .catch(() => undefined);
  }
}

beforeAll(async () => {
  admin = realClusterAdmin();
  // The registrations of other files of this run (which never delete theirs) would be shared too.
  // Right after start-up the API server may answer that storage is still initializing.
  const registrations = await poll('the registrations listed', () =>
    admin.list(REGISTRATION_API, 'CRDRegistration'),
  );
  const foreign = registrations
    .map((registration) => registration.metadata.name ?? '')
    .filter((name) => !ours.has(name));
  if (foreign.length > 0) {
    console.log(`[active-active] removing the registrations of other files: ${foreign.join(', ')}`);
    await removeRegistrations(foreign);
  }
  for (const index of indexes) {
    await admin.apply(crdFor({ group: group(index), kind: 'Worker', plural: 'workers' }));
    await admin.apply(registeredKindRole(group(index), 'workers'));
    await admin.apply(namespaceObject(namespaceOf(index)));
  }
  for (const index of indexes) {
    await admin.apply(
      registrationObject(registrationName(index), {
        crd: `workers.${group(index)}`,
        workload: { fromImage: { repo: `registry.example.com/aa-worker-${index}:1` } },
      }),
    );
    for (const name of instanceNames(index)) {
      // A CRD just created serves its kind once established.
      await poll(`${namespaceOf(index)}/${name} created`, () =>
        admin.apply({
          apiVersion: apiVersionOf(index),
          kind: 'Worker',
          metadata: { name, namespace: namespaceOf(index) },
          spec: { message: 'hello' },
        }),
      );
    }
  }
  const startedAt = Date.now();
  // The chart's default mode: its arguments as they are.
  set = await startReplicas(admin, 3);
  console.log(`[active-active] three replicas started in ${seconds(Date.now() - startedAt)}`);
  for (const replica of set.replicas) live.add(replica);
}, 150_000);

afterAll(async () => {
  if (admin) await removeRegistrations([...ours]).catch(() => undefined);
  // One at a time: the last member to stop releases the leader Lease for the files that follow (§9.9).
  for (const replica of live) {
    replica.proxy.heal();
    await replica.stop('SIGTERM');
  }
  await set?.stop();
  console.log(`[active-active] violations per replica: ${JSON.stringify(Object.fromEntries(tallies))}`);
  await admin?.stop();
});

describe('three active-active replicas started with the chart’s arguments, and twelve registrations', () => {
  it('share the registrations four each, every instance Ready, each written by its holder only', async () => {
    for (const replica of set.replicas) {
      const line = replica.logs.find((record) => record.msg === 'scoby controller started');
      expect(line).toMatchObject({ scobyNamespace: SCOBY_NAMESPACE, leaderElection: true });
    }
    const startedAt = Date.now();
    const owners = await converged('start');
    expect([...owners.values()].map((keys) => keys.length)).toEqual([4, 4, 4]);
    await everyEditReconciled('start', 'hello', owners);
    console.log(
      `[active-active] start: ${describeOwners(owners)}; converged and reconciled in ${seconds(Date.now() - startedAt)}`,
    );
    const report = await judge('start');
    for (const replica of set.replicas) expect(report.writesByUser[replica.user]).toBeGreaterThan(0);
  });

  it('move a killed replica’s registrations to the others after a lease duration, no update lost', async () => {
    const victim = set.replicas[2]!;
    const moved = (await converged('before the kill')).get(victim)!;
    const killedAt = Date.now();
    await victim.stop('SIGKILL');
    live.delete(victim);
    await editAll('after a kill');
    const takenAt = await movedFrom('kill', victim, moved);
    const owners = await converged('after the kill');
    const seenAt = await everyEditReconciled('kill', 'after a kill', owners);
    const reconciledAt = Math.max(...instancesOfKeys(moved).map((key) => seenAt.get(key)!));
    console.log(
      `[active-active] SIGKILL ${victim.name} (${moved.length} registrations): held by others after ` +
        `${seconds(takenAt - killedAt)}, their edits reconciled after ${seconds(reconciledAt - killedAt)}; ` +
        describeOwners(owners),
    );
    // Taken only once the others saw its Leases unchanged for a lease duration: from its last renewal
    // (up to a tick before the kill), seen at their next tick, judged expired at a tick after that.
    expect(takenAt - killedAt).toBeGreaterThanOrEqual(TAKEOVER_MIN_MS);
    expect(takenAt - killedAt).toBeLessThan(TAKEOVER_MAX_MS);
    await judge('kill');
  });

  it('give a joining replica its share', async () => {
    const joining = await set.add();
    live.add(joining);
    const owners = await converged('after the join');
    expect(owners.get(joining)).toHaveLength(4);
    await editAll('after a join');
    await everyEditReconciled('join', 'after a join', owners);
    console.log(`[active-active] ${joining.name} joined: ${describeOwners(owners)}`);
    await judge('join');
  });

  it('hand a stopping replica’s registrations over at once', async () => {
    const stopping = set.replicas[1]!;
    const handed = (await converged('before the graceful stop')).get(stopping)!;
    const stoppedAt = Date.now();
    const exit = stopping.stop('SIGTERM');
    live.delete(stopping);
    await editAll('after a graceful stop');
    const takenAt = await movedFrom('graceful stop', stopping, handed);
    expect(await exit).toEqual({ code: 0, signal: null });
    const owners = await converged('after the graceful stop');
    await everyEditReconciled('graceful stop', 'after a graceful stop', owners);
    console.log(
      `[active-active] SIGTERM ${stopping.name} (${handed.length} registrations): handed over after ` +
        `${seconds(takenAt - stoppedAt)}; ${describeOwners(owners)}`,
    );
    // Released, not left to expire.
    expect(takenAt - stoppedAt).toBeLessThan(LEASE_DURATION_MS / 2);
    await judge('graceful stop');
  });

  it('fence a replica cut off from the API server, take its registrations, and share again once healed', async () => {
    const cut = set.replicas[0]!;
    const held = (await converged('before the partition')).get(cut)!;
    const logMark = cut.logs.length;
    // Edited just before the cut: the replica's reconciles of its instances are on the wire when the
    // partition starts, and its fences must keep those writes from landing once it heals.
    await editAll('during a partition');
    const partitionedAt = Date.now();
    cut.proxy.partition();
    live.delete(cut);
    const takenAt = await movedFrom('partition', cut, held);
    // Its fences closed at their renew deadlines, before anyone could take its registrations.
    expect(await ownedGauge(cut)).toEqual([]);
    const lost = cut.logs
      .slice(logMark)
      .filter((record) => /^lost the Lease of registration/.test(record.msg));
    expect(lost.map((record) => record.registration).sort()).toEqual([...held].sort());
    const during = await converged('during the partition');
    const seenAt = await everyEditReconciled('partition', 'during a partition', during);
    const reconciledAt = Math.max(...instancesOfKeys(held).map((key) => seenAt.get(key)!));
    console.log(
      `[active-active] partition of ${cut.name} (${held.length} registrations): taken over after ` +
        `${seconds(takenAt - partitionedAt)}, their edits reconciled after ${seconds(reconciledAt - partitionedAt)}`,
    );
    expect(takenAt - partitionedAt).toBeGreaterThanOrEqual(TAKEOVER_MIN_MS);
    expect(takenAt - partitionedAt).toBeLessThan(TAKEOVER_MAX_MS);

    const healedAt = Date.now();
    cut.proxy.heal();
    live.add(cut);
    const owners = await converged('after the heal');
    console.log(
      `[active-active] healed ${cut.name}: shared again after ${seconds(Date.now() - healedAt)}; ${describeOwners(owners)}`,
    );
    await editAll('after a partition');
    await everyEditReconciled('heal', 'after a partition', owners);
    await judge('partition and heal');
  }, 150_000);
});
