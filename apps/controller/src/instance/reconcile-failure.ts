/**
 * How a failed instance reconcile ends (docs/spec/children-and-status.md §1 step 12, §8.5): the
 * runtime's result carries an InstanceReconcileError, `{ error }` to retry (after the hook's
 * Retry-After when it gave one), `{ terminal }` when the instance was parked until its spec or the
 * registration changes (docs/spec/hooks-v1.md §6.3).
 */
import type { ReconcileResult } from '@scoby/controller-runtime';
import type { FailureReason } from './status/instance-status.ts';

/** Why a reconcile failed, as its status and Events say. */
export interface ReconcileFailure {
  reason: FailureReason;
  message: string;
  /** The status write that failed too: the failure could not be recorded in the instance's status. */
  statusWriteError?: string;
}

export class InstanceReconcileError extends Error {
  readonly failure: ReconcileFailure;

  constructor(failure: ReconcileFailure) {
    super(failure.message);
    this.name = 'InstanceReconcileError';
    this.failure = failure;
  }
}

export function retry(failure: ReconcileFailure, retryAfterMs?: number): ReconcileResult {
  const error = new InstanceReconcileError(failure);
  return retryAfterMs === undefined ? { error } : { error, retryAfterMs };
}

export function parked(failure: ReconcileFailure): ReconcileResult {
  return { terminal: new InstanceReconcileError(failure) };
}
