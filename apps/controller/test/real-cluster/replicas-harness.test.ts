/**
 * The replica harness (support/replicas.ts) on kube-apiserver, with today's leader election: three
 * `scoby run` processes started with the chart's arguments, each as a ServiceAccount of its own behind
 * a fault proxy, and every write they make counted from the API server's audit log. One leads and
 * alone writes; cut off from the API server, it loses the Lease to another replica, and once the
 * partition heals none of its writes reaches the API server after the takeover.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditMicros, type AuditEntry } from '@scoby/kube-control-plane';
import type { KubeObject } from '@scoby/kube-objects';
import type { ClusterVerbs } from '../support/cluster.ts';
import { crdFor } from '../support/cluster.ts';
import { hookedRegistration, registrationReady } from '../support/hooks-fixtures.ts';
import { waitForCondition } from '../support/scoby.ts';
import { registeredKindRole } from './support/grants.ts';
import { realClusterAdmin, REAL_PATIENCE_MS } from './support/real-cluster.ts';
import {
  isWriteRequest,
  startReplicas,
  type LogRecord,
  type Replica,
  type Replicas,
} from './support/replicas.ts';

const GROUP = 'ha.real.example.com';
const API = `${GROUP}/v1`;
const NAMESPACE = 'ha-shop';
const LEASE = 'scoby-controller-leader';

let admin: ClusterVerbs;
let set: Replicas;

beforeAll(async () => {
  admin = realClusterAdmin();
  await admin.apply(crdFor({ group: GROUP, kind: 'Widget', plural: 'widgets' }));
  await admin.apply(registeredKindRole(GROUP, 'widgets'));
  await admin.apply({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: NAMESPACE } });
  // The leader Lease as the last replica of an earlier run leaves it, released (registration.md §9.9),
  // whichever files ran before: the three replicas then contest one update of it.
  await admin.apply({
    apiVersion: 'coordination.k8s.io/v1',
    kind: 'Lease',
    metadata: { name: LEASE, namespace: 'scoby-system' },
    spec: { holderIdentity: '' },
  });
  // The chart's default is active-active; this file proves the harness in leader mode.
  set = await startReplicas(admin, 3, { chartValues: ['leaderElection.mode=leader'] });
});

afterAll(async () => {
  await set?.stop();
  await admin?.stop();
});

const startedLeading = (record: LogRecord) => record.msg === 'started leading';

/** The first of `replicas` whose log (from the index `from` gives it) says it started leading. */
async function firstToLead(
  replicas: readonly Replica[],
  from: (replica: Replica) => number = () => 0,
): Promise<{ replica: Replica; record: LogRecord }> {
  return admin.waitFor(
    'a replica started leading',
    async () => {
      for (const replica of replicas) {
        const record = replica.logs.slice(from(replica)).find(startedLeading);
        if (record) return { replica, record };
      }
      return undefined;
    },
    REAL_PATIENCE_MS,
  );
}

/** leader_election_master_status of the Lease on the replica's /metrics: 1 while it leads. */
async function leaderGauge(replica: Replica): Promise<number | undefined> {
  const text = await (await fetch(`${replica.metricsUrl}/metrics`)).text();
  const line = text
    .split('\n')
    .find((row) => row.startsWith(`leader_election_master_status{name="${LEASE}"}`));
  return line === undefined ? undefined : Number(line.split(' ').pop());
}

async function leaseHolder(): Promise<string | undefined> {
  const lease = await admin.get('coordination.k8s.io/v1', 'Lease', 'scoby-system', LEASE);
  return (lease?.spec as { holderIdentity?: string } | undefined)?.holderIdentity;
}

const resourceOf = (entry: AuditEntry) =>
  [entry.objectRef?.resource, entry.objectRef?.subresource].filter(Boolean).join('/');

const isLeaseWrite = (entry: AuditEntry) =>
  isWriteRequest(entry) &&
  entry.objectRef?.resource === 'leases' &&
  entry.objectRef.namespace === 'scoby-system' &&
  entry.objectRef.name === LEASE &&
  (entry.code === 200 || entry.code === 201);

function widget(name: string): KubeObject {
  return { apiVersion: API, kind: 'Widget', metadata: { name, namespace: NAMESPACE }, spec: {} };
}

function widgetReady(name: string): Promise<KubeObject> {
  return waitForCondition(
    admin,
    { apiVersion: API, kind: 'Widget', namespace: NAMESPACE, name },
    'Ready',
    'True',
    undefined,
    REAL_PATIENCE_MS,
  );
}

let leader: Replica;

