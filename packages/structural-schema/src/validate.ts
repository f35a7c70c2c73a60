/**
 * Value validation of a custom resource against its openAPIV3Schema, reproducing the checks, their
 * order and their messages of kube-openapi's validator as converted to field errors by
 * apiextensions-apiserver (pkg/apiserver/validation). A validator applies by the value's own JSON
 * kind: a string is never checked against `minimum`, a number never against `pattern`.
 */
import { validateCombinators } from './combinators.ts';
import { fieldOf, invalid, notSupported, required, tooLong, tooMany, typeInvalid } from './field-errors.ts';
import { formatCheck } from './formats.ts';
import { goFloat, goQuote } from './go-format.ts';
import { deepEqual, isJsonObject, jsonKind, type JsonKind, type JsonMap } from './json-value.ts';
import { additionalPropertiesSchema, isEmbeddedResource, joinPath } from './schema-nodes.ts';
import type { Cause, JSONSchemaProps } from './types.ts';

/** Validates `value` at `path` (`''` for the object itself); `isResource` marks a resource root. */
export function validateNode(
  schema: JSONSchemaProps,
  value: unknown,
  path: string,
  isResource = false,
): Cause[] {
  if (value === null || value === undefined)
    return [...checkNullType(schema, path), ...checkEnum(schema, null, path)];
  const kind = jsonKind(value);
  const causes = [
    ...checkType(schema, kind, path),
    ...validateCombinators(schema, value, path, validateNode),
  ];
  if (typeof value === 'string')
    causes.push(...checkString(schema, value, path), ...checkFormat(schema, value, path));
  if (typeof value === 'number') causes.push(...checkNumber(schema, value, path));
  if (Array.isArray(value)) causes.push(...checkArray(schema, value, path));
  causes.push(...checkEnum(schema, value, path));
  if (isJsonObject(value)) {
    causes.push(...checkObject(schema, value, path, isResource || isEmbeddedResource(schema)));
  }
  return causes;
}

/** x-kubernetes-int-or-string is validated as `type: [integer, string]`. */
function schemaTypes(schema: JSONSchemaProps): string[] {
  if (schema['x-kubernetes-int-or-string'] === true) return ['integer', 'string'];
  return schema.type === undefined || schema.type === '' ? [] : [schema.type];
}

function typeMismatch(path: string, actual: string, expected: string): Cause {
  const detail = `${path} in body must be of type ${expected}: ${goQuote(actual)}`;
  return typeInvalid(fieldOf(path), actual, detail);
}

function checkNullType(schema: JSONSchemaProps, path: string): Cause[] {
  const types = schemaTypes(schema);
  return types.length > 0 && schema.nullable !== true ? [typeMismatch(path, 'null', types.join(','))] : [];
}

/** The format go-openapi infers for a decoded number (int64 or float64), compared with `format`. */
function inferredFormat(kind: JsonKind): string {
  if (kind === 'integer') return 'int64';
  return kind === 'number' ? 'double' : '';
}

function checkType(schema: JSONSchemaProps, kind: JsonKind, path: string): Cause[] {
  const types = schemaTypes(schema);
  const matches = types.includes(kind) || (kind === 'integer' && types.includes('number'));
  const format = formatCheck(schema.format) === undefined ? '' : (schema.format ?? '');
  if (kind !== 'string' && kind !== 'array' && format !== '' && !matches && inferredFormat(kind) !== format) {
    return [typeMismatch(path, inferredFormat(kind), format)];
  }
  const numeric = types.includes('number') || types.includes('integer');
  if (!numeric && format !== '' && (kind === 'string' || kind === 'array')) return [];
  return types.length === 0 || matches ? [] : [typeMismatch(path, kind, types.join(','))];
}

function checkString(schema: JSONSchemaProps, value: string, path: string): Cause[] {
  const causes: Cause[] = [];
  const length = [...value].length;
  if (schema.maxLength !== undefined && length > schema.maxLength) {
    causes.push(tooLong(fieldOf(path), schema.maxLength));
  }
  if (schema.minLength !== undefined && length < schema.minLength) {
    causes.push(
      invalid(fieldOf(path), value, `${path} in body should be at least ${schema.minLength} chars long`),
    );
  }
  if (schema.pattern !== undefined && !compilePattern(schema.pattern).test(value)) {
    causes.push(invalid(fieldOf(path), value, `${path} in body should match '${schema.pattern}'`));
  }
  return causes;
}

const patterns = new Map<string, RegExp>();

/** Patterns are RE2 in Kubernetes; Unicode-mode ECMAScript is the closest, plain mode the fallback. */
function compilePattern(pattern: string): RegExp {
  let compiled = patterns.get(pattern);
  if (compiled === undefined) {
    try {
      compiled = new RegExp(pattern, 'u');
    } catch {
      compiled = new RegExp(pattern);
    }
    patterns.set(pattern, compiled);
  }
  return compiled;
}

function checkFormat(schema: JSONSchemaProps, value: string, path: string): Cause[] {
  const check = formatCheck(schema.format);
  if (check === undefined || check(value)) return [];
  const detail = `${path} in body must be of type ${schema.format}: ${goQuote(value)}`;
  return [typeInvalid(fieldOf(path), value, detail)];
}

