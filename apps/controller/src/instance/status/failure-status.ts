/**
 * The status that still records a failed reconcile when the status Scoby computed cannot be written
 * (too large, refused by the API server) or was never computed (an unexpected error): Ready=False
 * with the failure, observedGeneration of the current spec (§8.5, §8.8), every other condition as
 * stored. Built from the stored conditions alone, so whatever made the full status fail is not in it.
 */
import type { StatusFeatures } from '../../crd/inspect.ts';
import { initializeConditions } from '../../status/conditions.ts';
import { completeStatus, type FailureReason, type Status } from './instance-status.ts';

export interface FailureStatusInput {
  stored: unknown;
  failure: { reason: FailureReason; message: string };
  generation: number | undefined;
  conditionTypes: readonly string[];
  features: StatusFeatures;
  now: string;
}

/**
 * The fields to write over the stored status (the runtime's writeStatus with `partial`): conditions
 * and observedGeneration only; undefined when there is nothing to record.
 */
export function failureStatus(input: FailureStatusInput): Status | undefined {
  const storedConditions =
    typeof input.stored === 'object' && input.stored !== null && !Array.isArray(input.stored)
      ? (input.stored as Status).conditions
      : undefined;
  const status = completeStatus(
    { conditions: initializeConditions(storedConditions, input.conditionTypes, input.now) },
    {
      // Recorded this way the reconcile is retried, whatever stopped it: Reconciling, not Stalled.
      failure: { ...input.failure, parked: false },
      generation: input.generation,
      features: input.features,
      stored: { conditions: storedConditions },
      now: input.now,
    },
  );
  return Object.keys(status).length > 0 ? status : undefined;
}
