/**
 * An API server that swallows the controller's requests for ten seconds and never answers them,
 * then serves again: the controller must not stay wedged. Every request times out, every reconcile
 * slot is freed, watches silenced by the black hole are resumed, later updates apply, and the log
 * names a request that timed out.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { KubeObject } from '@scoby/kube-objects';
import { startTestCluster, type TestCluster } from '../support/cluster.ts';
import { captureLogs } from '@scoby/controller-runtime/testing';
import { adapterOf, registerKind, sleep, waitForCondition } from '../support/scoby.ts';

const BLACK_HOLE_MS = 10_000;
const REQUEST_TIMEOUT_MS = 1000;
const INSTANCES = 12;
const api = 'blackhole.example.com/v1';
const names = Array.from({ length: INSTANCES }, (_, index) => `relay-${index}`);
const logs = captureLogs('info');
let cluster: TestCluster;

const relay = (name: string, message: string): KubeObject => ({
  apiVersion: api,
  kind: 'Relay',
  metadata: { name, namespace: 'shop' },
  spec: { message },
});

async function updateAll(message: string): Promise<void> {
  await Promise.all(
    names.map(async (name) => {
      await cluster.edit({ apiVersion: api, kind: 'Relay', namespace: 'shop', name }, (current) => ({
        ...relay(name, message),
        metadata: current.metadata,
      }));
    }),
  );
}

/** How many Deployments carry `message` in their env. */
async function rendered(message: string): Promise<number> {
  const deployments = await cluster.list('apps/v1', 'Deployment', 'shop');
  return deployments.filter((deployment) =>
    ((adapterOf(deployment).env ?? []) as { name: string; value?: string }[]).some(
      (variable) => variable.name === 'MESSAGE' && variable.value === message,
    ),
  ).length;
}

beforeAll(async () => {
  cluster = await startTestCluster({
    user: 'scoby',
    concurrency: 4,
    // The in-memory server bookmarks every second; the watch bound leaves room for that.
    limits: { requestTimeoutMs: REQUEST_TIMEOUT_MS, watchSilenceMs: 2500 },
    logger: logs.logger,
  });
  await registerKind(cluster, {
    namespace: 'shop',
    group: 'blackhole.example.com',
    kind: 'Relay',
    plural: 'relays',
    registration: 'relay',
  });
  for (const name of names) await cluster.apply(relay(name, 'v1'));
  await cluster.waitFor('every relay rendered', async () => (await rendered('v1')) === INSTANCES);
});
afterAll(() => cluster.stop());

describe('a black-holed API server', () => {
  it('does not wedge the controller: requests time out, slots are freed, watches restart, later updates apply', async () => {
    // Slow answers keep reconciles in flight when the black hole opens, as under real load.
    cluster.server.faults.setLatency(100);
    await updateAll('v2');
    await cluster.waitFor('the controller at work on v2', async () => (await rendered('v2')) > 0);
    const heal = cluster.server.faults.blackHole({ user: 'scoby' });
    cluster.server.faults.setLatency(0);
    await sleep(BLACK_HOLE_MS);
    heal();
    const healedAt = Date.now();

    await updateAll('v3');
    await cluster.waitFor(
      'every relay rendered with v3',
      async () => (await rendered('v3')) === INSTANCES,
      30_000,
    );
    const recoveryMs = Date.now() - healedAt;
    for (const name of names) {
      await waitForCondition(
        cluster,
        { apiVersion: api, kind: 'Relay', namespace: 'shop', name },
        'Ready',
        'True',
      );
    }
    // Bounded by the silence bound plus the informer's restart backoff, not by luck.
    expect(recoveryMs).toBeLessThan(15_000);
    expect(cluster.controller.healthProblems()).toEqual([]);

    const timedOut = logs
      .lines()
      .filter(
        (line) =>
          line.level === 'error' &&
          /(GET|POST|PUT|PATCH|DELETE) \/\S+ timed out: no answer from the API server within 1000 ms/.test(
            JSON.stringify(line),
          ),
      );
    expect(timedOut.length).toBeGreaterThan(0);
    const silent = logs
      .lines()
      .filter((line) => line.msg === 'watch went silent; watching again from its last resourceVersion');
    expect(silent.length).toBeGreaterThan(0);
  }, 60_000);
});
