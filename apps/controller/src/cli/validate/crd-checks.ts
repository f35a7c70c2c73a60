/**
 * `scoby validate --crd`: the registration against the CRD it registers. The CRD checks of the
 * registration controller (scope, a served version) with its messages; a spec path the CRD's schema
 * does not have (the API server prunes such a field, so the value is never there), the check the
 * controller reports as its SpecPathsInSchema warning (crd/spec-paths.ts); and a
 * statusConfiguration.add path the status schema does not admit (the controller skips it,
 * docs/spec/children-and-status.md §7.2).
 */
import type { KubeObject } from '@scoby/kube-objects';
import {
  crdClusterScopedMessage,
  crdServesNoVersionMessage,
  parsePath,
  writtenPaths,
  type CRDRegistrationSpec,
} from '@scoby/registration';
import { inspectCrd } from '../../crd/inspect.ts';
import { statusPathAllowed } from '../../crd/status-paths.ts';
import { specPathProblems, type FieldProblem } from '../../crd/spec-paths.ts';

export type { FieldProblem };

export function crdProblems(spec: CRDRegistrationSpec, crds: readonly KubeObject[]): FieldProblem[] {
  const crd = crds.find((candidate) => candidate.metadata.name === spec.crd);
  if (crd === undefined)
    return [{ path: 'spec.crd', message: `CRD "${spec.crd}" is not in the --crd files` }];
  const info = inspectCrd(crd);
  if (!info.namespaced) return [{ path: 'spec.crd', message: crdClusterScopedMessage(info.name) }];
  if (info.version === undefined)
    return [{ path: 'spec.crd', message: crdServesNoVersionMessage(info.name) }];
  const where = `CRD "${info.name}" version ${info.version}`;
  const problems: FieldProblem[] = specPathProblems(spec, crd, info.version);
  for (const { field, written, root } of writtenPaths(spec)) {
    const parsed = parsePath(written, root);
    if (!parsed.ok || root === 'spec') continue; // spec paths above; unparsable ones are the registration's own errors
    if (!info.status.subresource) {
      problems.push({
        path: field,
        message: `${where} has no status subresource: the controller writes no status`,
      });
    } else if (!statusPathAllowed(info.status.schema, parsed.segments.slice(1))) {
      problems.push({
        path: field,
        message: `"${parsed.normalized}" is not in the status schema of ${where}: the controller does not write it`,
      });
    }
  }
  return problems;
}
