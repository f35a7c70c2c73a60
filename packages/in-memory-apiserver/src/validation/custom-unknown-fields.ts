/**
 * The fields of a custom resource its structural schema prunes, as kube-apiserver reports them under
 * `fieldValidation`: the outermost pruned key (`spec`, `spec.extra`), sorted; unknown ObjectMeta
 * fields (`metadata.bogus`) too, which are dropped as well.
 */
import { isJsonObject, pruneAndValidate, type JSONSchemaProps } from '@scoby/structural-schema';
import { decodeTyped } from './typed-decode.ts';

const OBJECT_META = 'io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta';

function prunedPaths(original: unknown, kept: unknown, path: string, found: string[]): void {
  if (Array.isArray(original) && Array.isArray(kept)) {
    original.forEach((item, index) => prunedPaths(item, kept[index], `${path}[${index}]`, found));
    return;
  }
  if (!isJsonObject(original) || !isJsonObject(kept)) return;
  for (const [key, value] of Object.entries(original)) {
    const child = path === '' ? key : `${path}.${key}`;
    // A null the schema does not allow is dropped too, but it is no unknown field.
    if (!(key in kept)) {
      if (value !== null) found.push(child);
    } else prunedPaths(value, kept[key], child, found);
  }
}

/** The object with unknown metadata fields dropped, and every unknown field path. */
export function customUnknownFields(
  schema: JSONSchemaProps,
  object: Record<string, unknown>,
): { object: Record<string, unknown>; unknown: string[] } {
  const metadata = decodeTyped(OBJECT_META, object.metadata ?? {});
  const { metadata: _metadata, ...rest } = object;
  const found: string[] = metadata.unknown.map((path) => `metadata.${path}`);
  prunedPaths(rest, pruneAndValidate(schema, rest, { root: true }).value, '', found);
  return { object: { ...object, metadata: metadata.value }, unknown: found.sort() };
}
