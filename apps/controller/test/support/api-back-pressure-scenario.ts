/**
 * API back-pressure, run alike on the in-memory server and on the real control plane: the controller
 * talks to the API server through a proxy (throttling-proxy.ts) that answers every request but
 * watches `429` with `Retry-After: 5` during a storm, as priority and fairness does under load. Each
 * object is retried when the server asked, not sooner; the refused attempts send no status write and
 * no Event; rest_client_throttled_requests_total counts every refusal; and every instance converges
 * within 10 s after the storm.
 */
import type { KubeConfig } from '@kubernetes/client-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningProcess } from '../../src/process/options.ts';
import type { ClusterVerbs } from './cluster.ts';
import { adapterOf, metricSamples, registerKind, sleep, waitForCondition } from './scoby.ts';
import { startThrottlingProxy, type ThrottlingProxy } from './throttling-proxy.ts';

export const GROUP = 'pressure.example.com';
export const PLURAL = 'senders';
const NAMESPACE = 'pressure';
const API = `${GROUP}/v1`;
const INSTANCES = ['a', 'b', 'c', 'd', 'e', 'f'];
const RETRY_AFTER_S = 5;
const STORM_MS = 16_000;
const RECOVERY_TARGET_MS = 10_000;

export interface BackPressureBackend {
  cluster: ClusterVerbs;
  /** How the controller reaches the API server directly (on the real control plane, as Scoby's ServiceAccount). */
  controllerKubeConfig: KubeConfig;
  /** Starts the controller, reaching the API server through `kubeConfig` (the proxy) as the same user. */
  startController(kubeConfig: KubeConfig): RunningProcess;
  /**
   * The server holds other files' registrations, which this controller reconciles too (the real
   * control plane the suite shares): their refusals are not this test's.
   */
  othersOnServer: boolean;
  stop(): Promise<void>;
}

const OURS = `/namespaces/${NAMESPACE}/`;

/** Declares the scenario's tests on the backend `start` gives (called once, before them), named `on`. */
export function apiBackPressureScenario(on: string, start: () => Promise<BackPressureBackend>): void {
  let backend: BackPressureBackend;
  let cluster: ClusterVerbs;
  let proxy: ThrottlingProxy;
  let controller: RunningProcess;

  async function roundOf(name: string): Promise<string | undefined> {
    const deployment = await cluster.get('apps/v1', 'Deployment', NAMESPACE, `sender-${name}`);
    if (deployment === undefined) return undefined;
    const env = adapterOf(deployment).env as { name: string; value?: string }[] | undefined;
    return env?.find((entry) => entry.name === 'ROUND')?.value;
  }

  async function throttledCount(): Promise<number> {
    const samples = await metricSamples(controller.metrics, 'rest_client_throttled_requests_total');
    return samples.reduce((sum, value) => sum + value.value, 0);
  }

  beforeAll(async () => {
    backend = await start();
    cluster = backend.cluster;
    proxy = await startThrottlingProxy(backend.controllerKubeConfig, RETRY_AFTER_S);
    controller = backend.startController(proxy.kubeConfig);
    await registerKind(cluster, {
      namespace: NAMESPACE,
      group: GROUP,
      kind: 'Sender',
      plural: PLURAL,
      registration: 'sender',
    });
    for (const name of INSTANCES)
      await cluster.apply({
        apiVersion: API,
        kind: 'Sender',
        metadata: { name, namespace: NAMESPACE },
        spec: { round: 1 },
      });
    // Settled before the storm: no rollout of round 1 is left to report during it.
    for (const name of INSTANCES)
      await waitForCondition(
        cluster,
        { apiVersion: API, kind: 'Sender', namespace: NAMESPACE, name },
        'Ready',
        'True',
      );
  });
  afterAll(async () => {
    await controller?.stop();
    await proxy?.close();
    await backend?.stop();
  });

  describe(`a 429 storm with Retry-After (${on})`, () => {
    it('retries each object when the server asked, records nothing, and recovers within 10 s', async () => {
      proxy.refused.length = 0;
      // kube-apiserver answers 429 itself while a new CRD's storage initialises: those are not the storm's.
      const throttledBefore = await throttledCount();
      proxy.setStorm(true);
      const stormStarted = Date.now();
      for (const name of INSTANCES)
        await cluster.edit({ apiVersion: API, kind: 'Sender', namespace: NAMESPACE, name }, (current) => ({
          ...current,
          spec: { round: 2 },
        }));
      await sleep(STORM_MS - (Date.now() - stormStarted));
      proxy.setStorm(false);
      const stormEnded = Date.now();
      const stormMs = stormEnded - stormStarted;
      const refused = [...proxy.refused];
      const ours = refused.filter((entry) => entry.line.includes(OURS));
      expect(ours.length).toBeGreaterThan(0);

      await cluster.waitFor(
        'every instance converged',
        async () => {
          for (const name of INSTANCES) if ((await roundOf(name)) !== '2') return undefined;
          return true;
        },
        RECOVERY_TARGET_MS,
      );
      const recoveryMs = Date.now() - stormEnded;

      // What the server asked of each object: one retry per Retry-After from its first refusal to the
      // storm's end, and never one sooner.
      const perObject = INSTANCES.map((name) => {
        const times = ours
          .filter((entry) => entry.line.endsWith(`${OURS}deployments/sender-${name}`))
          .map((entry) => entry.at);
        return {
          retries: times.length - 1,
          asked: (stormEnded - (times[0] ?? stormEnded)) / 1000 / RETRY_AFTER_S,
          gaps: times.slice(1).map((at, index) => at - times[index]!),
        };
      });
      console.log(
        `${on}, 429 storm of ${(stormMs / 1000).toFixed(1)} s, Retry-After ${RETRY_AFTER_S} s: retries per object ` +
          `${perObject.map((object) => `${object.retries} (asked ${object.asked.toFixed(1)})`).join(', ')}, ` +
          `recovery ${recoveryMs} ms`,
      );
      for (const { retries, asked, gaps } of perObject) {
        expect(Math.abs(retries - asked)).toBeLessThanOrEqual(1);
        expect(Math.abs(retries - stormMs / 1000 / RETRY_AFTER_S)).toBeLessThanOrEqual(1);
        expect(gaps.filter((gapMs) => gapMs < RETRY_AFTER_S * 1000 - 100)).toEqual([]);
      }
      expect(recoveryMs).toBeLessThan(RECOVERY_TARGET_MS);
      // No status write and no Event for an attempt the server refused: the instances were Ready
      // before the storm, so a reconcile's first write is its Deployment's.
      const judged = backend.othersOnServer ? ours : refused;
      expect(judged.filter((entry) => entry.line.endsWith('/status'))).toEqual([]);
      expect(judged.filter((entry) => entry.line.includes('/events'))).toEqual([]);
      // Every refusal counted (the proxy refuses this controller's requests only).
      expect((await throttledCount()) - throttledBefore).toBe(refused.length);
    }, 120_000);
  });
}
