/**
 * Leader election (README, operational behaviour): two controllers on one cluster, only the Lease
 * holder reconciles; a crashed leader is replaced once its Lease expires, a gracefully stopped one
 * at once because it releases the Lease.
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
import { reconcileCount, registerKind, sleep, waitForCondition } from '../support/scoby.ts';

const LEASE_DURATION_MS = 1000;
const options: ClusterOptions = {
  leaderElection: { leaseName: 'scoby-leader', leaseDurationMs: LEASE_DURATION_MS },
};
const api = 'ha.example.com/v1';
const target = (name: string) => ({ apiVersion: api, kind: 'Worker', namespace: 'shop', name });
const worker = (name: string): KubeObject => ({
  apiVersion: api,
  kind: 'Worker',
  metadata: { name, namespace: 'shop' },
  spec: {},
});

let cluster: TestCluster;
let first: RunningProcess;
const extra: RunningProcess[] = [];

function startStandby(): RunningProcess {
  const controller = startClusterController(cluster.server, options);
  extra.push(controller);
  return controller;
}

async function holder(): Promise<string | undefined> {
  const lease = await cluster.get('coordination.k8s.io/v1', 'Lease', 'scoby-system', 'scoby-leader');
  return (lease?.spec as { holderIdentity?: string } | undefined)?.holderIdentity;
}

beforeAll(async () => {
  cluster = await startTestCluster(options);
  first = cluster.controller;
  await cluster.waitFor('first controller leading', async () => first.isLeader());
  await registerKind(cluster, {
    namespace: 'shop',
    group: 'ha.example.com',
    kind: 'Worker',
    plural: 'workers',
    registration: 'worker',
  });
});
afterAll(async () => {
  for (const controller of extra) await controller.stop();
  await cluster.stop();
});

describe('leader election', () => {
  it('lets only the leader reconcile', async () => {
    const second = startStandby();
    await cluster.waitFor('second controller ready as standby', async () => second.isReady());
    await cluster.apply(worker('one'));
    await waitForCondition(cluster, target('one'), 'Ready', 'True');
    await sleep(200);
    expect(first.isLeader()).toBe(true);
    expect(second.isLeader()).toBe(false);
    expect(await reconcileCount(first.metrics, 'worker')).toBeGreaterThan(0);
    expect(await reconcileCount(second.metrics, 'worker')).toBe(0);
  });

  it('fails over to the standby within the lease duration when the leader crashes', async () => {
    const second = extra[0]!;
    const crashedAt = Date.now();
    await first.stop({ releaseLease: false });
    await cluster.waitFor('standby takes over', async () => second.isLeader(), 3 * LEASE_DURATION_MS);
    const takeoverMs = Date.now() - crashedAt;
    // Not before the crashed leader's Lease expired, and well within one more lease duration.
    expect(takeoverMs).toBeGreaterThanOrEqual(LEASE_DURATION_MS / 2);
    expect(takeoverMs).toBeLessThan(2 * LEASE_DURATION_MS);

    await cluster.apply(worker('two'));
    await waitForCondition(cluster, target('two'), 'Ready', 'True');
    expect(await reconcileCount(second.metrics, 'worker')).toBeGreaterThan(0);
    expect(await cluster.get('apps/v1', 'Deployment', 'shop', 'worker-two')).toBeDefined();
  });

  it('hands over at once when the leader stops gracefully and releases the Lease', async () => {
    const second = extra[0]!;
    const third = startStandby();
    await cluster.waitFor('third controller ready as standby', async () => third.isReady());
    const leaderBefore = await holder();
    const stoppedAt = Date.now();
    await second.stop();
    await cluster.waitFor('third takes over', async () => third.isLeader(), 3 * LEASE_DURATION_MS);
    // Sooner than an unreleased Lease could expire (its last renewal was at most a retry period ago).
    expect(Date.now() - stoppedAt).toBeLessThan(LEASE_DURATION_MS * 0.75);
    expect(await holder()).not.toBe(leaderBefore);

    await cluster.apply(worker('three'));
    await waitForCondition(cluster, target('three'), 'Ready', 'True');
    expect(await reconcileCount(third.metrics, 'worker')).toBeGreaterThan(0);
  });
});
