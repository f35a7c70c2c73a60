/** Lease validation (pkg/apis/coordination/validation): a positive duration, no negative transitions. */
import type { KubeObject } from '@scoby/kube-objects';
import { isJsonObject, type Cause } from '@scoby/structural-schema';
import { invalidValue } from './field-errors.ts';

export function validateLease(object: KubeObject): Cause[] {
  const spec = isJsonObject(object.spec) ? object.spec : {};
  const causes: Cause[] = [];
  const duration = spec.leaseDurationSeconds;
  if (typeof duration === 'number' && duration <= 0)
    causes.push(invalidValue('spec.leaseDurationSeconds', duration, 'must be greater than 0'));
  const transitions = spec.leaseTransitions;
  if (typeof transitions === 'number' && transitions < 0)
    causes.push(invalidValue('spec.leaseTransitions', transitions, 'must be greater than or equal to 0'));
  return causes;
}
