/**
 * `scoby render --hooks`: the pre-reconcile call the instance's plan asks for (docs/spec/hooks-v1.md
 * §3–§4), sent where the registration controller would find the hook. What the answer means is the
 * plan's (instance/plan/after-hook.ts), as in the controller.
 */
import type { HookClient, HookResult } from '@scoby/hooks-v1/client';
import type { NormalizedHook } from '@scoby/registration';
import type { HookTarget } from '../../hook-modules/hook-target.ts';
import { hookCall, hookDestination } from '../../instance/hook-request.ts';
import type { PreReconcileRequest } from '../../instance/plan/before-hook.ts';
import type { InstanceTarget } from '../../instance/plan/instance-target.ts';
import type { RenderFailure } from './render-failure.ts';

/** How `--hooks` reaches the registration's hook. */
export interface HookAccess {
  client: HookClient;
  /** The hook's URL as the registration controller finds it (an address without default namespace, or a module). */
  resolveHook(hook: NormalizedHook): Promise<HookTarget>;
}

export async function callPreReconcile(
  access: HookAccess,
  target: InstanceTarget,
  request: PreReconcileRequest,
): Promise<{ ok: true; answer: HookResult } | { ok: false; failure: RenderFailure }> {
  const hook = target.spec.hook;
  if (hook === undefined) throw new Error('a plan calls pre-reconcile only for a registration with a hook');
  const address = await access.resolveHook(hook);
  if (!address.ok) return { ok: false, failure: { reason: address.reason, message: address.message } };
  const destination = hookDestination(target.plugin, { url: address.url, timeoutMs: hook.timeoutMs });
  const answer = await access.client.call(
    hookCall(destination, request.phase, request.object, request.children),
  );
  return { ok: true, answer };
}
