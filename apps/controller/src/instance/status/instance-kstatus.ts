/**
 * An instance's kstatus verdict (docs/spec/children-and-status.md §8.12): Stalled when Scoby has
 * stopped trying until something changes (parked) or a child's controller has given up; Reconciling
 * when it is not Ready for any other reason.
 */
import type { Condition } from '@scoby/kube-objects';
import { conditionPart } from '../../status/conditions.ts';
import { RECONCILING, STALLED, type KstatusVerdict } from '../../status/kstatus.ts';

/**
 * Reasons of a child's condition that kstatus itself reads as Failed on the child: a Deployment past
 * its progress deadline, a Pod's container crash-looping (§8.3).
 */
const CHILD_GAVE_UP = new Set(['ProgressDeadlineExceeded', 'CrashLoopBackOff']);

export interface KstatusFailure {
  reason: string;
  message: string;
  /** Parked (docs/spec/hooks-v1.md §6.3, env.md §9): nothing is retried until something changes. */
  parked: boolean;
}

/** `conditions` are the final ones, Ready among them; `subjects` name children as §8.4 does. */
export function instanceKstatus(
  conditions: readonly Condition[],
  failure: KstatusFailure | undefined,
  subjects: Readonly<Record<string, string>> = {},
): KstatusVerdict {
  if (failure) {
    return { type: failure.parked ? STALLED : RECONCILING, reason: failure.reason, message: failure.message };
  }
  const others = conditions.filter((condition) => condition.type !== 'Ready');
  const gaveUp = others.find(
    (condition) => condition.status !== 'True' && CHILD_GAVE_UP.has(condition.reason),
  );
  if (gaveUp) {
    return { type: STALLED, reason: gaveUp.reason, message: conditionPart(gaveUp, subjects[gaveUp.type]) };
  }
  const ready = conditions.find((condition) => condition.type === 'Ready');
  if (ready?.status === 'True') return undefined;
  const message = others
    .filter((condition) => condition.status !== 'True')
    .map((condition) => conditionPart(condition, subjects[condition.type]))
    .join('; ');
  return { type: RECONCILING, reason: 'Progressing', message };
}
