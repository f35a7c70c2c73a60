import type { Problem } from '@scoby/registration';

export const FORM_FACTOR_PATH = 'spec.workload.formFactor';
export const INVALID_FORM_FACTOR = 'InvalidFormFactor';

export function formFactorProblem(path: string, detail: string): Problem {
  return { path, reason: INVALID_FORM_FACTOR, message: `${path}: ${detail}` };
}

export function quotedList(names: readonly string[]): string {
  return names.map((name) => JSON.stringify(name)).join(', ');
}

/** registration.md §4 row 2. */
export function unknownFormFactorProblem(name: string, available: readonly string[]): Problem {
  return formFactorProblem(
    FORM_FACTOR_PATH,
    `unknown form factor ${JSON.stringify(name)} (available: ${quotedList(available)})`,
  );
}