/** go-openapi divides by the factor (or multiplies by its inverse below 1) and wants a whole result. */
function isMultipleOf(value: number, factor: number): boolean {
  const quotient = factor < 1 ? (1 / factor) * value : value / factor;
  return Number.isFinite(quotient) && Math.abs(quotient - Math.round(quotient)) < 1e-9;
}

function checkNumber(schema: JSONSchemaProps, value: number, path: string): Cause[] {
  const causes: Cause[] = [];
  const field = fieldOf(path);
  const { multipleOf, maximum, minimum } = schema;
  if (multipleOf !== undefined) {
    if (multipleOf <= 0) {
      causes.push(
        invalid(
          field,
          multipleOf,
          `factor MultipleOf declared for ${path} must be positive: ${goFloat(multipleOf)}`,
        ),
      );
    } else if (!isMultipleOf(value, multipleOf)) {
      causes.push(invalid(field, value, `${path} in body should be a multiple of ${goFloat(multipleOf)}`));
    }
  }
  if (maximum !== undefined) {
    const exclusive = schema.exclusiveMaximum === true;
    if (exclusive ? value >= maximum : value > maximum) {
      const relation = exclusive ? 'less than' : 'less than or equal to';
      causes.push(invalid(field, value, `${path} in body should be ${relation} ${goFloat(maximum)}`));
    }
  }
  if (minimum !== undefined) {
    const exclusive = schema.exclusiveMinimum === true;
    if (exclusive ? value <= minimum : value < minimum) {
      const relation = exclusive ? 'greater than' : 'greater than or equal to';
      causes.push(invalid(field, value, `${path} in body should be ${relation} ${goFloat(minimum)}`));
    }
  }
  return causes;
}

function checkArray(schema: JSONSchemaProps, value: unknown[], path: string): Cause[] {
  const items = schema.items;
  const causes =
    items === undefined ? [] : value.flatMap((item, i) => validateNode(items, item, `${path}[${i}]`));
  const field = fieldOf(path);
  if (schema.minItems !== undefined && value.length < schema.minItems) {
    causes.push(
      invalid(field, value.length, `${path} in body should have at least ${schema.minItems} items`),
    );
  }
  if (schema.maxItems !== undefined && value.length > schema.maxItems) {
    causes.push(tooMany(field, value.length, schema.maxItems));
  }
  if (
    schema.uniqueItems === true &&
    value.some((item, i) => value.slice(i + 1).some((other) => deepEqual(item, other)))
  ) {
    causes.push(invalid(field, '', `${path} in body shouldn't contain duplicates`));
  }
  return causes;
}

/** Go's json.Marshal of an allowed value, map keys sorted. */
function goJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(goJson).join(',')}]`;
  if (isJsonObject(value)) {
    return `{${Object.keys(value)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${goJson(value[k])}`)
      .join(',')}}`;
  }
  return JSON.stringify(value);
}

/** A null never equals an allowed value (Go compares typed values and nil has no type). */
function checkEnum(schema: JSONSchemaProps, value: unknown, path: string): Cause[] {
  const allowed = schema.enum;
  if (allowed === undefined || allowed.length === 0) return [];
  if (value !== null && allowed.some((candidate) => deepEqual(candidate, value))) return [];
  const shown = allowed.map((candidate) => (typeof candidate === 'string' ? candidate : goJson(candidate)));
  return [notSupported(fieldOf(path), value, shown)];
}

/** At a resource root only metadata.name and metadata.generateName are validated by the CRD schema. */
function metadataRules(schema: JSONSchemaProps): JSONSchemaProps {
  const { name, generateName } = schema.properties ?? {};
  const properties: Record<string, JSONSchemaProps> = {};
  if (name !== undefined) properties.name = name;
  if (generateName !== undefined) properties.generateName = generateName;
  return { properties };
}

/** Keys that additionalProperties: false never forbids (JSON Schema's own keywords). */
const ALWAYS_ALLOWED_KEYS: ReadonlySet<string> = new Set(['$schema', 'id']);

function checkObject(schema: JSONSchemaProps, value: JsonMap, path: string, isResource: boolean): Cause[] {
  const field = fieldOf(path);
  const count = Object.keys(value).length;
  // Property-count failures end the object's validation, as in go-openapi.
  if (schema.minProperties !== undefined && count < schema.minProperties) {
    return [invalid(field, count, `${path} in body should have at least ${schema.minProperties} properties`)];
  }
  if (schema.maxProperties !== undefined && count > schema.maxProperties) {
    return [tooMany(field, count, schema.maxProperties)];
  }
  const causes: Cause[] = [];
  const properties = schema.properties ?? {};
  const mapValues = additionalPropertiesSchema(schema);
  for (const [key, child] of Object.entries(value)) {
    if (key in properties) continue;
    if (schema.additionalProperties === false && !ALWAYS_ALLOWED_KEYS.has(key)) {
      causes.push(invalid(field, key, `${path}.${key} in body is a forbidden property`));
    } else if (mapValues !== undefined) {
      causes.push(...validateNode(mapValues, child, joinPath(path, key)));
    }
  }
  for (const [key, property] of Object.entries(properties)) {
    if (!(key in value)) continue;
    const rules = isResource && key === 'metadata' ? metadataRules(property) : property;
    causes.push(...validateNode(rules, value[key], joinPath(path, key)));
  }
  for (const key of schema.required ?? []) {
    if (!(key in value)) causes.push(required(joinPath(path, key)));
  }
  return causes;
}
