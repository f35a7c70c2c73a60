/**
 * The schema checks kube-apiserver makes of a CRD version's openAPIV3Schema before it takes the CRD:
 * arrays name their items, properties and additionalProperties exclude each other, every field has a
 * type (structural schema; unless int-or-string or preserving unknown fields), the root is an object;
 * and, when the schema is otherwise sound, every CEL rule compiles. Paths are kube's: under
 * `spec.validation.openAPIV3Schema` when all versions share one schema (kube-apiserver folds them),
 * else under `spec.versions[i].schema.openAPIV3Schema`.
 */
import { deepEqual, isJsonObject, type Cause, type JSONSchemaProps } from '@scoby/structural-schema';
import { compileError } from './cel.ts';
import { forbidden, invalidValue, requiredValue } from './field-errors.ts';

interface Found {
  openApi: Cause[];
  structural: Cause[];
  rules: Cause[];
}

function walk(schema: JSONSchemaProps, path: string, root: boolean, found: Found): void {
  const typeless =
    schema.type === undefined &&
    schema['x-kubernetes-int-or-string'] !== true &&
    schema['x-kubernetes-preserve-unknown-fields'] !== true;
  if (root && schema.type !== 'object') {
    found.structural.push(
      schema.type === undefined
        ? requiredValue(`${path}.type`, 'must not be empty at the root')
        : invalidValue(`${path}.type`, schema.type, 'must be object at the root'),
    );
  } else if (!root && typeless) {
    found.structural.push(requiredValue(`${path}.type`, 'must not be empty for specified object fields'));
  }
  if (schema.type === 'array' && schema.items === undefined)
    found.openApi.push(requiredValue(`${path}.items`, 'must be specified'));
  if (schema.properties !== undefined && schema.additionalProperties !== undefined)
    found.openApi.push(
      forbidden(`${path}.additionalProperties`, 'additionalProperties and properties are mutual exclusive'),
    );
  (schema['x-kubernetes-validations'] ?? []).forEach((rule, index) => {
    const text = isJsonObject(rule) && typeof rule.rule === 'string' ? rule.rule : '';
    const error = compileError(text);
    if (error !== undefined)
      found.rules.push(
        invalidValue(`${path}.x-kubernetes-validations[${index}].rule`, text, `compilation failed: ${error}`),
      );
  });
  for (const [name, property] of Object.entries(schema.properties ?? {}))
    walk(property, `${path}.properties[${name}]`, false, found);
  if (schema.items !== undefined) walk(schema.items, `${path}.items`, false, found);
  if (typeof schema.additionalProperties === 'object')
    walk(schema.additionalProperties, `${path}.additionalProperties`, false, found);
}

function schemaCauses(schema: JSONSchemaProps, path: string): Cause[] {
  const found: Found = { openApi: [], structural: [], rules: [] };
  walk(schema, path, true, found);
  const sound = found.openApi.length === 0 && found.structural.length === 0;
  return [...found.openApi, ...found.structural, ...(sound ? found.rules : [])];
}

/** The causes of every version's schema (versions: the CRD's spec.versions). */
export function validateCrdSchemas(versions: readonly unknown[]): Cause[] {
  const schemas = versions.map((version) =>
    isJsonObject(version) && isJsonObject(version.schema) && isJsonObject(version.schema.openAPIV3Schema)
      ? (version.schema.openAPIV3Schema as JSONSchemaProps)
      : undefined,
  );
  const first = schemas[0];
  if (first !== undefined && schemas.every((schema) => deepEqual(schema, first)))
    return schemaCauses(first, 'spec.validation.openAPIV3Schema');
  return schemas.flatMap((schema, index) =>
    schema === undefined ? [] : schemaCauses(schema, `spec.versions[${index}].schema.openAPIV3Schema`),
  );
}
