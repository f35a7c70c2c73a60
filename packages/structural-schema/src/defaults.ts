/**
 * Structural defaulting (apiextensions pkg/apiserver/schema/defaulting): a property's `default` is set
 * when the key is absent, or null while the property is not nullable; list items and map values that
 * are such nulls take their schema's default. Defaults are applied inside defaults too.
 */
import { deepClone, isJsonObject } from './json-value.ts';
import { additionalPropertiesSchema } from './schema-nodes.ts';
import type { JSONSchemaProps } from './types.ts';

const isNonNullableNull = (value: unknown, schema: JSONSchemaProps): boolean =>
  value === null && schema.nullable !== true;

export function defaultInPlace(value: unknown, schema: JSONSchemaProps | undefined): void {
  if (schema === undefined) return;
  if (Array.isArray(value)) {
    const items = schema.items;
    if (items === undefined) return;
    value.forEach((item, i) => {
      if (isNonNullableNull(item, items) && items.default !== undefined) value[i] = deepClone(items.default);
      defaultInPlace(value[i], items);
    });
    return;
  }
  if (!isJsonObject(value)) return;
  for (const [key, property] of Object.entries(schema.properties ?? {})) {
    if (property.default === undefined) continue;
    if (!(key in value) || isNonNullableNull(value[key], property)) value[key] = deepClone(property.default);
  }
  const mapValues = additionalPropertiesSchema(schema);
  for (const key of Object.keys(value)) {
    const property = schema.properties?.[key];
    if (property !== undefined) {
      defaultInPlace(value[key], property);
    } else if (mapValues !== undefined) {
      if (isNonNullableNull(value[key], mapValues) && mapValues.default !== undefined) {
        value[key] = deepClone(mapValues.default);
      }
      defaultInPlace(value[key], mapValues);
    }
  }
}

/** A copy of `value` with the schema's defaults applied, as the API server does after pruning. */
export function defaultValues(schema: JSONSchemaProps, value: unknown): unknown {
  const copy = deepClone(value);
  defaultInPlace(copy, schema);
  return copy;
}
