/**
 * spec.hook.failurePolicy (docs/spec/hooks-v1.md §6.6) on the in-memory server: under Ignore an
 * unreachable, timed-out or 5xx pre-reconcile hook lets the instance become Ready, with
 * HookSucceeded=False beside Ready, a Warning Event and scoby_hook_failures_ignored_total, until the
 * hook answers again; a 4xx and a malformed answer fail as under Fail; finalize stays gated.
 */
import { afterAll, beforeAll, describe, it } from 'vitest';
import { startTestCluster, type TestCluster } from '../support/cluster.ts';
import {
  failsAsToday,
  finalizeStaysGated,
  ignoredUntilRecovered,
  registerBeacons,
  scriptedByName,
} from '../support/failure-policy-scenario.ts';
import {
  errorReply,
  startScriptedHook,
  type HookScript,
  type ScriptedHook,
} from '../support/hooks-server.ts';

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
  it('goes on without a hook answering 5xx, says so beside Ready, and clears once it answers', async () => {
    await ignoredUntilRecovered(
      cluster,
      cluster.controller,
      scripts,
      'server-error',
      () => errorReply(503, { message: 'quota service down' }),
      'pre-reconcile hook: HTTP 503: quota service down',
    );
  });

  it('goes on without a hook that resets the connection', async () => {
    await ignoredUntilRecovered(
      cluster,
      cluster.controller,
      scripts,
      'unreachable',
      () => 'reset',
      `pre-reconcile hook: request to ${hook.url} failed: socket hang up`,
    );
  });

  it('goes on without a hook that does not answer within its timeout', async () => {
    await ignoredUntilRecovered(
      cluster,
      cluster.controller,
      scripts,
      'silent',
      () => 'hang',
      `pre-reconcile hook: request to ${hook.url} timed out after 1s`,
    );
  });

  it('keeps a 4xx answer meaning what it means under Fail', async () => {
    await failsAsToday(
      cluster,
      scripts,
      'refused',
      () => errorReply(422, { message: 'lamp must be off', permanent: true }),
      'pre-reconcile hook: HTTP 422: lamp must be off',
    );
  });

  it('keeps a malformed 2xx answer a failure', async () => {
    await failsAsToday(
      cluster,
      scripts,
      'garbled',
      () => ({ status: 200, body: '[1, 2]' }),
      'pre-reconcile hook: invalid response: body is not a JSON object',
    );
  });
});

describe('failurePolicy: Ignore, finalize', () => {
  it('keeps the finalizer while the finalize hook answers 5xx', async () => {
    await finalizeStaysGated(cluster, scripts, 'archived');
  });
});
