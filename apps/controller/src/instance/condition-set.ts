/**
 * The instance condition set (docs/spec/children-and-status.md §8.1): the form factor's types, the
 * conditionsFromHook types when the hook has pre-reconcile (docs/spec/registration.md §3.3), and Ready.
 */
import type { NormalizedRegistrationSpec } from '@scoby/registration';
import { callsHookAt } from './declared-phases.ts';
import type { ConditionSet } from './hook-request.ts';

export function instanceConditionSet(
  formFactorConditionTypes: readonly string[],
  spec: NormalizedRegistrationSpec,
): ConditionSet {
  const hookConditionTypes = callsHookAt(spec.hook, 'reconcile')
    ? [...spec.statusConfiguration.conditionsFromHook]
    : [];
  return {
    conditionTypes: [...new Set([...formFactorConditionTypes, ...hookConditionTypes, 'Ready'])],
    hookConditionTypes,
  };
}
