/**
 * Checks of x-kubernetes-embedded-resource objects (apiextensions pkg/apiserver/schema/objectmeta):
 * apiVersion and kind are required, apiVersion must parse as group/version and kind must be a
 * DNS-1035 label apart from its case. Reported after the schema validation errors.
 */
import { invalid, required } from './field-errors.ts';
import { isJsonObject, type JsonMap } from './json-value.ts';
import { isDns1035Label } from './name-validation.ts';
import { childSchema, isEmbeddedResource, joinPath } from './schema-nodes.ts';
import type { Cause, JSONSchemaProps } from './types.ts';

export function validateEmbeddedResources(
  schema: JSONSchemaProps | undefined,
  value: unknown,
  path = '',
): Cause[] {
  if (schema === undefined) return [];
  if (Array.isArray(value)) {
    return value.flatMap((item, i) => validateEmbeddedResources(schema.items, item, `${path}[${i}]`));
  }
  if (!isJsonObject(value)) return [];
  const causes = isEmbeddedResource(schema) ? embeddedResourceCauses(value, path) : [];
  for (const [key, child] of Object.entries(value)) {
    causes.push(...validateEmbeddedResources(childSchema(schema, key), child, joinPath(path, key)));
  }
  return causes;
}

function embeddedResourceCauses(value: JsonMap, path: string): Cause[] {
  const causes: Cause[] = [];
  const apiVersionField = joinPath(path, 'apiVersion');
  const kindField = joinPath(path, 'kind');
  if (!('apiVersion' in value)) causes.push(required(apiVersionField, 'must not be empty'));
  if (!('kind' in value)) causes.push(required(kindField, 'must not be empty'));
  if ('apiVersion' in value) causes.push(...apiVersionCauses(apiVersionField, value.apiVersion));
  if ('kind' in value) causes.push(...kindCauses(kindField, value.kind));
  return causes;
}

function apiVersionCauses(field: string, apiVersion: unknown): Cause[] {
  if (typeof apiVersion !== 'string') return [invalid(field, apiVersion, 'must be a string')];
  if (apiVersion === '') return [invalid(field, apiVersion, 'must not be empty')];
  // schema.ParseGroupVersion accepts `version` and `group/version` only.
  if (apiVersion.split('/').length > 2) {
    return [invalid(field, apiVersion, `unexpected GroupVersion string: ${apiVersion}`)];
  }
  return [];
}

function kindCauses(field: string, kind: unknown): Cause[] {
  if (typeof kind !== 'string') return [invalid(field, kind, 'must be a string')];
  if (kind === '') return [invalid(field, kind, 'must not be empty')];
  const errors = isDns1035Label(kind.toLowerCase());
  if (errors.length === 0) return [];
  return [invalid(field, kind, `may have mixed case, but should otherwise match: ${errors.join(',')}`)];
}
