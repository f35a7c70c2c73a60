/**
 * Structural pruning as in apiextensions-apiserver pkg/apiserver/schema/pruning: unknown fields are
 * dropped unless `x-kubernetes-preserve-unknown-fields` is set; apiVersion, kind and metadata of the
 * resource root and of embedded resources are kept as they are. Works in place on a private copy.
 */
import { isJsonObject } from './json-value.ts';
import {
  RESOURCE_META_FIELDS,
  additionalPropertiesSchema,
  hasAdditionalProperties,
  isEmbeddedResource,
  preservesUnknownFields,
} from './schema-nodes.ts';
import type { JSONSchemaProps } from './types.ts';

export function pruneInPlace(
  value: unknown,
  schema: JSONSchemaProps | undefined,
  isResourceRoot: boolean,
): void {
  if (preservesUnknownFields(schema) && schema !== undefined) {
    pruneKnownOnly(value, schema, isResourceRoot);
    return;
  }
  if (Array.isArray(value)) {
    for (const item of value) pruneInPlace(item, schema?.items, false);
    return;
  }
  if (!isJsonObject(value)) return;
  // Below a key without a schema (additionalProperties: true/false), nothing is known.
  if (schema === undefined) {
    for (const key of Object.keys(value)) delete value[key];
    return;
  }
  const keepsMeta = isResourceRoot || isEmbeddedResource(schema);
  for (const [key, child] of Object.entries(value)) {
    if (keepsMeta && RESOURCE_META_FIELDS.has(key)) continue;
    const property = schema.properties?.[key];
    if (property !== undefined) pruneInPlace(child, property, false);
    else if (hasAdditionalProperties(schema)) pruneInPlace(child, additionalPropertiesSchema(schema), false);
    else delete value[key];
  }
}

/** Under x-kubernetes-preserve-unknown-fields: unknown keys stay, known ones are pruned by their schema. */
function pruneKnownOnly(value: unknown, schema: JSONSchemaProps | undefined, isResourceRoot: boolean): void {
  if (schema === undefined) return;
  if (Array.isArray(value)) {
    for (const item of value) pruneKnownOnly(item, schema.items, false);
    return;
  }
  if (!isJsonObject(value)) return;
  const keepsMeta = isResourceRoot || isEmbeddedResource(schema);
  for (const [key, child] of Object.entries(value)) {
    if (keepsMeta && RESOURCE_META_FIELDS.has(key)) continue;
    const property = schema.properties?.[key];
    if (property !== undefined) pruneInPlace(child, property, false);
    else if (hasAdditionalProperties(schema)) pruneInPlace(child, additionalPropertiesSchema(schema), false);
  }
}
