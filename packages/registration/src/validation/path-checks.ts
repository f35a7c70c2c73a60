/** Rows 4–5 of docs/spec/registration.md §4: path syntax (docs/spec/env.md §2) and duplicate instruction paths. */
import { parsePath, type PathRoot } from '../paths.ts';
import type { CRDRegistrationSpec, MountFrom } from '../types.ts';
import type { Problem } from './problem.ts';
import { PARAMETERS, problem, quote, STATUS_CONFIGURATION, ValidationReason } from './problem.ts';

export interface WrittenPath {
  field: string;
  written: string;
  root: PathRoot;
  reason: ValidationReason;
}

const parameterPath = (field: string, written: string): WrittenPath => ({
  field,
  written,
  root: 'spec',
  reason: ValidationReason.InvalidParameterConfiguration,
});

function mountFromPaths(field: string, mountFrom: MountFrom): WrittenPath[] {
  const paths: WrittenPath[] = [];
  const { configMapPath, secretPath } = mountFrom;
  if (configMapPath) {
    paths.push(parameterPath(`${field}.configMapPath.name`, configMapPath.name));
    (configMapPath.items ?? []).forEach((item, i) =>
      paths.push(parameterPath(`${field}.configMapPath.items[${i}].key`, item.key)),
    );
  }
  if (secretPath) {
    paths.push(parameterPath(`${field}.secretPath.secretName`, secretPath.secretName));
    (secretPath.items ?? []).forEach((item, i) =>
      paths.push(parameterPath(`${field}.secretPath.items[${i}].key`, item.key)),
    );
  }
  return paths;
}

/** Every path written in the registration, in document order (the order of docs/spec/registration.md §3.2). */
export function writtenPaths(spec: CRDRegistrationSpec): WrittenPath[] {
  const fromSpec = spec.workload.parameterConfiguration?.fromSpec;
  const paths: WrittenPath[] = [];
  (fromSpec?.skip ?? []).forEach((skip, i) =>
    paths.push(parameterPath(`${PARAMETERS}.fromSpec.skip[${i}].path`, skip.path)),
  );
  (fromSpec?.toEnv ?? []).forEach((entry, i) => {
    const field = `${PARAMETERS}.fromSpec.toEnv[${i}]`;
    paths.push(parameterPath(`${field}.path`, entry.path));
    for (const source of ['configMapPath', 'secretPath'] as const) {
      const selector = entry.valueFrom?.[source];
      if (!selector) continue;
      paths.push(parameterPath(`${field}.valueFrom.${source}.name`, selector.name));
      paths.push(parameterPath(`${field}.valueFrom.${source}.key`, selector.key));
    }
  });
  (fromSpec?.toVolume ?? []).forEach((entry, i) => {
    const field = `${PARAMETERS}.fromSpec.toVolume[${i}]`;
    paths.push(
      parameterPath(`${field}.path`, entry.path),
      ...mountFromPaths(`${field}.mountFrom`, entry.mountFrom),
    );
  });
  (spec.workload.statusConfiguration?.add ?? []).forEach((entry, i) => {
    const field = `${STATUS_CONFIGURATION}.add[${i}]`;
    const reason = ValidationReason.InvalidStatusConfiguration;
    paths.push({ field: `${field}.path`, written: entry.path, root: 'status', reason });
    paths.push({ field: `${field}.valueFrom.path`, written: entry.valueFrom.path, root: 'spec', reason });
  });
  return paths;
}

/** Row 4. */
export function pathSyntaxProblems(spec: CRDRegistrationSpec): Problem[] {
  return writtenPaths(spec).flatMap(({ field, written, root, reason }) => {
    const parsed = parsePath(written, root);
    return parsed.ok ? [] : [problem(field, reason, parsed.message)];
  });
}

/** Row 5: the same (normalised) path twice in `fromSpec.toEnv`, or twice in `fromSpec.toVolume`. */
export function duplicatePathProblems(spec: CRDRegistrationSpec): Problem[] {
  const fromSpec = spec.workload.parameterConfiguration?.fromSpec;
  return [
    ...duplicatesIn(`${PARAMETERS}.fromSpec.toEnv`, fromSpec?.toEnv ?? []),
    ...duplicatesIn(`${PARAMETERS}.fromSpec.toVolume`, fromSpec?.toVolume ?? []),
  ];
}

function duplicatesIn(list: string, entries: { path: string }[]): Problem[] {
  const firstIndex = new Map<string, number>();
  const problems: Problem[] = [];
  entries.forEach((entry, i) => {
    const parsed = parsePath(entry.path, 'spec');
    if (!parsed.ok) return; // reported by row 4
    const first = firstIndex.get(parsed.normalized);
    if (first === undefined) firstIndex.set(parsed.normalized, i);
    else
      problems.push(
        problem(
          `${list}[${i}].path`,
          ValidationReason.InvalidParameterConfiguration,
          `duplicate path ${quote(parsed.normalized)} (also at index ${first})`,
        ),
      );
  });
  return problems;
}
