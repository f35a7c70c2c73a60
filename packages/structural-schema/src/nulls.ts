/**
 * apiextensions' PruneNonNullableNullsWithoutDefaults: a null under a known key whose schema is
 * neither nullable nor defaulted is dropped (as if the key were absent). Nulls in lists stay and fail
 * type validation. Works in place.
 */
import { isJsonObject } from './json-value.ts';
import { childSchema } from './schema-nodes.ts';
import type { JSONSchemaProps } from './types.ts';

export function pruneNonNullableNullsInPlace(value: unknown, schema: JSONSchemaProps | undefined): void {
  if (schema === undefined) return;
  if (Array.isArray(value)) {
    for (const item of value) pruneNonNullableNullsInPlace(item, schema.items);
    return;
  }
  if (!isJsonObject(value)) return;
  for (const [key, child] of Object.entries(value)) {
    const governing = childSchema(schema, key);
    if (governing === undefined) continue;
    if (child === null && governing.nullable !== true && governing.default === undefined) delete value[key];
    else pruneNonNullableNullsInPlace(child, governing);
  }
}
