/**
 * The registration's spec paths against the registered CRD's schema (docs/spec/registration.md §5.5):
 * a path the schema does not have names a field the API server prunes, so its value is never there
 * and the variable or volume it feeds is never set. One check for the registration controller and
 * `scoby validate --crd`.
 */
import type { KubeObject } from '@scoby/kube-objects';
import { parsePath, writtenPaths, type CRDRegistrationSpec } from '@scoby/registration';

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

function versionSchema(crd: KubeObject, version: string): Schema | undefined {
  const versions = (
    (crd.spec ?? {}) as { versions?: { name?: string; schema?: { openAPIV3Schema?: unknown } }[] }
  ).versions;
  return asSchema(versions?.find((entry) => entry.name === version)?.schema?.openAPIV3Schema);
}

/**
 * Each spec path of the registration (fromSpec's env and volume paths, statusConfiguration.add's
 * sources) that the schema of `version` of `crd` does not have; none without a schema. Paths that
 * do not parse are the registration's own validation error, not reported here.
 */
export function specPathProblems(
  spec: CRDRegistrationSpec,
  crd: KubeObject,
  version: string,
): FieldProblem[] {
  const schema = versionSchema(crd, version);
  if (schema === undefined) return [];
  const where = `CRD "${crd.metadata.name ?? ''}" version ${version}`;
  const problems: FieldProblem[] = [];
  for (const { field, written, root } of writtenPaths(spec)) {
    if (root !== 'spec') continue;
    const parsed = parsePath(written, root);
    if (!parsed.ok || schemaHasPath(schema, parsed.segments)) continue;
    problems.push({ path: field, message: `"${parsed.normalized}" is not in the schema of ${where}` });
  }
  return problems;
}
