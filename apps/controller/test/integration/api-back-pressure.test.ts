/**
 * API back-pressure on the in-memory API server: under a storm of 429 answers with `Retry-After: 5`
 * (kube-apiserver's priority and fairness under load) the controller retries each object when the
 * server asked, not sooner; sends no status write and no Event for an attempt the server refused;
 * counts the refusals in rest_client_throttled_requests_total; and converges within 10 s after the
 * storm ends.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RequestLogEntry } from '@scoby/in-memory-apiserver';
import { startTestCluster, type TestCluster } from '../support/cluster.ts';
import { adapterOf, metricSamples, registerKind, sleep, waitForCondition } from '../support/scoby.ts';

const NAMESPACE = 'pressure';
const API = 'pressure.example.com/v1';
const CONTROLLER = 'scoby';
const INSTANCES = ['a', 'b', 'c', 'd', 'e', 'f'];
const RETRY_AFTER_S = 5;
const STORM_MS = 16_000;
const RECOVERY_TARGET_MS = 10_000;

let cluster: TestCluster;

beforeAll(async () => {
  cluster = await startTestCluster({ user: CONTROLLER });
  await registerKind(cluster, {
    namespace: NAMESPACE,
    group: 'pressure.example.com',
    kind: 'Sender',
    plural: 'senders',
    registration: 'sender',
  });
  for (const name of INSTANCES) {
    await cluster.apply({
      apiVersion: API,
      kind: 'Sender',
      metadata: { name, namespace: NAMESPACE },
      spec: { round: 1 },
    });
  }
  for (const name of INSTANCES) {
    await waitForCondition(
      cluster,
      { apiVersion: API, kind: 'Sender', namespace: NAMESPACE, name },
      'Ready',
      'True',
    );
  }
});
afterAll(() => cluster.stop());

const deploymentPath = (name: string) => `/apis/apps/v1/namespaces/${NAMESPACE}/deployments/sender-${name}`;

async function throttledCount(): Promise<number> {
  const samples = await metricSamples(cluster.controller.metrics, 'rest_client_throttled_requests_total');
  return samples.reduce((sum, value) => sum + value.value, 0);
}

async function roundOf(name: string): Promise<string | undefined> {
  const deployment = await cluster.get('apps/v1', 'Deployment', NAMESPACE, `sender-${name}`);
  const env = adapterOf(deployment).env as { name: string; value?: string }[] | undefined;
  return env?.find((entry) => entry.name === 'ROUND')?.value;
}

describe('a 429 storm with Retry-After', () => {
  it('retries each object when the server asked, records nothing, and recovers within 10 s', async () => {
    cluster.server.requestLog.clear();
    const stop = cluster.server.faults.throttle({ user: CONTROLLER }, { retryAfterSeconds: RETRY_AFTER_S });
    const stormStarted = Date.now();
    for (const name of INSTANCES) {
      await cluster.edit({ apiVersion: API, kind: 'Sender', namespace: NAMESPACE, name }, (current) => ({
        ...current,
        spec: { round: 2 },
      }));
    }
    await sleep(STORM_MS - (Date.now() - stormStarted));
    const refused = cluster.server.requestLog
      .entries()
      .filter((entry) => entry.user === CONTROLLER && entry.injected);
    stop();
    const stormMs = Date.now() - stormStarted;
    const stormEnded = Date.now();

    await cluster.waitFor(
      'every instance converged',
      async () => {
        for (const name of INSTANCES) if ((await roundOf(name)) !== '2') return false;
        return true;
      },
      RECOVERY_TARGET_MS,
    );
    const recoveryMs = Date.now() - stormEnded;

    const asked = stormMs / 1000 / RETRY_AFTER_S;
    const retries = INSTANCES.map(
      (name) => refused.filter((entry: RequestLogEntry) => entry.path === deploymentPath(name)).length - 1,
    );
    console.log(
      `429 storm of ${(stormMs / 1000).toFixed(1)} s, Retry-After ${RETRY_AFTER_S} s: ` +
        `retries per object ${retries.join(', ')} (asked ${asked.toFixed(1)}), recovery ${recoveryMs} ms`,
    );
    for (const count of retries) expect(Math.abs(count - asked)).toBeLessThanOrEqual(1);
    expect(recoveryMs).toBeLessThan(RECOVERY_TARGET_MS);
    // No status write and no Event for an attempt the server refused.
    expect(refused.filter((entry) => entry.path.endsWith('/status'))).toEqual([]);
    expect(refused.filter((entry) => entry.path.includes('/events'))).toEqual([]);
    expect(await throttledCount()).toBe(refused.length);
  }, 60_000);
});
