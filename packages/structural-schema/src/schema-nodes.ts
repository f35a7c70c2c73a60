/** Navigation of a structural schema: which sub-schema governs a map key or list item. */
import type { JSONSchemaProps } from './types.ts';

/** The fields the API server owns at the root of a resource and of embedded resources. */
export const RESOURCE_META_FIELDS: ReadonlySet<string> = new Set(['apiVersion', 'kind', 'metadata']);

/**
 * Whether unlisted keys of this object are kept as map entries (`additionalProperties` true, false or
 * a schema): the structural pruner keeps them and validation decides.
 */
export function hasAdditionalProperties(schema: JSONSchemaProps): boolean {
  return schema.additionalProperties !== undefined;
}

/** The schema of map values, undefined when `additionalProperties` is absent or a boolean. */
export function additionalPropertiesSchema(schema: JSONSchemaProps): JSONSchemaProps | undefined {
  const additional = schema.additionalProperties;
  return typeof additional === 'object' ? additional : undefined;
}

/** The schema of the value under `key`: a declared property, else the map value schema. */
export function childSchema(schema: JSONSchemaProps, key: string): JSONSchemaProps | undefined {
  return schema.properties?.[key] ?? additionalPropertiesSchema(schema);
}

export function isEmbeddedResource(schema: JSONSchemaProps | undefined): boolean {
  return schema?.['x-kubernetes-embedded-resource'] === true;
}

export function preservesUnknownFields(schema: JSONSchemaProps | undefined): boolean {
  return schema?.['x-kubernetes-preserve-unknown-fields'] === true;
}

export function joinPath(path: string, key: string): string {
  return path === '' ? key : `${path}.${key}`;
}
