/**
 * `scoby render --hooks`: the pre-reconcile call of an instance reconcile (docs/spec/hooks-v1.md §3–§6), made
 * and applied with the controller's own functions.
 */
import type { FormFactorPlugin } from '@scoby/formfactor';
import type { HookClient } from '@scoby/hooks-v1/client';
import type { KubeObject } from '@scoby/kube-objects';
import { FINALIZER, type NormalizedHook } from '@scoby/registration';
import type { HookTarget } from '../../hook-modules/hook-target.ts';
import { acceptHookAnswer, hookCall, hookObject, type ConditionSet } from '../../instance/hook-request.ts';
import type { Status } from '../../instance/status/instance-status.ts';
import { HOOK_FAILED_IGNORED, ignoresHookFailure } from '../../instance/hook-failure-policy.ts';
import type { RenderFailure } from './render-failure.ts';

/** What the controller would have reported as an Event. */
export interface Warning {
  reason: string;
  message: string;
}

/** How `--hooks` reaches the registration's hook. */
export interface HookAccess {
  client: HookClient;
  /** The hook's URL as the registration controller finds it (an address without default namespace, or a module). */
  resolveHook(hook: NormalizedHook): Promise<HookTarget>;
}

export interface PreReconcileState {
  plugin: FormFactorPlugin;
  instance: KubeObject;
  /** The working status: conditions initialised, statusConfiguration.add applied. */
  working: Status;
  children: Record<string, KubeObject>;
  conditionSet: ConditionSet;
  now: string;
}

export type PreReconcileOutcome =
  | {
      ok: true;
      status: Status;
      children: Record<string, KubeObject>;
      warnings: Warning[];
      /** A failure gone on without under failurePolicy Ignore: its message (HookSucceeded=False). */
      hookFailureIgnored?: string;
    }
  | { ok: false; failure: RenderFailure };

/** The instance as the hook would see it: the controller adds its finalizer before the first call. */
export function withFinalizer(instance: KubeObject): KubeObject {
  const finalizers = instance.metadata.finalizers ?? [];
  if (finalizers.includes(FINALIZER)) return instance;
  return { ...instance, metadata: { ...instance.metadata, finalizers: [...finalizers, FINALIZER] } };
}

export async function callPreReconcile(
  access: HookAccess,
  hook: NormalizedHook,
  state: PreReconcileState,
): Promise<PreReconcileOutcome> {
  const address = await access.resolveHook(hook);
  if (!address.ok) return { ok: false, failure: { reason: address.reason, message: address.message } };
  const finalize = hook.capabilities.includes('finalize');
  const target = { url: address.url, timeoutMs: hook.timeoutMs, preReconcile: true, finalize };
  const instance = finalize ? withFinalizer(state.instance) : state.instance;
  const answer = await access.client.call(
    hookCall(state.plugin, target, 'pre-reconcile', hookObject(instance, state.working), state.children),
  );
  if (answer.ok) {
    const accepted = acceptHookAnswer(answer, state.working, state.children, state.conditionSet, state.now);
    if (!accepted.ok) return { ok: false, failure: { reason: 'HookFailed', message: accepted.message } };
    const warnings = [
      ...(accepted.ignoredChanges === undefined
        ? []
        : [{ reason: 'HookObjectChangesIgnored', message: accepted.ignoredChanges }]),
      ...(accepted.repeatedConditions === undefined
        ? []
        : [{ reason: 'HookConditionRepeated', message: accepted.repeatedConditions }]),
    ];
    return { ok: true, status: accepted.status, children: accepted.children, warnings };
  }
  const unchanged = { status: state.working, children: state.children };
  if (ignoresHookFailure(hook.failurePolicy, 'pre-reconcile', answer)) {
    const warnings = [{ reason: HOOK_FAILED_IGNORED, message: answer.message }];
    return { ok: true, ...unchanged, warnings, hookFailureIgnored: answer.message };
  }
  if (!answer.continue) return { ok: false, failure: { reason: 'HookFailed', message: answer.message } };
  return { ok: true, ...unchanged, warnings: [{ reason: 'HookFailed', message: answer.message }] };
}
