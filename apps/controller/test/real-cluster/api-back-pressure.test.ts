/**
 * API back-pressure on the real control plane: the controller, as Scoby's ServiceAccount, talks to
 * kube-apiserver through a proxy that answers every request but watches `429` with `Retry-After: 5`
 * during a storm, as priority and fairness does under load. Each object is retried when the server
 * asked, the refused attempts send no status write and no Event, and every instance converges
 * within 10 s after the storm (test/integration/api-back-pressure.test.ts is the in-memory twin).
 */
import http from 'node:http';
import https from 'node:https';
import { KubeConfig } from '@kubernetes/client-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inject } from 'vitest';
import type { RunningController } from '../../src/process/manager.ts';
import { crdFor } from '../support/cluster.ts';
import {
  adapterOf,
  namespaceObject,
  registrationObject,
  registrationTarget,
  sleep,
  waitForCondition,
} from '../support/scoby.ts';
import { registeredKindRole } from './support/grants.ts';
import { realClusterAdmin, startRealController } from './support/real-cluster.ts';

const GROUP = 'pressure.real.example.com';
const NAMESPACE = 'pressure-real';
const API = `${GROUP}/v1`;
const INSTANCES = ['a', 'b', 'c', 'd'];
const RETRY_AFTER_S = 5;
const STORM_MS = 16_000;
const RECOVERY_TARGET_MS = 10_000;

/** An HTTP proxy to kube-apiserver that refuses what is not a watch while `storm` is on. */
function throttlingProxy(target: URL) {
  const refused: { line: string; at: number }[] = [];
  let storm = false;
  const server = http.createServer((request, response) => {
    const url = request.url ?? '';
    if (storm && !/[?&]watch=(true|1)/.test(url)) {
      refused.push({ line: `${request.method} ${url.split('?')[0]}`, at: Date.now() });
      request.resume();
      response.writeHead(429, { 'Content-Type': 'application/json', 'Retry-After': String(RETRY_AFTER_S) });
      response.end(
        JSON.stringify({
          kind: 'Status',
          apiVersion: 'v1',
          status: 'Failure',
          message: 'Too many requests, please try again later.',
          reason: 'TooManyRequests',
          details: { retryAfterSeconds: RETRY_AFTER_S },
          code: 429,
        }),
      );
      return;
    }
    const upstream = https.request(
      {
        hostname: target.hostname,
        port: target.port,
        path: url,
        method: request.method,
        headers: { ...request.headers, host: target.host },
        rejectUnauthorized: false,
      },
      (answer) => {
        response.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(response);
      },
    );
    upstream.on('error', () => response.destroy());
    response.on('close', () => upstream.destroy());
    request.pipe(upstream);
  });
  return {
    server,
    refused,
    setStorm(on: boolean) {
      storm = on;
    },
  };
}

const admin = realClusterAdmin();
let proxy: ReturnType<typeof throttlingProxy>;
let controller: RunningController;

beforeAll(async () => {
  const direct = new KubeConfig();
  direct.loadFromString(inject('realCluster').controllerKubeconfigYaml);
  proxy = throttlingProxy(new URL(direct.getCurrentCluster()!.server));
  await new Promise<void>((resolve) => proxy.server.listen(0, '127.0.0.1', resolve));
  const port = (proxy.server.address() as { port: number }).port;
  const proxied = new KubeConfig();
  proxied.loadFromOptions({
    clusters: [{ name: 'proxy', server: `http://127.0.0.1:${port}`, skipTLSVerify: true }],
    users: [{ name: 'scoby', token: direct.getCurrentUser()!.token! }],
    contexts: [{ name: 'proxy', cluster: 'proxy', user: 'scoby' }],
    currentContext: 'proxy',
  });
  controller = startRealController({ kubeConfig: proxied });

  await admin.apply(registeredKindRole(GROUP, 'senders'));
  await admin.apply(namespaceObject(NAMESPACE));
  await admin.apply(crdFor({ group: GROUP, kind: 'Sender', plural: 'senders' }));
  await admin.apply(
    registrationObject('sender-real', {
      crd: `senders.${GROUP}`,
      workload: { fromImage: { repo: 'registry.example.com/sender:1' } },
    }),
  );
  await waitForCondition(admin, registrationTarget('sender-real'), 'Ready', 'True');
  for (const name of INSTANCES) {
    await admin.apply({
      apiVersion: API,
      kind: 'Sender',
      metadata: { name, namespace: NAMESPACE },
      spec: { round: 1 },
    });
  }
  for (const name of INSTANCES) {
    await admin.waitFor(`Deployment of ${name}`, async () =>
      (await roundOf(name)) === '1' ? true : undefined,
    );
  }
});
afterAll(async () => {
  await controller?.stop();
  proxy?.server.closeAllConnections();
  proxy?.server.close();
  await admin.stop();
});

