/** Which key of spec.workload.formFactor is selected (registration.md §3.1, §4 rows 1–2). */
import type { Problem } from '@scoby/registration';
import { compareByteOrder } from '@scoby/kube-objects';
import { FORM_FACTOR_PATH, formFactorProblem, quotedList, unknownFormFactorProblem } from './problems.ts';

/** Absent, `{}` or only null values select the default, a one-replica Deployment. */
export const DEFAULT_FORM_FACTOR = 'deployment';

export type Selection = { ok: true; name: string; block: unknown } | { ok: false; problem: Problem };

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export function selectFormFactor(formFactor: unknown, available: readonly string[]): Selection {
  if (formFactor === undefined || formFactor === null) return selected(DEFAULT_FORM_FACTOR, {}, available);
  if (!isPlainObject(formFactor))
    return { ok: false, problem: formFactorProblem(FORM_FACTOR_PATH, 'must be an object') };
  const setKeys = Object.keys(formFactor)
    .filter((key) => formFactor[key] !== null && formFactor[key] !== undefined)
    .sort(compareByteOrder);
  const [name, ...others] = setKeys;
  if (name === undefined) return selected(DEFAULT_FORM_FACTOR, {}, available);
  if (others.length > 0) {
    return {
      ok: false,
      problem: formFactorProblem(
        FORM_FACTOR_PATH,
        `exactly one form factor may be set, found ${quotedList(setKeys)}`,
      ),
    };
  }
  return selected(name, formFactor[name], available);
}

function selected(name: string, block: unknown, available: readonly string[]): Selection {
  return available.includes(name)
    ? { ok: true, name, block }
    : { ok: false, problem: unknownFormFactorProblem(name, available) };
}
