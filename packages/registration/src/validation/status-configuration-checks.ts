/** Row 11 of docs/spec/registration.md §4: the rules of §3.3. */
import { parsePath } from '../paths.ts';
import type { CRDRegistrationSpec } from '../types.ts';
import type { Problem } from './problem.ts';
import { problem, quote, STATUS_CONFIGURATION, ValidationReason } from './problem.ts';

/** Status fields Scoby writes itself; statusConfiguration.add may not target them or anything below. */
const MANAGED_STATUS_FIELDS = ['conditions', 'observedGeneration'];
const READY = 'Ready';
/** kstatus's conditions, written by Scoby while they hold (children-and-status.md §8.12). */
export const KSTATUS_CONDITIONS: readonly string[] = ['Reconciling', 'Stalled'];
/** The condition of a pre-reconcile failure ignored under failurePolicy Ignore (hooks-v1.md §6.6). */
export const HOOK_SUCCEEDED = 'HookSucceeded';
export const CONDITION_TYPE_PATTERN = /^[A-Za-z]([A-Za-z0-9_.-]*[A-Za-z0-9])?$/;

const reason = ValidationReason.InvalidStatusConfiguration;

/**
 * `formFactor` is the selected form factor with its condition types, or undefined when rows 1–2 left
 * the selection undetermined (those rows already report the registration as invalid).
 */
export function statusConfigurationProblems(
  spec: CRDRegistrationSpec,
  formFactor: { name: string; conditionTypes: string[] } | undefined,
): Problem[] {
  const configuration = spec.workload.statusConfiguration;
  const problems: Problem[] = [];
  (configuration?.add ?? []).forEach((entry, i) => {
    const parsed = parsePath(entry.path, 'status');
    const managed = parsed.ok && MANAGED_STATUS_FIELDS.includes(parsed.segments[1] ?? '');
    if (managed)
      problems.push(
        problem(`${STATUS_CONFIGURATION}.add[${i}].path`, reason, `${quote(entry.path)} is managed by Scoby`),
      );
  });
  const firstIndex = new Map<string, number>();
  const ignoresHookFailures = spec.hook?.failurePolicy === 'Ignore';
  (configuration?.conditionsFromHook ?? []).forEach(({ type }, i) => {
    const detail =
      ignoresHookFailures && type === HOOK_SUCCEEDED
        ? `${quote(HOOK_SUCCEEDED)} is managed by Scoby when spec.hook.failurePolicy is Ignore`
        : conditionTypeProblem(type, formFactor, firstIndex.get(type));
    if (!firstIndex.has(type)) firstIndex.set(type, i);
    if (detail !== undefined)
      problems.push(problem(`${STATUS_CONFIGURATION}.conditionsFromHook[${i}].type`, reason, detail));
  });
  return problems;
}

function conditionTypeProblem(
  type: string,
  formFactor: { name: string; conditionTypes: string[] } | undefined,
  earlierIndex: number | undefined,
): string | undefined {
  if (!CONDITION_TYPE_PATTERN.test(type)) {
    return `invalid condition type ${quote(type)}: must match ${CONDITION_TYPE_PATTERN.source}`;
  }
  if (type === READY || KSTATUS_CONDITIONS.includes(type)) return `${quote(type)} is managed by Scoby`;
  if (formFactor?.conditionTypes.includes(type)) {
    return `${quote(type)} is reported by form factor ${quote(formFactor.name)}`;
  }
  if (earlierIndex !== undefined)
    return `duplicate condition type ${quote(type)} (also at index ${earlierIndex})`;
  return undefined;
}
