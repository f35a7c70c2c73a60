/**
 * spec.hook.failurePolicy (docs/spec/hooks-v1.md §6.6) on the in-memory server: under Ignore an
 * unreachable, timed-out or 5xx pre-reconcile hook lets the instance become Ready, with
 * HookSucceeded=False beside Ready, a Warning Event and scoby_hook_failures_ignored_total, until the
 * hook answers again; a 4xx and a malformed answer fail as under Fail; finalize stays gated.
 */
import { afterAll, beforeAll, describe, it } from 'vitest';
import { startTestCluster, type TestCluster } from '../support/cluster.ts';
import {
  FAILING_AS_TODAY,
  failsAsToday,
  finalizeStaysGated,
  IGNORED,
  ignoredUntilRecovered,
  registerBeacons,
  scriptedByName,
} from '../support/failure-policy-scenario.ts';
import { startScriptedHook, type HookScript, type ScriptedHook } from '../support/hooks-server.ts';

let cluster: TestCluster;
let hook: ScriptedHook;
const scripts = new Map<string, HookScript>();

beforeAll(async () => {
  cluster = await startTestCluster();
  hook = await startScriptedHook(scriptedByName(scripts));
  await registerBeacons(cluster, hook);
});
afterAll(async () => {
  await cluster.stop();
  await hook.close();
});

describe('failurePolicy: Ignore, pre-reconcile', () => {
  it.each(IGNORED)(
    'goes on without the $name hook, says so beside Ready, and clears once it answers',
    async (failure) => {
      await ignoredUntilRecovered(
        cluster,
        cluster.controller,
        hook,
        scripts,
        failure.name,
        failure.failing,
        failure.message(hook.url),
      );
    },
  );

  it.each(FAILING_AS_TODAY)('keeps the $name answer meaning what it means under Fail', async (failure) => {
    await failsAsToday(
      cluster,
      scripts,
      failure.name,
      failure.failing,
      failure.message(hook.url),
      failure.kstatus,
    );
  });
});

describe('failurePolicy: Ignore, finalize', () => {
  it('keeps the finalizer while the finalize hook answers 5xx', async () => {
    await finalizeStaysGated(cluster, scripts, 'archived');
  });
});
