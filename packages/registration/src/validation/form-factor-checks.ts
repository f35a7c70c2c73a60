/**
 * Rows 1–3 of docs/spec/registration.md §4: the form-factor selection and its block, through the catalog. The
 * form-factor registry resolves a registration with the same selection, so both report alike.
 */
import { compareByteOrder } from '@scoby/kube-objects';
import type { FormFactorCatalog } from '../types.ts';
import type { Problem } from './problem.ts';
import { FORM_FACTOR_PATH, isSet, problem, quote, quoteList, ValidationReason } from './problem.ts';

/** The form factor used when `formFactor` is absent or `{}` (docs/spec/registration.md §3.1). */
export const DEFAULT_FORM_FACTOR = 'deployment';

export type FormFactorSelection =
  { ok: true; name: string; block: unknown } | { ok: false; problems: Problem[] };

/** A problem under `spec.workload.formFactor`, reason InvalidFormFactor. */
export function formFactorProblem(path: string, detail: string): Problem {
  return problem(path, ValidationReason.InvalidFormFactor, detail);
}

/** Row 2: `name` is not among the `available` form factors (built-ins first, then plugins). */
export function unknownFormFactorProblem(name: string, available: readonly string[]): Problem {
  return formFactorProblem(
    FORM_FACTOR_PATH,
    `unknown form factor ${quote(name)} (available: ${quoteList(available)})`,
  );
}

/**
 * Rows 1–2: the one key of `formFactor` carrying a non-null value, or the default when there is none
 * (its block is then `{}`). Problems come in table order, unknown keys in document order.
 */
export function selectFormFactor(
  formFactor: Readonly<Record<string, unknown>> | undefined,
  available: readonly string[],
): FormFactorSelection {
  const keys = Object.keys(formFactor ?? {}).filter((key) => isSet(formFactor?.[key]));
  const problems: Problem[] = [];
  if (keys.length > 1) {
    const found = quoteList([...keys].sort(compareByteOrder));
    problems.push(formFactorProblem(FORM_FACTOR_PATH, `exactly one form factor may be set, found ${found}`));
  }
  const [name = DEFAULT_FORM_FACTOR] = keys;
  for (const key of keys.length === 0 ? [name] : keys) {
    if (!available.includes(key)) problems.push(unknownFormFactorProblem(key, available));
  }
  if (problems.length > 0) return { ok: false, problems };
  return { ok: true, name, block: formFactor?.[name] ?? {} };
}

/** Rows 1–3: the selection's problems, else those of the selected block (row 3). */
export function formFactorProblems(selection: FormFactorSelection, catalog: FormFactorCatalog): Problem[] {
  return selection.ok ? catalog.validateBlock(selection.name, selection.block) : selection.problems;
}
