/**
 * A reconcile abandoned at its deadline has its signal fired, and that signal stops its writes: a
 * pre-reconcile hook that answers after the deadline (its own timeout is far longer) lets no child
 * or status write of the abandoned reconcile reach the API server. Once the hook answers in time,
 * the instance's children and status are written as usual.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { crdFor, startTestCluster, type TestCluster } from '../support/cluster.ts';
import { hookedRegistration } from '../support/hooks-fixtures.ts';
import { NO_CHANGE, startScriptedHook, type ScriptedHook } from '../support/hooks-server.ts';
import { namespaceObject, registrationTarget, waitForCondition } from '../support/scoby.ts';

const api = 'aborts.example.com/v1';
/** Long enough past the deadline that a reconcile still running would write well within the test. */
const ANSWER_AFTER_MS = 2_000;
let cluster: TestCluster;
let hook: ScriptedHook;

beforeAll(async () => {
  hook = await startScriptedHook(NO_CHANGE);
  cluster = await startTestCluster({ limits: { reconcileTimeoutMs: 1_000 } });
  await cluster.apply(namespaceObject('shop'));
  await cluster.apply(crdFor({ group: 'aborts.example.com', kind: 'Pump', plural: 'pumps' }));
  await cluster.apply(
    hookedRegistration('pump', 'pumps.aborts.example.com', {
      hook: { address: { uri: hook.url }, capabilities: ['pre-reconcile'], timeout: 'PT1H' },
    }),
  );
  await waitForCondition(cluster, registrationTarget('pump'), 'Ready', 'True');
});
afterAll(async () => {
  await cluster.stop();
  await hook.close();
});

/** Writes that concern the instance `late`: its status, its children (named after it), its Events. */
function writesForLate(): string[] {
  return cluster.server.requestLog
    .entries()
    .filter((entry) => entry.method !== 'GET' && /\/namespaces\/shop\//.test(entry.path))
    .filter(
      (entry) =>
        /pumps\/late|pump-late|\/events/.test(entry.path) ||
        JSON.stringify(entry.body ?? '').includes('pump-late'),
    )
    .map((entry) => `${entry.method} ${entry.path}`);
}

describe('a reconcile abandoned at its deadline', () => {
  it('sends no child or status write when its hook answers after the deadline', async () => {
    let answered = 0;
    hook.answerWith(async () => {
      await new Promise((resolve) => setTimeout(resolve, ANSWER_AFTER_MS));
      answered++;
      return { status: 204 };
    });
    cluster.server.requestLog.clear();
    await cluster.apply({
      apiVersion: api,
      kind: 'Pump',
      metadata: { name: 'late', namespace: 'shop' },
      spec: { rate: '1' },
    });
    // Two late answers: each came to a reconcile that had been abandoned (and its signal fired).
    await cluster.waitFor('two late hook answers', async () => answered >= 2, 20_000);
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(hook.callsFor('pre-reconcile', 'late').length).toBeGreaterThanOrEqual(2);
    expect(writesForLate()).toEqual([]);

    hook.answerWith(NO_CHANGE);
    const written = [
      'POST /apis/apps/v1/namespaces/shop/deployments',
      'PATCH /apis/aborts.example.com/v1/namespaces/shop/pumps/late/status',
    ];
    await cluster.waitFor(
      'the children and status written',
      async () => written.every((write) => writesForLate().includes(write)),
      20_000,
    );
  }, 30_000);
});
