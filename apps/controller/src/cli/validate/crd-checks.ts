/**
 * `scoby validate --crd`: the registration against the CRD it registers. The CRD checks of the
 * registration controller (scope, a served version) with its messages, and two the controller cannot
 * report: a spec path the CRD's schema does not have (the API server prunes such a field, so the
 * value is never there), and a statusConfiguration.add path the status schema does not admit (the
 * controller skips it, docs/spec/children-and-status.md §7.2).
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

type Schema = Record<string, unknown>;

export interface FieldProblem {
  path: string;
  message: string;
}

function asSchema(value: unknown): Schema | undefined {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Schema) : undefined;
}

/** Whether `segments` (from the resource root) name a field the API server keeps. */
export function schemaHasPath(root: Schema, segments: readonly string[]): boolean {
  let node: Schema | undefined = root;
  for (const segment of segments) {
    if (node === undefined) return false;
    const declared = asSchema(asSchema(node.properties)?.[segment]);
    if (declared !== undefined) {
      node = declared;
      continue;
    }
    if (node['x-kubernetes-preserve-unknown-fields'] === true || node.additionalProperties === true)
      return true;
    node = asSchema(node.additionalProperties);
  }
  return node !== undefined;
}

function chosenVersionSchema(crd: KubeObject, version: string): Schema | undefined {
  const versions = (
    (crd.spec ?? {}) as { versions?: { name?: string; schema?: { openAPIV3Schema?: unknown } }[] }
  ).versions;
  return asSchema(versions?.find((entry) => entry.name === version)?.schema?.openAPIV3Schema);
}

export function crdProblems(spec: CRDRegistrationSpec, crds: readonly KubeObject[]): FieldProblem[] {
  const crd = crds.find((candidate) => candidate.metadata.name === spec.crd);
  if (crd === undefined)
    return [{ path: 'spec.crd', message: `CRD "${spec.crd}" is not in the --crd files` }];
  const info = inspectCrd(crd);
  if (!info.namespaced) return [{ path: 'spec.crd', message: crdClusterScopedMessage(info.name) }];
  if (info.version === undefined)
    return [{ path: 'spec.crd', message: crdServesNoVersionMessage(info.name) }];
  const where = `CRD "${info.name}" version ${info.version}`;
  const schema = chosenVersionSchema(crd, info.version);
  const problems: FieldProblem[] = [];
  for (const { field, written, root } of writtenPaths(spec)) {
    const parsed = parsePath(written, root);
    if (!parsed.ok) continue; // reported by the registration's own checks
    if (root === 'spec') {
      if (schema !== undefined && !schemaHasPath(schema, parsed.segments)) {
        problems.push({ path: field, message: `"${parsed.normalized}" is not in the schema of ${where}` });
      }
    } else if (!info.status.subresource) {
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
