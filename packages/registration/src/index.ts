export * from './types.ts';
export * from './paths.ts';
export { SCHEMA } from './schema.ts';
export type { SchemaNode } from './schema-node.ts';
export { crdManifest, crdManifestYaml } from './manifest.ts';
export { validateRegistration, type RegistrationValidation } from './validation/validate-registration.ts';
export { FORM_FACTOR_PATH, ValidationReason, type Problem } from './validation/problem.ts';
export { writtenPaths, type WrittenPath } from './validation/path-checks.ts';
export {
  DEFAULT_FORM_FACTOR,
  formFactorProblem,
  selectFormFactor,
  unknownFormFactorProblem,
  type FormFactorSelection,
} from './validation/form-factor-checks.ts';
export { DEFAULT_HOOK_TIMEOUT_MS } from './validation/normalize.ts';
export { FAILURE_POLICIES, type FailurePolicy } from './validation/hook-checks.ts';
export { HOOK_SUCCEEDED, KSTATUS_CONDITIONS } from './validation/status-configuration-checks.ts';
export { MIN_RESYNC_PERIOD, MIN_RESYNC_PERIOD_MS } from './validation/resync-checks.ts';
export { parseIsoDurationMs } from './iso8601-duration.ts';
export * from './registration-status.ts';
export {
  INVALID_SELECTOR,
  labelSelectorProblems,
  matchesLabelSelector,
  selectsSome,
  SELECTOR_OPERATORS,
  type LabelSelector,
  type LabelSelectorRequirement,
  type SelectorOperator,
} from './label-selector.ts';
