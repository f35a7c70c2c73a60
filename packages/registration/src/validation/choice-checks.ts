/** Rows 8–10 of docs/spec/registration.md §4: legacy aliases, one-of rules and built-in functions. */
import type { CRDRegistrationSpec, MountFrom } from '../types.ts';
import type { Problem } from './problem.ts';
import { isSet, PARAMETERS, problem, quote, quoteList, ValidationReason } from './problem.ts';

const reason = ValidationReason.InvalidParameterConfiguration;

/** Row 8: a legacy alias and its target written together (docs/spec/registration.md §3.5). */
export function aliasProblems(spec: CRDRegistrationSpec): Problem[] {
  const parameters = spec.workload.parameterConfiguration;
  return [
    ...(parameters?.fromSpec?.toEnv ?? []).flatMap((entry, i) =>
      isSet(entry.defaultValue) && isSet(entry.default)
        ? [
            problem(
              `${PARAMETERS}.fromSpec.toEnv[${i}]`,
              reason,
              '"defaultValue" and "default" cannot both be set',
            ),
          ]
        : [],
    ),
    ...(parameters?.add?.toEnv ?? []).flatMap((entry, i) =>
      isSet(entry.valueFrom?.fieldRef) && isSet(entry.valueFrom?.field)
        ? [
            problem(
              `${PARAMETERS}.add.toEnv[${i}].valueFrom`,
              reason,
              '"fieldRef" and "field" cannot both be set',
            ),
          ]
        : [],
    ),
  ];
}

type Choice = { path: string; options: Record<string, unknown>; rule: 'exactly one' | 'at most one' };

function choiceProblem({ path, options, rule }: Choice): Problem[] {
  const count = Object.values(options).filter(isSet).length;
  if (rule === 'exactly one' ? count === 1 : count <= 1) return [];
  const names = Object.keys(options).join(', ');
  return [
    problem(
      path,
      reason,
      rule === 'exactly one' ? `exactly one of ${names} must be set` : `at most one of ${names} may be set`,
    ),
  ];
}

const mountFromChoice = (path: string, mountFrom: MountFrom): Choice => ({
  path,
  rule: 'exactly one',
  options: { configMapPath: mountFrom.configMapPath, secretPath: mountFrom.secretPath },
});

/** Row 9, in document order. */
export function choiceProblems(spec: CRDRegistrationSpec): Problem[] {
  const parameters = spec.workload.parameterConfiguration;
  const choices: Choice[] = [];
  (parameters?.fromSpec?.toEnv ?? []).forEach((entry, i) => {
    const field = `${PARAMETERS}.fromSpec.toEnv[${i}]`;
    if (entry.default) {
      const { value, configMap, secret } = entry.default;
      choices.push({ path: `${field}.default`, rule: 'at most one', options: { value, configMap, secret } });
    }
    if (entry.valueFrom) {
      const { configMapPath, secretPath, builtInFunc } = entry.valueFrom;
      choices.push({
        path: `${field}.valueFrom`,
        rule: 'at most one',
        options: { configMapPath, secretPath, builtInFunc },
      });
    }
  });
  (parameters?.fromSpec?.toVolume ?? []).forEach((entry, i) =>
    choices.push(mountFromChoice(`${PARAMETERS}.fromSpec.toVolume[${i}].mountFrom`, entry.mountFrom)),
  );
  (parameters?.add?.toEnv ?? []).forEach((entry, i) => {
    const field = `${PARAMETERS}.add.toEnv[${i}]`;
    const { value, valueFrom, valueFromControllerConfigMap } = entry;
    choices.push({
      path: field,
      rule: 'exactly one',
      options: { value, valueFrom, valueFromControllerConfigMap },
    });
    if (valueFrom) {
      const fieldOrAlias = valueFrom.field ?? valueFrom.fieldRef;
      choices.push({
        path: `${field}.valueFrom`,
        rule: 'exactly one',
        options: { field: fieldOrAlias, configMap: valueFrom.configMap, secret: valueFrom.secret },
      });
    }
  });
  (parameters?.add?.toVolume ?? []).forEach((entry, i) =>
    choices.push(mountFromChoice(`${PARAMETERS}.add.toVolume[${i}].mountFrom`, entry.mountFrom)),
  );
  return choices.flatMap(choiceProblem);
}

export const BUILT_IN_FUNCTIONS = ['resolveAddress'];

/** Row 10. */
export function builtInFuncProblems(spec: CRDRegistrationSpec): Problem[] {
  return (spec.workload.parameterConfiguration?.fromSpec?.toEnv ?? []).flatMap((entry, i) => {
    const name = entry.valueFrom?.builtInFunc?.name;
    if (name === undefined || BUILT_IN_FUNCTIONS.includes(name)) return [];
    return [
      problem(
        `${PARAMETERS}.fromSpec.toEnv[${i}].valueFrom.builtInFunc.name`,
        ValidationReason.InvalidBuiltInFunc,
        `unknown built-in function ${quote(name)} (available: ${quoteList(BUILT_IN_FUNCTIONS)})`,
      ),
    ];
  });
}