async function roundOf(name: string): Promise<string | undefined> {
  const deployment = await admin.get('apps/v1', 'Deployment', NAMESPACE, `sender-real-${name}`);
  if (deployment === undefined) return undefined;
  const env = adapterOf(deployment).env as { name: string; value?: string }[] | undefined;
  return env?.find((entry) => entry.name === 'ROUND')?.value;
}

describe('a 429 storm with Retry-After in front of kube-apiserver', () => {
  it('retries each object when the server asked, records nothing, and recovers within 10 s', async () => {
    proxy.refused.length = 0;
    proxy.setStorm(true);
    const stormStarted = Date.now();
    for (const name of INSTANCES) {
      await admin.edit({ apiVersion: API, kind: 'Sender', namespace: NAMESPACE, name }, (current) => ({
        ...current,
        spec: { round: 2 },
      }));
    }
    await sleep(STORM_MS - (Date.now() - stormStarted));
    proxy.setStorm(false);
    // The suite's other files leave registrations behind in the shared control plane, and this
    // controller reconciles them too: their own Warning Events (a quota, a failed rollout) are
    // refused by the storm as well. What is judged here is this test's objects.
    const refused = proxy.refused.filter((entry) => entry.line.includes(`/namespaces/${NAMESPACE}/`));
    expect(refused.length).toBeGreaterThan(0);
    const stormMs = Date.now() - stormStarted;
    const stormEnded = Date.now();
    await admin.waitFor(
      'every instance converged',
      async () => {
        for (const name of INSTANCES) if ((await roundOf(name)) !== '2') return undefined;
        return true;
      },
      RECOVERY_TARGET_MS,
    );
    const recoveryMs = Date.now() - stormEnded;

    // What the server asked of each object: one retry per Retry-After from its first refusal to
    // the storm's end.
    const perObject = INSTANCES.map((name) => {
      const times = refused
        .filter((entry) => entry.line.endsWith(`/namespaces/${NAMESPACE}/deployments/sender-real-${name}`))
        .map((entry) => entry.at);
      return {
        retries: times.length - 1,
        asked: (stormEnded - (times[0] ?? stormEnded)) / 1000 / RETRY_AFTER_S,
      };
    });
    console.log(
      `real control plane, 429 storm of ${(stormMs / 1000).toFixed(1)} s, Retry-After ${RETRY_AFTER_S} s: ` +
        `retries per object ${perObject.map((object) => `${object.retries} (asked ${object.asked.toFixed(1)})`).join(', ')}, ` +
        `recovery ${recoveryMs} ms; refused status writes and Events: ` +
        JSON.stringify(
          refused.filter((entry) => /\/status|\/events/.test(entry.line)).map((entry) => entry.line),
        ),
    );
    for (const { retries, asked } of perObject) expect(Math.abs(retries - asked)).toBeLessThanOrEqual(1);
    expect(recoveryMs).toBeLessThan(RECOVERY_TARGET_MS);
    // No status write and no Event to record a refusal. A status write may be an attempt's own
    // (Ready=True once kube-controller-manager reports the round-1 rollout): then it is the first
    // request of that object the server refused, and nothing of that object follows before its Retry-After.
    expect(refused.filter((entry) => entry.line.includes('/events'))).toEqual([]);
    for (const name of INSTANCES) {
      const ofObject = refused.filter(
        (entry) =>
          entry.line.endsWith(`/deployments/sender-real-${name}`) ||
          entry.line.endsWith(`/senders/${name}/status`),
      );
      const statusWrites = ofObject.flatMap((entry, index) =>
        entry.line.endsWith('/status') ? [index] : [],
      );
      expect(statusWrites.filter((index) => index > 0)).toEqual([]);
      const gaps = ofObject.slice(1).map((entry, index) => entry.at - ofObject[index]!.at);
      expect(gaps.filter((gapMs) => gapMs < RETRY_AFTER_S * 1000 - 100)).toEqual([]);
    }
  }, 120_000);
});
