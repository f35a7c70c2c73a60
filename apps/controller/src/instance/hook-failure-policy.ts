/**
 * spec.hook.failurePolicy (docs/spec/hooks-v1.md §6.6): which failed pre-reconcile calls a reconcile
 * goes on without, and the condition that says so, kept out of Ready's aggregation.
 */
import { hookPhase, type HookCall, type HookFailure } from '@scoby/hooks-v1/client';
import type { Condition } from '@scoby/kube-objects';
import { HOOK_SUCCEEDED, type FailurePolicy } from '@scoby/registration';

export const HOOK_FAILED_IGNORED = 'HookFailedIgnored';

/**
 * Under Ignore, a pre-reconcile call that reached no answer (unreachable, timed out, cut off for size)
 * or got a 5xx. A hook that answered otherwise said something about the instance (a 4xx, a malformed
 * 2xx), which keeps its meaning; an answer with `continue: true` goes on anyway (§6.2). A phase the
 * policy does not apply to (finalize, hooks-v1's phases.ts) is gated whatever the policy.
 */
export function ignoresHookFailure(
  policy: FailurePolicy | undefined,
  phase: HookCall['phase'],
  failure: HookFailure,
): boolean {
  if (policy !== 'Ignore' || hookPhase(phase)?.failurePolicyApplies !== true || failure.continue)
    return false;
  return failure.status === undefined || failure.status >= 500;
}

/** The condition an ignored failure adds after Ready was computed (its time is settled later). */
export function hookFailureIgnoredCondition(message: string): Condition {
  return {
    type: HOOK_SUCCEEDED,
    status: 'False',
    reason: HOOK_FAILED_IGNORED,
    message,
    lastTransitionTime: '',
  };
}
