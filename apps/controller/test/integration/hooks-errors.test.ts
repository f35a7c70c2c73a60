/**
 * Hook error answers in the instance reconcile (docs/spec/hooks-v1.md §6): continue, permanent (parking),
 * transient (backoff), Retry-After; every failure shows as Ready=False/HookFailed, an Event and
 * the failed calls of scoby_hook_calls_total.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { KubeObject } from '@scoby/kube-objects';
import { crdFor, startTestCluster, type TestCluster } from '../support/cluster.ts';
import { conditionOf, conditionsOf, sleep } from '../support/scoby.ts';
import {
  eventsOf,
  hookFailures,
  hookedRegistration,
  instanceWhere,
  mergePatch,
  registrationReady,
} from '../support/hooks-fixtures.ts';
import {
  errorReply,
  NO_CHANGE,
  startScriptedHook,
  type HookScript,
  type ScriptedHook,
} from '../support/hooks-server.ts';

const API = 'relay.example.com/v1';

let cluster: TestCluster;
let hook: ScriptedHook;
const behaviour = new Map<string, HookScript>();

beforeAll(async () => {
  cluster = await startTestCluster();
  hook = await startScriptedHook((request) =>
    (behaviour.get(request.body.object.metadata.name ?? '') ?? NO_CHANGE)(request),
  );
  await cluster.apply(crdFor({ group: 'relay.example.com', kind: 'Relay', plural: 'relays' }));
  await cluster.apply({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'ops' } });
  await cluster.apply(
    hookedRegistration('relay', 'relays.relay.example.com', {
      hook: { address: { uri: hook.url }, capabilities: ['pre-reconcile'] },
    }),
  );
  await registrationReady(cluster, 'relay');
});
afterAll(async () => {
  await cluster.stop();
  await hook.close();
});
// Each test's instance is removed so that no retry of one test counts in the next one's metrics.
afterEach(async () => {
  for (const relay of await cluster.list(API, 'Relay', 'ops')) await cluster.remove(relay);
  await cluster.waitFor('no relays left', async () => (await cluster.list(API, 'Relay', 'ops')).length === 0);
  behaviour.clear();
});

const createRelay = (name: string) =>
  cluster.apply({
    apiVersion: API,
    kind: 'Relay',
    metadata: { name, namespace: 'ops' },
    spec: { target: 'queue' },
  });

const relay = (
  name: string,
  description: string,
  probe: (object: KubeObject) => boolean,
  timeoutMs?: number,
) => instanceWhere(cluster, API, 'Relay', 'ops', name, description, probe, timeoutMs);

const readyIs = (status: string, reason?: string) => (object: KubeObject) => {
  const ready = conditionOf(object, 'Ready');
  return ready?.status === status && (reason === undefined || ready.reason === reason);
};

const relayTarget = (name: string) => ({ apiVersion: API, kind: 'Relay', namespace: 'ops', name });

async function relabel(name: string, labels: Record<string, string>): Promise<void> {
  await mergePatch(cluster, relayTarget(name), { metadata: { labels } });
}

async function hookFailedEvents(name: string) {
  return (await eventsOf(cluster, 'ops', name)).filter((event) => event.reason === 'HookFailed');
}

const failedReady = (message: string) => [
  { type: 'DeploymentReady', status: 'Unknown', reason: 'UNKNOWN', message: '' },
  { type: 'Ready', status: 'False', reason: 'HookFailed', message },
  { type: 'Reconciling', status: 'True', reason: 'HookFailed', message },
  { type: 'ServiceReady', status: 'Unknown', reason: 'UNKNOWN', message: '' },
];

describe('continue: true (§6.2 rule 1)', () => {
  it('reports a Warning Event and reconciles as if the hook had said nothing; Ready is not affected', async () => {
    behaviour.set('tolerant', () => errorReply(500, { message: 'metrics backend down', continue: true }));
    const failuresBefore = await hookFailures(cluster.controller, 'relay');
    await createRelay('tolerant');
    const ready = await relay('tolerant', 'Ready=True', readyIs('True'));
    expect(conditionsOf(ready)).toEqual([
      { type: 'DeploymentReady', status: 'True', reason: 'MinimumReplicasAvailable', message: '' },
      { type: 'Ready', status: 'True', reason: 'CONDITIONSOK', message: '' },
      { type: 'ServiceReady', status: 'True', reason: 'ServiceExist', message: '' },
    ]);
    expect(await cluster.get('apps/v1', 'Deployment', 'ops', 'relay-tolerant')).toBeDefined();
    expect(await hookFailedEvents('tolerant')).toEqual([
      {
        type: 'Warning',
        reason: 'HookFailed',
        message: 'pre-reconcile hook: HTTP 500: metrics backend down',
      },
    ]);
    const calls = hook.callsFor('pre-reconcile', 'tolerant').length;
    expect(await hookFailures(cluster.controller, 'relay')).toBe(failuresBefore + calls);
  });
});

describe('permanent: true (§6.2 rule 2, §6.3 parking)', () => {
  it('stops with Ready=False/HookFailed, calls no more on status or child changes, and resumes on a label edit', async () => {
    await createRelay('strict');
    await relay('strict', 'Ready=True', readyIs('True'));
    const failuresBefore = await hookFailures(cluster.controller, 'relay');
    const callsBefore = hook.callsFor('pre-reconcile', 'strict').length;
    const message = 'pre-reconcile hook: HTTP 422: spec.smtp.host must be a fully qualified name';
    behaviour.set('strict', () =>
      errorReply(422, { message: 'spec.smtp.host must be a fully qualified name', permanent: true }),
    );
    await relabel('strict', { attempt: '1' });
    // A reconcile may still have seen the instance before the relabel: wait for the call that saw it.
    await cluster.waitFor('the relabelled instance refused', async () =>
      hook
        .callsFor('pre-reconcile', 'strict')
        .some((call) => call.body.object.metadata.labels?.attempt === '1'),
    );
    const parked = await relay('strict', 'Ready=False/HookFailed', readyIs('False', 'HookFailed'));
    expect(conditionsOf(parked)).toEqual([
      { type: 'DeploymentReady', status: 'True', reason: 'MinimumReplicasAvailable', message: '' },
      { type: 'Ready', status: 'False', reason: 'HookFailed', message },
      { type: 'ServiceReady', status: 'True', reason: 'ServiceExist', message: '' },
      { type: 'Stalled', status: 'True', reason: 'HookFailed', message },
    ]);
    const calls = hook.callsFor('pre-reconcile', 'strict').length;

    // Status and child changes trigger reconciles; a parked instance ignores them.
    await mergePatch(
      cluster,
      relayTarget('strict'),
      { status: { note: 'edited by someone else' } },
      'status',
    );
    const deployment = { apiVersion: 'apps/v1', kind: 'Deployment', namespace: 'ops', name: 'relay-strict' };
    await mergePatch(cluster, deployment, { metadata: { annotations: { poked: 'yes' } } });
    await sleep(500);
    expect(hook.callsFor('pre-reconcile', 'strict')).toHaveLength(calls);
    expect(await hookFailures(cluster.controller, 'relay')).toBe(failuresBefore + calls - callsBefore);
    expect(await hookFailedEvents('strict')).toEqual([{ type: 'Warning', reason: 'HookFailed', message }]);

    behaviour.delete('strict');
    await relabel('strict', { attempt: '2' });
    await relay('strict', 'Ready=True again', readyIs('True'));
    expect(hook.callsFor('pre-reconcile', 'strict').length).toBeGreaterThan(calls);
  });
});

describe('transient errors (§6.2 rule 3, §6.4)', () => {
  it('retries with growing delays while failing, then recovers by itself', async () => {
    const message = 'pre-reconcile hook: HTTP 500: quota service warming up';
    behaviour.set('flaky', () => errorReply(500, { message: 'quota service warming up' }));
    const failuresBefore = await hookFailures(cluster.controller, 'relay');
    await createRelay('flaky');
    const failed = await relay('flaky', 'Ready=False/HookFailed', readyIs('False', 'HookFailed'));
    expect(conditionsOf(failed)).toEqual(failedReady(message));
    await sleep(1500);
    // 5 ms doubling: about ten attempts in 1.5 s, not hundreds.
    const failing = hook.callsFor('pre-reconcile', 'flaky');
    expect(failing.length).toBeGreaterThanOrEqual(5);
    expect(failing.length).toBeLessThanOrEqual(14);
    const gaps = failing.slice(1).map((call, index) => call.at - failing[index]!.at);
    expect(gaps.at(-1)).toBeGreaterThanOrEqual(100);
    // The last call the hook answered may still be on its way back to the controller, which counts it
    // when the answer arrives: every call is a failure once the two agree.
    await cluster.waitFor('every hook call counted as a failure', async () => {
      const calls = hook.callsFor('pre-reconcile', 'flaky').length;
      return (await hookFailures(cluster.controller, 'relay')) === failuresBefore + calls || undefined;
    });
    expect(await hookFailedEvents('flaky')).toEqual([{ type: 'Warning', reason: 'HookFailed', message }]);
    expect(await cluster.get('apps/v1', 'Deployment', 'ops', 'relay-flaky')).toBeUndefined();

    behaviour.delete('flaky');
    await relay('flaky', 'Ready=True after recovery', readyIs('True'), 15_000);
    expect(await cluster.get('apps/v1', 'Deployment', 'ops', 'relay-flaky')).toBeDefined();
  });

  it.each([
    { status: 429, body: { message: 'slow down' }, message: 'pre-reconcile hook: HTTP 429: slow down' },
    {
      status: 503,
      body: { message: 'quota service unreachable', permanent: true },
      message: 'pre-reconcile hook: HTTP 503: quota service unreachable',
    },
  ])('honours Retry-After on a $status (never parked), then succeeds', async ({ status, body, message }) => {
    const name = `busy-${status}`;
    let answered = 0;
    behaviour.set(name, () =>
      answered++ < 2 ? errorReply(status, body, { 'Retry-After': '1' }) : { status: 204 },
    );
    await createRelay(name);
    const failed = await relay(name, 'Ready=False/HookFailed', readyIs('False', 'HookFailed'));
    expect(conditionsOf(failed)).toEqual(failedReady(message));
    await relay(name, 'Ready=True', readyIs('True'), 15_000);
    const calls = hook.callsFor('pre-reconcile', name);
    expect(calls.length).toBeGreaterThanOrEqual(3);
    // Each attempt after a Retry-After answer waits the full second, whatever triggered reconciles meanwhile.
    expect(calls[1]!.at - calls[0]!.at).toBeGreaterThanOrEqual(990);
    expect(calls[2]!.at - calls[1]!.at).toBeGreaterThanOrEqual(990);
    expect(await hookFailedEvents(name)).toEqual([{ type: 'Warning', reason: 'HookFailed', message }]);
  });
});
