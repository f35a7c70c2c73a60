/**
 * kstatus's two conditions (docs/spec/children-and-status.md §8.12, docs/spec/registration.md §5.6):
 * health tools built on sigs.k8s.io/cli-utils read a custom resource by `Reconciling` and `Stalled`
 * being True, never by `Ready`, and read an absent condition as False, so at most one of them is
 * written, and only while it holds.
 */
import type { Condition } from '@scoby/kube-objects';
import type { ConditionValue } from './conditions.ts';

export const RECONCILING = 'Reconciling';
export const STALLED = 'Stalled';

/** The one kstatus condition that holds, or none: the object reads as Current once it is Ready. */
export type KstatusVerdict =
  { type: typeof RECONCILING | typeof STALLED; reason: string; message: string } | undefined;

/** The verdict as a condition to store beside the others (its time is settled with them). */
export function kstatusConditions(verdict: KstatusVerdict): Condition[] {
  if (verdict === undefined) return [];
  return [
    {
      type: verdict.type,
      status: 'True',
      reason: verdict.reason,
      message: verdict.message,
      lastTransitionTime: '',
    },
  ];
}

/** The verdict as computed values keyed by type, for setConditionValues. */
export function kstatusValues(verdict: KstatusVerdict): Record<string, ConditionValue> {
  if (verdict === undefined) return {};
  return { [verdict.type]: { status: 'True', reason: verdict.reason, message: verdict.message } };
}

/** A verdict repeating a condition's reason and message. */
export function verdictFrom(
  type: typeof RECONCILING | typeof STALLED,
  value: ConditionValue,
): KstatusVerdict {
  return { type, reason: value.reason, message: value.message };
}
