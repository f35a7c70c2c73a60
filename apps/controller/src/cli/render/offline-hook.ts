/**
 * `scoby render --hooks`: the calls the instance's plan asks for while reconciling (pre-reconcile,
 * docs/spec/hooks-v1.md §3–§4), sent where the registration controller would find the hook. What the
 * answers mean is the plan's (instance/plan/after-hook.ts), as in the controller.
 */
import type { HookClient } from '@scoby/hooks-v1/client';
import type { NormalizedHook } from '@scoby/registration';
import type { HookTarget } from '../../hook-modules/hook-target.ts';
import {
  askHook,
  hookDestination,
  type PhaseAnswer,
  type PlannedHookRequest,
} from '../../instance/hook-request.ts';
import type { InstanceTarget } from '../../instance/plan/instance-target.ts';
import type { RenderFailure } from './render-failure.ts';

/** How `--hooks` reaches the registration's hook. */
export interface HookAccess {
  client: HookClient;
  /** The hook's URL as the registration controller finds it (an address without default namespace, or a module). */
  resolveHook(hook: NormalizedHook): Promise<HookTarget>;
}

export async function callHook(
  access: HookAccess,
  target: InstanceTarget,
  requests: readonly PlannedHookRequest[],
): Promise<{ ok: true; answers: PhaseAnswer[] } | { ok: false; failure: RenderFailure }> {
  const hook = target.spec.hook;
  if (requests.length === 0) return { ok: true, answers: [] };
  if (hook === undefined) throw new Error('a plan calls a hook only for a registration with one');
  const address = await access.resolveHook(hook);
  if (!address.ok) return { ok: false, failure: { reason: address.reason, message: address.message } };
  const destination = hookDestination(target.plugin, { url: address.url, timeoutMs: hook.timeoutMs });
  return { ok: true, answers: await askHook(destination, requests, (call) => access.client.call(call)) };
}
