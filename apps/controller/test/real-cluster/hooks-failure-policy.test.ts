/**
 * spec.hook.failurePolicy: Ignore (docs/spec/hooks-v1.md §6.6) on the real control plane, the
 * controller as Scoby's ServiceAccount under the shipped RBAC: an unreachable, timed-out or 5xx
 * pre-reconcile hook lets the instance become Ready with HookSucceeded=False, until it answers; a 4xx
 * and a malformed answer fail as under Fail; finalize stays gated.
 */
import { afterAll, beforeAll, describe, it } from 'vitest';
import type { RunningProcess } from '../../src/index.ts';
import {
  FAILING_AS_TODAY,
  failsAsToday,
  finalizeStaysGated,
  GROUP,
  IGNORED,
  ignoredUntilRecovered,
  NAMESPACE,
  PLURAL,
  registerBeacons,
  scriptedByName,
} from '../support/failure-policy-scenario.ts';
import { startScriptedHook, type HookScript, type ScriptedHook } from '../support/hooks-server.ts';
import { registeredKindRole } from './support/grants.ts';
import { realClusterAdmin, startRealController } from './support/real-cluster.ts';

const admin = realClusterAdmin();
let controller: RunningProcess;
let hook: ScriptedHook;
const scripts = new Map<string, HookScript>();

beforeAll(async () => {
  hook = await startScriptedHook(scriptedByName(scripts));
  await admin.apply(registeredKindRole(GROUP, PLURAL));
  controller = startRealController({ workingNamespaces: [NAMESPACE] });
  await registerBeacons(admin, hook);
});
afterAll(async () => {
  await controller?.stop();
  await hook?.close();
  await admin.stop();
});

describe('failurePolicy: Ignore on the real control plane', () => {
  it.each(IGNORED)(
    'goes on without the $name hook, says so beside Ready, and clears once it answers',
    async (failure) => {
      await ignoredUntilRecovered(
        admin,
        controller,
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
      admin,
      scripts,
      failure.name,
      failure.failing,
      failure.message(hook.url),
      failure.kstatus,
    );
  });

  it('keeps the finalizer while the finalize hook answers 5xx', async () => {
    await finalizeStaysGated(admin, scripts, 'archived');
  });
});
