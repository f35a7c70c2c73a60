/** A registration problem (docs/spec/registration.md §4): the message starts with the full field path. */
export interface Problem {
  path: string;
  reason: string;
  message: string;
}

/** Reasons of docs/spec/registration.md §4 (validation) plus the schema check that precedes it. */
export const ValidationReason = {
  /** The spec does not match the CRD schema (required fields, JSON types). */
  InvalidSpec: 'InvalidSpec',
  InvalidFormFactor: 'InvalidFormFactor',
  InvalidParameterConfiguration: 'InvalidParameterConfiguration',
  InvalidStatusConfiguration: 'InvalidStatusConfiguration',
  InvalidBuiltInFunc: 'InvalidBuiltInFunc',
  InvalidHookVersion: 'InvalidHookVersion',
  InvalidHookAddress: 'InvalidHookAddress',
  InvalidHookTimeout: 'InvalidHookTimeout',
  InvalidHookCapability: 'InvalidHookCapability',
  InvalidSelector: 'InvalidSelector',
  InvalidHookFailurePolicy: 'InvalidHookFailurePolicy',
  InvalidResyncPeriod: 'InvalidResyncPeriod',
} as const;
export type ValidationReason = (typeof ValidationReason)[keyof typeof ValidationReason];

/** Field paths as messages spell them out. */
export const FORM_FACTOR_PATH = 'spec.workload.formFactor';
export const PARAMETERS = 'spec.workload.parameterConfiguration';
export const STATUS_CONFIGURATION = 'spec.workload.statusConfiguration';
export const HOOK = 'spec.hook';

/** Every problem message starts with its full field path (docs/spec/registration.md §4). */
export function problem(path: string, reason: ValidationReason, detail: string): Problem {
  return { path, reason, message: `${path}: ${detail}` };
}

export function quote(value: unknown): string {
  return JSON.stringify(value);
}

export function quoteList(values: readonly string[]): string {
  return values.map(quote).join(', ');
}

/** "Set" in the exactly-one / at-most-one rules: written with a non-null value. */
export function isSet(value: unknown): boolean {
  return value !== undefined && value !== null;
}
