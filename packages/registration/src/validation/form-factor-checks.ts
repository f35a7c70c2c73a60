/** Rows 1–3 of registration.md §4: the form-factor selection and its block, through the catalog. */
import type { FormFactorBlock, FormFactorCatalog, Problem } from '../types.ts';
import { byteOrder, FORM_FACTOR, isSet, problem, quote, quoteList, ValidationReason } from './problem.ts';

/** The form factor used when `formFactor` is absent or `{}` (registration.md §3.1). */
export const DEFAULT_FORM_FACTOR = 'deployment';

/** Keys carrying a non-null value, in document order. */
function setKeys(block: FormFactorBlock | undefined): string[] {
  return Object.entries(block ?? {})
    .filter(([, value]) => isSet(value))
    .map(([key]) => key);
}

/** The selected form-factor name, or undefined when rows 1–2 leave it undetermined. */
export function selectedFormFactor(
  block: FormFactorBlock | undefined,
  catalog: FormFactorCatalog,
): string | undefined {
  const keys = setKeys(block);
  if (keys.length === 0) return DEFAULT_FORM_FACTOR;
  const [only] = keys;
  return keys.length === 1 && only !== undefined && catalog.names().includes(only) ? only : undefined;
}

export function formFactorProblems(
  block: FormFactorBlock | undefined,
  catalog: FormFactorCatalog,
): Problem[] {
  const keys = setKeys(block);
  const available = catalog.names();
  const problems: Problem[] = [];
  if (keys.length > 1) {
    const found = quoteList([...keys].sort(byteOrder));
    problems.push(
      problem(
        FORM_FACTOR,
        ValidationReason.InvalidFormFactor,
        `exactly one form factor may be set, found ${found}`,
      ),
    );
  }
  for (const key of keys.filter((name) => !available.includes(name))) {
    problems.push(
      problem(
        FORM_FACTOR,
        ValidationReason.InvalidFormFactor,
        `unknown form factor ${quote(key)} (available: ${quoteList(available)})`,
      ),
    );
  }
  const selected = selectedFormFactor(block, catalog);
  if (selected !== undefined && keys.length === 1)
    problems.push(...catalog.validateBlock(selected, block?.[selected]));
  return problems;
}
