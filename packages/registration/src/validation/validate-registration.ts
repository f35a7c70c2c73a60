/**
 * validateRegistration (docs/spec/registration.md §4): schema checks, then rows 1–18 of the table in table order,
 * then defaulting. Pure: the form factors are known only through the injected catalog.
 */
import type { CRDRegistrationSpec, FormFactorCatalog, NormalizedRegistrationSpec } from '../types.ts';
import type { Problem } from './problem.ts';
import { aliasProblems, builtInFuncProblems, choiceProblems } from './choice-checks.ts';
import { formFactorProblems, selectFormFactor } from './form-factor-checks.ts';
import {
  hookAddressProblems,
  hookCapabilityProblems,
  hookFailurePolicyProblems,
  hookTimeoutProblems,
  hookVersionProblems,
} from './hook-checks.ts';
import { envNameProblems, volumeNameProblems } from './name-checks.ts';
import { normalizeRegistration } from './normalize.ts';
import { duplicatePathProblems, pathSyntaxProblems } from './path-checks.ts';
import { resyncPeriodProblems } from './resync-checks.ts';
import { schemaProblems } from './schema-check.ts';
import { statusConfigurationProblems } from './status-configuration-checks.ts';
import { labelSelectorProblems } from '../label-selector.ts';

export type RegistrationValidation =
  | { ok: true; spec: NormalizedRegistrationSpec }
  | { ok: false; problems: Problem[]; reason: string; message: string };

export function validateRegistration(
  registration: unknown,
  catalog: FormFactorCatalog,
): RegistrationValidation {
  const shapeProblems = schemaProblems(registration);
  // Rows 1–18 rely on the shapes the schema guarantees.
  if (shapeProblems.length > 0) return failure(shapeProblems);
  const spec = (registration as { spec: CRDRegistrationSpec }).spec;
  const selection = selectFormFactor(spec.workload.formFactor, catalog.names());
  const formFactor = selection.ok ? selection.name : undefined;
  const hook = spec.hook;
  const problems = [
    ...formFactorProblems(selection, catalog),
    ...pathSyntaxProblems(spec),
    ...duplicatePathProblems(spec),
    ...envNameProblems(spec),
    ...volumeNameProblems(spec),
    ...aliasProblems(spec),
    ...choiceProblems(spec),
    ...builtInFuncProblems(spec),
    ...statusConfigurationProblems(
      spec,
      formFactor === undefined
        ? undefined
        : { name: formFactor, conditionTypes: catalog.conditionTypes(formFactor) },
    ),
    ...(hook === undefined
      ? []
      : [
          ...hookVersionProblems(hook),
          ...hookAddressProblems(hook),
          ...hookTimeoutProblems(hook),
          ...hookCapabilityProblems(hook),
          ...hookFailurePolicyProblems(hook),
        ]),
    ...labelSelectorProblems(spec.selector, 'spec.selector'),
    ...labelSelectorProblems(spec.namespaceSelector, 'spec.namespaceSelector'),
    ...resyncPeriodProblems(spec),
  ];
  if (problems.length > 0 || formFactor === undefined) return failure(problems);
  return { ok: true, spec: normalizeRegistration(spec, formFactor, catalog) };
}

function failure(problems: Problem[]): RegistrationValidation {
  const [first] = problems;
  return {
    ok: false,
    problems,
    reason: first?.reason ?? '',
    message: problems.map((found) => found.message).join('; '),
  };
}
