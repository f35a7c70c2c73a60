/**
 * A hook phase is one row of hooks-v1's phase table (packages/hooks-v1/src/phases.ts): a throw-away
 * phase registered there falls under spec.hook.failurePolicy as its row says and is a handler an
 * in-process module may export; unregistered, neither knows it.
 */
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { registerHookPhase, type HookPhase } from '@scoby/hooks-v1/client';
import { ignoresHookFailure } from '../../src/instance/hook-failure-policy.ts';
import { loadHookModules } from '../../src/hook-modules/load.ts';

const THROW_AWAY = {
  phase: 'post-reconcile',
  capabilities: ['post-reconcile', 'after-reconcile'],
  handler: 'postReconcile',
  answersWithChanges: false,
  failurePolicyApplies: true,
};

async function loadModule(text: string) {
  const dir = await mkdtemp(join(tmpdir(), 'scoby-hook-phase-'));
  await writeFile(join(dir, 'hook.mjs'), text);
  return (await loadHookModules(['./hook.mjs'], dir)).get('./hook.mjs');
}

let unregister: (() => void) | undefined;
afterEach(() => {
  unregister?.();
  unregister = undefined;
});

describe('a hook phase registered in the phase table', () => {
  it('falls under failurePolicy as its row says', () => {
    const unreachable = {
      ok: false as const,
      message: 'hook unreachable',
      outcome: 'transport-error' as const,
      permanent: false,
      continue: false,
      transient: true,
    };
    // A phase of the spec is also a member of the wire type HookPhase (hooks-v1's types.ts).
    const phase = 'post-reconcile' as HookPhase;
    expect(ignoresHookFailure('Ignore', phase, unreachable)).toBe(false);
    unregister = registerHookPhase(THROW_AWAY);
    expect(ignoresHookFailure('Ignore', phase, unreachable)).toBe(true);
    expect(ignoresHookFailure('Fail', phase, unreachable)).toBe(false);
    unregister();
    unregister = registerHookPhase({ ...THROW_AWAY, failurePolicyApplies: false });
    expect(ignoresHookFailure('Ignore', phase, unreachable)).toBe(false);
  });

  it('is a handler an in-process hook module may export alone', async () => {
    const onlyPost = 'export default { postReconcile: () => undefined };';
    expect(await loadModule(onlyPost)).toEqual({
      ok: false,
      message: 'hook module "./hook.mjs": default export has neither preReconcile nor finalize',
    });
    unregister = registerHookPhase(THROW_AWAY);
    expect(await loadModule(onlyPost)).toMatchObject({ ok: true });
    expect(await loadModule('export default { postReconcile: 1 };')).toEqual({
      ok: false,
      message: 'hook module "./hook.mjs": default export postReconcile must be a function',
    });
  });
});
