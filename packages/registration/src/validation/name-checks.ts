/** Rows 6–7 of docs/spec/registration.md §4: explicit environment variable names and volume names. */
import type { CRDRegistrationSpec } from '../types.ts';
import type { Problem } from './problem.ts';
import { PARAMETERS, problem, quote, ValidationReason } from './problem.ts';

interface WrittenName {
  field: string;
  name: string;
}

/**
 * Reports each repeated name at its later occurrence, pointing at the first; with `rejectEmpty`,
 * also empty names, in the same (document) order.
 */
function nameProblems(names: WrittenName[], describe: string, rejectEmpty: boolean): Problem[] {
  const first = new Map<string, string>();
  const problems: Problem[] = [];
  for (const { field, name } of names) {
    if (rejectEmpty && name === '') {
      problems.push(
        problem(field, ValidationReason.InvalidParameterConfiguration, `${describe} must not be empty`),
      );
      continue;
    }
    const earlier = first.get(name);
    if (earlier === undefined) first.set(name, field);
    else
      problems.push(
        problem(
          field,
          ValidationReason.InvalidParameterConfiguration,
          `duplicate ${describe} ${quote(name)} (also at ${earlier})`,
        ),
      );
  }
  return problems;
}

/** Row 6: tier A (add.toEnv) and tier B (fromSpec.toEnv with a name) must be unique together (docs/spec/env.md §7). */
export function envNameProblems(spec: CRDRegistrationSpec): Problem[] {
  const parameters = spec.workload.parameterConfiguration;
  const names: WrittenName[] = [
    ...(parameters?.add?.toEnv ?? []).map((entry, i) => ({
      field: `${PARAMETERS}.add.toEnv[${i}].name`,
      name: entry.name,
    })),
    ...(parameters?.fromSpec?.toEnv ?? []).flatMap((entry, i) =>
      entry.name === undefined
        ? []
        : [{ field: `${PARAMETERS}.fromSpec.toEnv[${i}].name`, name: entry.name }],
    ),
  ];
  return nameProblems(names, 'environment variable name', true);
}

/** Row 7: pod volume names across fromSpec.toVolume and add.toVolume. */
export function volumeNameProblems(spec: CRDRegistrationSpec): Problem[] {
  const parameters = spec.workload.parameterConfiguration;
  return nameProblems(
    [
      ...(parameters?.fromSpec?.toVolume ?? []).map((entry, i) => ({
        field: `${PARAMETERS}.fromSpec.toVolume[${i}].name`,
        name: entry.name,
      })),
      ...(parameters?.add?.toVolume ?? []).map((entry, i) => ({
        field: `${PARAMETERS}.add.toVolume[${i}].name`,
        name: entry.name,
      })),
    ],
    'volume name',
    false,
  );
}
