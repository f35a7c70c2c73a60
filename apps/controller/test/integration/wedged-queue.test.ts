/**
 * A registration whose reconciles never return (here: a hook that never answers, with a hook timeout
 * far longer than the reconcile deadline) is reported stalled (docs/spec/children-and-status.md
 * §9.2): named in /healthz's notes, while liveness stays healthy since the stall is the
 * registration's own; once reconciles finish again nothing is reported.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { crdFor, startTestCluster, type TestCluster } from '../support/cluster.ts';
import { hookedRegistration } from '../support/hooks-fixtures.ts';
import { NO_CHANGE, startScriptedHook, type ScriptedHook } from '../support/hooks-server.ts';
import { namespaceObject, registrationTarget, waitForCondition } from '../support/scoby.ts';

const api = 'wedged.example.com/v1';
const target = { apiVersion: api, kind: 'Pump', namespace: 'shop', name: 'p-1' };
let cluster: TestCluster;
let hook: ScriptedHook;

beforeAll(async () => {
  hook = await startScriptedHook(NO_CHANGE);
  cluster = await startTestCluster({ limits: { reconcileTimeoutMs: 300, stallAfterMs: 1500 } });
  await cluster.apply(namespaceObject('shop'));
  await cluster.apply(crdFor({ group: 'wedged.example.com', kind: 'Pump', plural: 'pumps' }));
  await cluster.apply(
    hookedRegistration('pump', 'pumps.wedged.example.com', {
      hook: { address: { uri: hook.url }, capabilities: ['pre-reconcile'], timeout: 'PT1H' },
    }),
  );
  await waitForCondition(cluster, registrationTarget('pump'), 'Ready', 'True');
});
afterAll(async () => {
  await cluster.stop();
  await hook.close();
});

describe('a wedged work queue', () => {
  it('is reported while no reconcile finishes, not as a problem of the process, and no longer once they do', async () => {
    expect(cluster.controller.healthProblems()).toEqual([]);
    expect(cluster.controller.healthNotes()).toEqual([]);
    hook.answerWith(() => 'hang');
    await cluster.apply({
      apiVersion: api,
      kind: 'Pump',
      metadata: { name: 'p-1', namespace: 'shop' },
      spec: { rate: '1' },
    });
    const notes = await cluster.waitFor('a stalled registration', async () => {
      const reported = cluster.controller.healthNotes();
      return reported.length > 0 ? reported : undefined;
    });
    expect(notes).toEqual([
      expect.stringMatching(
        /^registration pump is stalled: no reconcile finished for \d+ s \(bound 1 s\); waiting \d+, running 1$/,
      ),
    ]);
    expect(cluster.controller.healthProblems()).toEqual([]);
    // Each hanging run was abandoned at its deadline and retried, not left holding its slot.
    expect(hook.callsFor('pre-reconcile', 'p-1').length).toBeGreaterThan(1);

    hook.answerWith(NO_CHANGE);
    await waitForCondition(cluster, target, 'Ready', 'True');
    await cluster.waitFor('no longer stalled', async () => cluster.controller.healthNotes().length === 0);
    expect(cluster.controller.healthProblems()).toEqual([]);
  }, 30_000);
});
