/**
 * A leader cut off from the API server while it writes: its requests are held by the network and
 * delivered when the partition heals, after a standby has taken over. Fencing means none of its
 * writes lands: it refuses new writes from its renew deadline on and cuts off those in flight.
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

const LEASE_DURATION_MS = 3000;
const INSTANCES = 30;
const api = 'partition.example.com/v1';
const options = (user: string): ClusterOptions => ({
  user,
  leaderElection: { leaseName: 'scoby-leader', leaseDurationMs: LEASE_DURATION_MS },
  // Longer than the partition: reads held by the network come back, and the reconciles that made
  // them go on to write, so the fence is what stops them.
  limits: { requestTimeoutMs: 20_000 },
});
const target = (name: string) => ({ apiVersion: api, kind: 'Sensor', namespace: 'shop', name });
const sensor = (name: string): KubeObject => ({
  apiVersion: api,
  kind: 'Sensor',
  metadata: { name, namespace: 'shop' },
  spec: { message: 'hello' },
});

let cluster: TestCluster;
let leader: RunningProcess;
let standby: RunningProcess;

beforeAll(async () => {
  cluster = await startTestCluster(options('controller-a'));
  leader = cluster.controller;
  await cluster.waitFor('controller a leading', async () => leader.isLeader());
  standby = startClusterController(cluster.server, options('controller-b'));
  await cluster.waitFor('controller b standing by', async () => standby.isReady());
  await registerKind(cluster, {
    namespace: 'shop',
    group: 'partition.example.com',
    kind: 'Sensor',
    plural: 'sensors',
    registration: 'sensor',
  });
});
afterAll(async () => {
  await standby.stop();
  await cluster.stop();
});

describe('a leader partitioned from the API server', () => {
  it('makes no write once its renew deadline has passed, even when its requests arrive late', async () => {
    // Slow answers keep the leader's reconciles in flight when the partition starts.
    cluster.server.faults.setLatency(100);
    await Promise.all(Array.from({ length: INSTANCES }, (_, index) => cluster.apply(sensor(`s-${index}`))));
    await cluster.waitFor('the leader at work', async () =>
      cluster.server.requestLog
        .entries()
        .some((entry) => entry.user === 'controller-a' && entry.path.startsWith('/apis/apps/v1/')),
    );
    const heal = cluster.server.faults.blackHole({ user: 'controller-a', deliverOnHeal: true });
    const partitionedAt = Date.now();
    cluster.server.faults.setLatency(0);
    // What arrived before the cut is answered within the latency; from here on, whatever the log
    // shows of the leader was delivered late, when the partition healed.
    await sleep(200);
    cluster.server.requestLog.clear();

    await cluster.waitFor('the standby takes over', async () => standby.isLeader(), 4 * LEASE_DURATION_MS);
    const takeoverMs = Date.now() - partitionedAt;
    // One lease duration after the standby last saw a renewal, which came at most a retry period before the cut.
    expect(takeoverMs).toBeGreaterThanOrEqual(LEASE_DURATION_MS - 1000);
    expect(leader.isLeader()).toBe(false);
    await sleep(1000);
    heal();
    for (let index = 0; index < INSTANCES; index++) {
      await waitForCondition(cluster, target(`s-${index}`), 'Ready', 'True', undefined, 20_000);
    }
    await sleep(500);

    const entries = cluster.server.requestLog.entries();
    const fromLeader = entries.filter((entry) => entry.user === 'controller-a');
    const staleWrites = fromLeader.filter(
      (entry) => entry.method !== 'GET' && !entry.path.includes('/leases/'),
    );
    expect(staleWrites.map((entry) => `${entry.method} ${entry.path} ${entry.code}`)).toEqual([]);
    // Its Lease calls were abandoned at their timeout too: none arrived to contest the new holder.
    expect(fromLeader.filter((entry) => entry.path.includes('/leases/') && entry.method !== 'GET')).toEqual(
      [],
    );
    expect(standby.isLeader()).toBe(true);
  }, 60_000);
});
