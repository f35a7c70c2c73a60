/**
 * Renders src/types.generated.ts, the user-facing CRDRegistration types, from SCHEMA.
 */
import { compile } from 'json-schema-to-typescript';
import { SCHEMA } from '../src/schema.ts';
import { toJsonSchema, type JsonSchema } from '../src/schema-views.ts';
import type { SchemaNode } from '../src/schema-node.ts';

const BANNER = `/* Generated from src/schema.ts by scripts/generate.ts (npm run generate). Do not edit. */`;

/** json-schema-to-typescript ignores OpenAPI's `nullable`; spell it as a union with null. */
function nullableAsUnion(schema: unknown, seen = new Map<unknown, unknown>()): unknown {
  if (Array.isArray(schema)) return schema.map((item) => nullableAsUnion(item, seen));
  if (schema === null || typeof schema !== 'object') return schema;
  // Keep shared nodes shared: the generator emits one named type per node object.
  const known = seen.get(schema);
  if (known !== undefined) return known;
  const { nullable, ...rest } = schema as JsonSchema;
  const mapped = Object.fromEntries(
    Object.entries(rest).map(([key, value]) => [key, nullableAsUnion(value, seen)]),
  );
  const result = nullable === true ? { anyOf: [mapped, { type: 'null' }] } : mapped;
  seen.set(schema, result);
  return result;
}

async function renderNode(node: SchemaNode | undefined, name: string): Promise<string> {
  if (node === undefined) throw new Error(`SCHEMA has no ${name}`);
  const schema = nullableAsUnion(toJsonSchema(node)) as Parameters<typeof compile>[0];
  return compile(schema, name, {
    bannerComment: '',
    additionalProperties: false,
    strictIndexSignatures: false,
    format: true,
    style: { singleQuote: true, printWidth: 110, trailingComma: 'all' },
  });
}

export async function renderTypes(): Promise<string> {
  const spec = await renderNode(SCHEMA.properties?.['spec'], 'CRDRegistrationSpec');
  const status = await renderNode(SCHEMA.properties?.['status'], 'CRDRegistrationStatus');
  return `${BANNER}\n\n${spec}\n${status}`;
}
