/**
 * A built-in body decoded the way kube-apiserver's Go decoder reads it into its typed object, with
 * the kind's schema from the captured OpenAPI documents: a JSON value of the wrong type fails the
 * request with Go's UnmarshalTypeError text (the first one, in document order), and fields the type
 * does not declare are unknown: dropped, and reported as kube reports them (`spec.ports[0].foo`).
 * A `[]byte` field (format byte) that is not base64 fails with Go's base64 error.
 * Values with custom Go decoders (quantities, int-or-strings, times, raw extensions) are taken as
 * they come.
 */
import { isJsonObject } from '@scoby/structural-schema';
import { builtinDefinitions, type OpenApiSchema } from '../openapi/builtin-schemas.ts';
import { goBase64CorruptOffset } from './go-base64.ts';

const REF_PREFIX = '#/components/schemas/';

/** A schema with the definition it names, if any (its Go type). */
interface Typed {
  schema: OpenApiSchema;
  definition?: string;
}

function resolved(schema: OpenApiSchema): Typed {
  const ref = schema.$ref ?? (schema.allOf?.length === 1 ? schema.allOf[0]?.$ref : undefined);
  if (ref === undefined || !ref.startsWith(REF_PREFIX)) return { schema };
  const definition = ref.slice(REF_PREFIX.length);
  return { schema: builtinDefinitions().get(definition) ?? {}, definition };
}

/** `v1.Container` of io.k8s.api.core.v1.Container. */
function goName(definition: string): string {
  const parts = definition.split('.');
  return parts.slice(-2).join('.');
}

function shortName(definition: string): string {
  return definition.split('.').pop() ?? definition;
}

function goType(typed: Typed): string {
  const { schema, definition } = typed;
  if (definition !== undefined && schema.properties !== undefined) return goName(definition);
  switch (schema.type) {
    case 'string':
      return schema.format === 'byte' ? '[]uint8' : 'string';
    case 'integer':
      return schema.format === 'int32' ? 'int32' : 'int64';
    case 'number':
      return 'float64';
    case 'boolean':
      return 'bool';
    case 'array':
      return `[]${schema.items ? goType(resolved(schema.items)) : 'interface {}'}`;
    case 'object': {
      const values = schema.additionalProperties;
      return `map[string]${typeof values === 'object' ? goType(resolved(values)) : 'interface {}'}`;
    }
    default:
      return 'interface {}';
  }
}

/** The JSON kind Go names in "cannot unmarshal <kind>". */
function jsonKind(value: unknown): string {
  if (typeof value === 'string') return 'string';
  if (typeof value === 'number') return 'number';
  if (typeof value === 'boolean') return 'bool';
  return Array.isArray(value) ? 'array' : 'object';
}

/** Whether Go decodes this schema's values with its own code (not checked here). */
function customDecoded(schema: OpenApiSchema): boolean {
  return (
    schema['x-kubernetes-int-or-string'] === true ||
    schema['x-kubernetes-preserve-unknown-fields'] === true ||
    schema.format === 'date-time' ||
    (schema.type === undefined && schema.properties === undefined) ||
    (schema.type === 'object' && schema.properties === undefined && schema.additionalProperties === undefined)
  );
}

/** What Go's decoder says of `value` in a field of this schema; undefined when it takes it. */
function mismatch(schema: OpenApiSchema, value: unknown): string | undefined {
  if (value === null || customDecoded(schema)) return undefined;
  const kind = jsonKind(value);
  switch (schema.type) {
    case 'string':
      return kind === 'string' ? undefined : kind;
    case 'boolean':
      return kind === 'bool' ? undefined : kind;
    case 'number':
      return kind === 'number' ? undefined : kind;
    case 'integer': {
      if (kind !== 'number') return kind;
      const limit = schema.format === 'int32' ? 2 ** 31 : 2 ** 63;
      const fits = Number.isInteger(value) && (value as number) >= -limit && (value as number) < limit;
      return fits ? undefined : `number ${String(value)}`;
    }
    case 'array':
      return kind === 'array' ? undefined : kind;
    case 'object':
      return kind === 'object' ? undefined : kind;
    default:
      return undefined;
  }
}

interface Walk {
  /** The innermost Go struct around the field (Go's UnmarshalTypeError.Struct). */
  struct: string;
  /** Dotted JSON field names from the root, without indices or map keys (UnmarshalTypeError.Field). */
  goPath: string;
  /** The field path kube reports unknown fields with (`spec.ports[0].foo`). */
  path: string;
}

export interface TypedDecoding {
  value: unknown;
  /** Unknown field paths, in document order. */
  unknown: string[];
  /** Go's decoding error for the first value of a wrong type. */
  typeError?: string;
}

function join(path: string, key: string): string {
  return path === '' ? key : `${path}.${key}`;
}

function decodeValue(typed: Typed, value: unknown, at: Walk, result: TypedDecoding): unknown {
  const { schema } = typed;
  const wrong = mismatch(schema, value);
  if (wrong !== undefined) {
    result.typeError ??= `json: cannot unmarshal ${wrong} into Go struct field ${at.struct}.${at.goPath} of type ${goType(typed)}`;
    return value;
  }
  if (value === null || customDecoded(schema)) return value;
  if (schema.format === 'byte' && typeof value === 'string') {
    // Go decodes []byte from base64 and keeps its error as the decoding's first error.
    const corruptAt = goBase64CorruptOffset(value);
    if (corruptAt !== undefined) result.typeError ??= `illegal base64 data at input byte ${corruptAt}`;
    return value;
  }
  if (Array.isArray(value) && schema.items !== undefined) {
    const items = resolved(schema.items);
    return value.map((item, index) =>
      decodeValue(items, item, { ...at, path: `${at.path}[${index}]` }, result),
    );
  }
  if (!isJsonObject(value)) return value;
  if (schema.properties !== undefined) {
    const struct = typed.definition === undefined ? at.struct : shortName(typed.definition);
    const decoded: Record<string, unknown> = {};
    for (const [key, child] of Object.entries(value)) {
      const property = schema.properties[key];
      const path = join(at.path, key);
      if (property === undefined) {
        result.unknown.push(path);
        continue;
      }
      decoded[key] = decodeValue(
        resolved(property),
        child,
        { struct, goPath: join(at.goPath, key), path },
        result,
      );
    }
    return decoded;
  }
  const values = schema.additionalProperties;
  if (typeof values !== 'object') return value;
  const valueType = resolved(values);
  return Object.fromEntries(
    Object.entries(value).map(([key, child]) => [
      key,
      decodeValue(valueType, child, { ...at, path: `${at.path}[${key}]` }, result),
    ]),
  );
}

/** Decodes a body against the schema of its kind (a definition name of the captured documents). */
export function decodeTyped(definition: string, body: unknown): TypedDecoding {
  const result: TypedDecoding = { value: undefined, unknown: [] };
  const typed = { schema: builtinDefinitions().get(definition) ?? {}, definition };
  result.value = decodeValue(typed, body, { struct: shortName(definition), goPath: '', path: '' }, result);
  return result;
}
