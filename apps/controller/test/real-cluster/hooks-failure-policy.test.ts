/**
 * spec.hook.failurePolicy: Ignore (docs/spec/hooks-v1.md §6.6) on the real control plane, the
 * controller as Scoby's ServiceAccount under the shipped RBAC: an unreachable, timed-out or 5xx
 * pre-reconcile hook lets the instance become Ready with HookSucceeded=False, until it answers; a 4xx
 * fails as under Fail; finalize stays gated.
 */
import { afterAll, beforeAll, describe, it } from 'vitest';
import type { RunningController } from '../../src/index.ts';
import {
  failsAsToday,
  finalizeStaysGated,
  GROUP,
  ignoredUntilRecovered,
  NAMESPACE,
  PLURAL,
  registerBeacons,
  scriptedByName,
} from '../support/failure-policy-scenario.ts';
import {
  errorReply,
  startScriptedHook,
  type HookScript,
  type ScriptedHook,
} from '../support/hooks-server.ts';
import { registeredKindRole } from './support/grants.ts';
import { realClusterAdmin, startRealController } from './support/real-cluster.ts';

const admin = realClusterAdmin();
let controller: RunningController;
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
  it('goes on without a hook answering 5xx, and clears HookSucceeded once it answers', async () => {
    await ignoredUntilRecovered(
      admin,
      controller,
      scripts,
      'server-error',
      () => errorReply(500, { message: 'quota service down' }),
      'pre-reconcile hook: HTTP 500: quota service down',
    );
  });

  it('goes on without a hook that does not answer within its timeout', async () => {
    await ignoredUntilRecovered(
      admin,
      controller,
      scripts,
      'silent',
      () => 'hang',
      `pre-reconcile hook: request to ${hook.url} timed out after 1s`,
    );
  });

  it('keeps a 4xx answer meaning what it means under Fail', async () => {
    await failsAsToday(
      admin,
      scripts,
      'refused',
      () => errorReply(400, { message: 'lamp must be off' }),
      'pre-reconcile hook: HTTP 400: lamp must be off',
    );
  });

  it('keeps the finalizer while the finalize hook answers 5xx', async () => {
    await finalizeStaysGated(admin, scripts, 'archived');
  });
});
