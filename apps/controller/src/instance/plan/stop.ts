/**
 * A reconcile that stops on a failure (docs/spec/children-and-status.md §8.5): a Warning Event of its
 * reason, Ready=False with it in the status, and what happens to the instance next. The plan decides
 * all three; the controller carries them out and `scoby render` reports the failure.
 */
import type { KubeObject } from '@scoby/kube-objects';
import type { StatusFeatures } from '../../crd/inspect.ts';
import type { FailureReason, Status } from '../status/instance-status.ts';
import { desiredStatus } from '../status/desired-status.ts';

export interface Failure {
  reason: FailureReason;
  message: string;
}

/**
 * Parked until something that un-parks it changes (docs/spec/hooks-v1.md §6.3); retried with
 * backoff; or retried after the delay a hook's Retry-After asked for (§6.4).
 */
export type StopNext = { kind: 'park' } | { kind: 'retry' } | { kind: 'retry-after'; delayMs: number };

export interface Stop {
  failure: Failure;
  next: StopNext;
  /** The status recording the failure, completed at `now`; null without a status subresource. */
  statusAt(now: string): Status | null;
}

/** The status a failed reconcile stores (§8.5): Ready=False with the failure; null without a status subresource. */
export function failedStatus(
  instance: KubeObject,
  working: Status,
  failure: Failure,
  next: StopNext,
  features: StatusFeatures,
  now: string,
): Status | null {
  if (!features.subresource) return null;
  return desiredStatus(working, {
    failure: { ...failure, parked: next.kind === 'park' },
    generation: instance.metadata.generation,
    features,
    stored: instance.status,
    now,
  });
}

/** A stop whose status is the working status of that moment with `failure` recorded. */
export function stopWith(
  instance: KubeObject,
  working: Status,
  features: StatusFeatures,
  failure: Failure,
  next: StopNext,
): Stop {
  return { failure, next, statusAt: (now) => failedStatus(instance, working, failure, next, features, now) };
}
