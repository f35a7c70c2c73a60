/**
 * The second stage of an instance's plan (docs/spec/children-and-status.md §1 step 8 onwards): the
 * pre-reconcile answer applied under spec.hook.failurePolicy (docs/spec/hooks-v1.md §5–§6), giving
 * either the stop it calls for or the desired state, with the Warning Events on the way.
 */
import type { HookFailure } from '@scoby/hooks-v1/client';
import { acceptHookAnswer, type PhaseAnswer } from '../hook-request.ts';
import { withHookConditionsFailed } from '../status/instance-status.ts';
import { HOOK_FAILED_IGNORED, ignoresHookFailure } from '../hook-failure-policy.ts';
import type { PreparedPlan } from './before-hook.ts';
import { desiredState, type DesiredState } from './desired-state.ts';
import { stopWith, type Stop, type StopNext } from './stop.ts';
import { joinWarnings, judgedWarnings, NO_WARNINGS, type StageWarnings } from './warnings.ts';

/**
 * When the hook is called again after a failure the reconcile went on without (§6.6): after its
 * Retry-After, else with backoff; after a `permanent` answer only on the next trigger.
 */
export type HookRecall = { kind: 'after'; delayMs: number } | { kind: 'backoff' } | { kind: 'next-trigger' };

export interface IgnoredHookFailure {
  message: string;
  recall: HookRecall;
}

export type AfterHook =
  | { kind: 'stop'; stop: Stop; warnings: StageWarnings }
  | {
      kind: 'desired';
      desired: DesiredState;
      warnings: StageWarnings;
      /** A pre-reconcile failure failurePolicy Ignore let the reconcile go on without. */
      hookFailureIgnored?: IgnoredHookFailure;
    };

/** `answers` are those of the plan's hook requests (before-hook.ts); none when no call was made. */
export function planAfterHook(prepared: PreparedPlan, answers: readonly PhaseAnswer[]): AfterHook {
  const answer = answers.find(({ phase }) => phase === 'pre-reconcile')?.result;
  if (answer === undefined) return desired(prepared, prepared, NO_WARNINGS);
  const { target, instance, working, children, now } = prepared;
  if (answer.ok) {
    const accepted = acceptHookAnswer(answer, working, children, target, now);
    if (!accepted.ok) {
      // An answer Scoby cannot take counts as a malformed answer: transient (docs/spec/hooks-v1.md §6.4).
      const failure = { reason: 'HookFailed' as const, message: accepted.message };
      const failed = withHookConditionsFailed(working, target.hookConditionTypes, accepted.message);
      const stop = stopWith(instance, failed, target.features, failure, { kind: 'retry' });
      return { kind: 'stop', stop, warnings: NO_WARNINGS };
    }
    const warnings = joinWarnings(
      judgedWarnings('HookObjectChangesIgnored', [accepted.ignoredChanges]),
      judgedWarnings('HookConditionRepeated', [accepted.repeatedConditions]),
      judgedWarnings(HOOK_FAILED_IGNORED, []),
    );
    return desired(prepared, { working: accepted.status, children: accepted.children }, warnings);
  }
  if (ignoresHookFailure(target.spec.hook?.failurePolicy, 'pre-reconcile', answer)) {
    const warnings = judgedWarnings(HOOK_FAILED_IGNORED, [answer.message]);
    const failed = withHookConditionsFailed(working, target.hookConditionTypes, answer.message);
    return desired(prepared, { working: failed, children }, warnings, {
      message: answer.message,
      recall: recallAfter(answer),
    });
  }
  // continue: true goes on as if the hook had answered 2xx with an empty body (§6.2), its Event
  // sent each time.
  if (answer.continue) {
    const hookFailed = { warnings: [{ reason: 'HookFailed', message: answer.message }], judged: [] };
    return desired(prepared, prepared, joinWarnings(hookFailed, judgedWarnings(HOOK_FAILED_IGNORED, [])));
  }
  const failure = { reason: 'HookFailed' as const, message: answer.message };
  const failed = withHookConditionsFailed(working, target.hookConditionTypes, answer.message);
  return {
    kind: 'stop',
    stop: stopWith(instance, failed, target.features, failure, stopNext(answer)),
    warnings: NO_WARNINGS,
  };
}

function desired(
  prepared: PreparedPlan,
  state: Pick<PreparedPlan, 'working' | 'children'>,
  warnings: StageWarnings,
  hookFailureIgnored?: IgnoredHookFailure,
): AfterHook {
  return {
    kind: 'desired',
    desired: desiredState({
      instance: prepared.instance,
      identity: prepared.identity,
      target: prepared.target,
      working: state.working,
      children: state.children,
      ...(hookFailureIgnored === undefined ? {} : { hookFailureIgnored: hookFailureIgnored.message }),
    }),
    warnings,
    ...(hookFailureIgnored === undefined ? {} : { hookFailureIgnored }),
  };
}

/** A hook failure that stops the reconcile (§6.2–§6.4): parked, retried after its Retry-After, or with backoff. */
export function stopNext(answer: HookFailure): StopNext {
  if (answer.permanent) return { kind: 'park' };
  if (answer.retryAfterMs !== undefined) return { kind: 'retry-after', delayMs: answer.retryAfterMs };
  return { kind: 'retry' };
}

function recallAfter(answer: HookFailure): HookRecall {
  if (answer.permanent) return { kind: 'next-trigger' };
  if (answer.retryAfterMs !== undefined) return { kind: 'after', delayMs: answer.retryAfterMs };
  return { kind: 'backoff' };
}