describe('three controller replicas started with the chart’s arguments, in leader mode', () => {
  it('elect one leader, and only its ServiceAccount writes the children and statuses', async () => {
    const replicas = set.replicas;
    expect(replicas.map(({ name, user }) => ({ name, user }))).toEqual([
      { name: 'replica-0', user: 'system:serviceaccount:scoby-ha:replica-0' },
      { name: 'replica-1', user: 'system:serviceaccount:scoby-ha:replica-1' },
      { name: 'replica-2', user: 'system:serviceaccount:scoby-ha:replica-2' },
    ]);
    const started = await firstToLead(replicas);
    leader = started.replica;
    const followers = replicas.filter((replica) => replica !== leader);
    expect(started.record.lease).toBe(`scoby-system/${LEASE}`);
    expect(await leaseHolder()).toBe(started.record.identity);
    // The chart's arguments: leader election on, the Lease of the chart's default name.
    for (const replica of replicas) {
      const line = replica.logs.find((record) => record.msg === 'scoby controller started');
      expect(line).toMatchObject({ scobyNamespace: 'scoby-system', leaderElection: true });
    }

    await admin.apply(hookedRegistration('widgets', `widgets.${GROUP}`));
    await registrationReady(admin, 'widgets');
    await admin.apply(widget('first'));
    await widgetReady('first');

    expect(await Promise.all(replicas.map(leaderGauge))).toEqual(
      replicas.map((replica) => (replica === leader ? 1 : 0)),
    );
    for (const follower of followers) expect(follower.logs.filter(startedLeading)).toEqual([]);

    const audit = await set.auditLog();
    const succeeded = (entry: AuditEntry) =>
      isWriteRequest(entry) && entry.code !== undefined && entry.code < 300;
    const writers = new Set(audit.filter(succeeded).map((entry) => entry.user));
    expect([...writers]).toEqual([leader.user]);
    // A follower tries no write but the claim of the released Lease, which it can lose to the leader.
    const followerWrites = audit.filter((entry) => isWriteRequest(entry) && entry.user !== leader.user);
    for (const entry of followerWrites) {
      expect({ verb: entry.verb, resource: resourceOf(entry), code: entry.code }).toEqual({
        verb: 'update',
        resource: 'leases',
        code: 409,
      });
    }
    // The leader claimed the released Lease: it updated it, nobody created it.
    expect(audit.filter(isLeaseWrite).map((entry) => ({ verb: entry.verb, user: entry.user }))[0]).toEqual({
      verb: 'update',
      user: leader.user,
    });
    const leaderWrites = new Set(audit.filter((e) => succeeded(e) && e.user === leader.user).map(resourceOf));
    for (const resource of [
      'leases',
      'deployments',
      'services',
      'widgets/status',
      'crdregistrations/status',
    ]) {
      expect(leaderWrites, `the leader wrote ${resource}`).toContain(resource);
    }
    // The followers only read (the Lease, and what start-up checks); every replica was heard.
    for (const follower of followers) {
      expect(audit.filter((entry) => entry.user === follower.user).length).toBeGreaterThan(0);
    }
  });

  it('partitioned, the leader loses the Lease, and once healed none of its writes lands after the takeover', async () => {
    const replicas = set.replicas;
    const followers = replicas.filter((replica) => replica !== leader);
    const logMarks = new Map(replicas.map((replica) => [replica, replica.logs.length]));
    const writesBefore = (await set.auditLog()).filter((e) => isWriteRequest(e) && e.user === leader.user);
    // What the count below could catch: the leader did write before it was cut off.
    expect(writesBefore.length).toBeGreaterThan(0);

    leader.proxy.partition();
    const partitionedAt = Date.now() * 1000;
    const successor = await firstToLead(followers, (replica) => logMarks.get(replica) ?? 0);
    expect(await leaseHolder()).toBe(successor.record.identity);
    // The takeover as the API server recorded it: the successor's first successful write of the Lease.
    const takeover = await admin.waitFor('the successor’s Lease write in the audit log', async () =>
      (await set.auditLog()).find((entry) => entry.user === successor.replica.user && isLeaseWrite(entry)),
    );

    // The successor does the work now.
    await admin.apply(widget('second'));
    await widgetReady('second');

    const healedAt = Date.now() * 1000;
    leader.proxy.heal();
    // Heard again: the old leader's requests reach the API server after the heal (it polls the Lease
    // every 2 s); what the proxy kept for connections still open was delivered before them.
    await admin.waitFor(
      'three requests of the old leader after the heal',
      async () =>
        (await set.auditLog()).filter(
          (entry) => entry.user === leader.user && auditMicros(entry.requestReceivedTimestamp) > healedAt,
        ).length >= 3,
      REAL_PATIENCE_MS,
    );

    const audit = await set.auditLog();
    const takeoverAt = auditMicros(takeover.stageTimestamp);
    // Cut off indeed: the API server received nothing of the old leader while it was partitioned
    // (allowing 200 ms for bytes that had passed the proxy just before).
    const heardDuringPartition = audit.filter((entry) => {
      const received = auditMicros(entry.requestReceivedTimestamp);
      return entry.user === leader.user && received > partitionedAt + 200_000 && received < healedAt;
    });
    expect(heardDuringPartition).toEqual([]);
    const stale = audit.filter(
      (entry) =>
        entry.user === leader.user &&
        isWriteRequest(entry) &&
        auditMicros(entry.stageTimestamp) >= takeoverAt,
    );
    expect(stale).toEqual([]);
    // The Widget's status, and its Deployment and Service widgets-second.
    const secondWrites = audit.filter(
      (entry) => isWriteRequest(entry) && /^(widgets-)?second$/.test(entry.objectRef?.name ?? ''),
    );
    expect([...new Set(secondWrites.map((entry) => entry.user))]).toEqual([successor.replica.user]);
    expect(new Set(secondWrites.map(resourceOf))).toEqual(
      new Set(['deployments', 'services', 'widgets/status']),
    );
    // What the old leader said while cut off.
    const stepDown = await leader.waitForLog(
      'stopped leading',
      (record) => record.msg === 'stopped leading',
      {
        from: logMarks.get(leader),
      },
    );
    expect(String(stepDown.reason)).toMatch(/renew deadline/);
    expect(await leaderGauge(leader)).toBe(0);
    expect(await leaderGauge(successor.replica)).toBe(1);
  });
});
