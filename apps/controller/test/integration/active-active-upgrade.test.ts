/**
 * A rolling upgrade from leader mode to active-active (docs/spec/registration.md §9.9) on the
 * in-memory API server: active-active replicas started beside a leader-mode leader and standby own
 * nothing and write nothing while the leader holds the leader Lease; when it stops they take the
 * Lease and the registrations, and the leader-mode standby never leads. No moment has two processes
 * writing for one registration.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { KubeObject } from '@scoby/kube-objects';
import type { RunningProcess } from '../../src/process/manager.ts';
import {
  startClusterController,
  startTestCluster,
  type ClusterOptions,
  type TestCluster,
} from '../support/cluster.ts';
import { registerKind, sleep, waitForCondition } from '../support/scoby.ts';

const LEASE_DURATION_MS = 1000;
const options = (user: string, mode: 'leader' | 'active-active'): ClusterOptions => ({
  user,
  leaderElection: { leaseName: 'scoby-leader', leaseDurationMs: LEASE_DURATION_MS, mode },
});
const REGISTRATIONS = 4;
const indexes = Array.from({ length: REGISTRATIONS }, (_, index) => index);
const group = (index: number) => `u${index}.upgrade.example.com`;
const instance = (index: number, message: string): KubeObject => ({
  apiVersion: `${group(index)}/v1`,
  kind: 'Worker',
  metadata: { name: 'w', namespace: `up-${index}` },
  spec: { message },
});

let cluster: TestCluster;
let oldStandby: RunningProcess;
const members: RunningProcess[] = [];

/** Writes other than Lease renewals and access reviews, by user, since the log was last cleared. */
function writesBy(user: string): string[] {
  return cluster.server.requestLog
    .entries()
    .filter(
      (entry) =>
        entry.user === user &&
        entry.method !== 'GET' &&
        !entry.path.includes('/leases') &&
        !entry.path.startsWith('/apis/authorization.k8s.io/'),
    )
    .map((entry) => `${entry.method} ${entry.path}`);
}

async function reconciled(message: string): Promise<void> {
  for (const index of indexes) {
    await cluster.apply(instance(index, message));
    await cluster.waitFor(`up-${index}/w at "${message}"`, async () => {
      const object = await cluster.get(`${group(index)}/v1`, 'Worker', `up-${index}`, 'w');
      const status = object?.status as { observedGeneration?: number } | undefined;
      return status?.observedGeneration === object?.metadata.generation;
    });
  }
}

beforeAll(async () => {
  cluster = await startTestCluster(options('old-leader', 'leader'));
  await cluster.waitFor('the old leader leads', async () => cluster.controller.isLeader());
  oldStandby = startClusterController(cluster.server, options('old-standby', 'leader'));
  for (const index of indexes) {
    await registerKind(cluster, {
      namespace: `up-${index}`,
      group: group(index),
      kind: 'Worker',
      plural: 'workers',
      registration: `upgrade-${index}`,
    });
  }
  await reconciled('before');
});
afterAll(async () => {
  for (const member of members) await member.stop();
  await oldStandby.stop();
  await cluster.stop();
});

describe('a rolling upgrade from leader mode to active-active', () => {
  it('starts active-active replicas that own and write nothing while the old leader holds the Lease', async () => {
    cluster.server.requestLog.clear();
    members.push(startClusterController(cluster.server, options('member-a', 'active-active')));
    members.push(startClusterController(cluster.server, options('member-b', 'active-active')));
    await cluster.waitFor('the members are ready', async () => members.every((member) => member.isReady()));
    await reconciled('beside the old leader');
    await sleep(3 * LEASE_DURATION_MS);
    for (const member of members) {
      expect(member.isLeader()).toBe(false);
      expect(member.ownedRegistrations()).toEqual([]);
    }
    expect([...writesBy('member-a'), ...writesBy('member-b')]).toEqual([]);
    expect(writesBy('old-leader').length).toBeGreaterThan(0);
  });

  it('hands every registration to the members once the old replicas have stopped', async () => {
    // Kubernetes replaces the old pods one at a time: the standby first, here.
    await oldStandby.stop();
    await sleep(2 * LEASE_DURATION_MS);
    expect(members.flatMap((member) => member.ownedRegistrations() ?? [])).toEqual([]);
    await cluster.controller.stop();
    await cluster.waitFor(
      'the members own every registration',
      async () => members.flatMap((member) => member.ownedRegistrations() ?? []).length === REGISTRATIONS,
    );
    cluster.server.requestLog.clear();
    await reconciled('after the upgrade');
    expect(writesBy('old-leader')).toEqual([]);
    expect(members.map((member) => member.ownedRegistrations()?.length)).toEqual([2, 2]);
    for (const index of indexes) {
      await waitForCondition(
        cluster,
        { apiVersion: `${group(index)}/v1`, kind: 'Worker', namespace: `up-${index}`, name: 'w' },
        'Ready',
        'True',
      );
    }
  });

  it('keeps a leader-mode replica started later standing by, even when the member keeping the Lease crashes', async () => {
    const late = startClusterController(cluster.server, options('late-leader-mode', 'leader'));
    try {
      await cluster.waitFor('the late replica is ready', async () => late.isReady());
      cluster.server.requestLog.clear();
      const lease = await cluster.get('coordination.k8s.io/v1', 'Lease', 'scoby-system', 'scoby-leader');
      const keeper = (lease?.spec as { holderIdentity?: string }).holderIdentity;
      const crashed = members.find((member) => member.identity === keeper)!;
      const survivor = members.find((member) => member !== crashed)!;
      await crashed.stop({ releaseLease: false });
      await cluster.waitFor(
        'the other member owns every registration',
        async () => survivor.ownedRegistrations()?.length === REGISTRATIONS,
      );
      await reconciled('after a member crashed');
      await sleep(3 * LEASE_DURATION_MS);
      expect(late.isLeader()).toBe(false);
      expect(writesBy('late-leader-mode')).toEqual([]);
    } finally {
      await late.stop();
    }
  });
});
