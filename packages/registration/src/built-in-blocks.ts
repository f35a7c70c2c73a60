/**
 * The blocks of the built-in form factors in the registration schema (docs/spec/registration.md
 * §3.1). They are each form factor's own blockSchema: the form factors depend on this package, so
 * `npm run generate` copies their schemas into built-in-blocks.generated.ts, and a test fails when
 * that copy is stale. Here they become nodes of the CRD's structural schema.
 */
import { isPlainObject, type JsonObject } from '@scoby/kube-objects';
import { BUILT_IN_BLOCK_SCHEMAS } from './built-in-blocks.generated.ts';
import type { SchemaNode } from './schema-node.ts';

/** The keywords a block may use: those of SchemaNode, plus `default`, which the CRD leaves out. */
const NODE_KEYWORDS: ReadonlySet<string> = new Set<keyof SchemaNode>([
  'type',
  'title',
  'description',
  'properties',
  'required',
  'additionalProperties',
  'items',
  'enum',
  'format',
  'minLength',
  'minimum',
  'maximum',
  'nullable',
  'x-kubernetes-preserve-unknown-fields',
  'x-kubernetes-int-or-string',
]);

/**
 * A block schema as a schema node, without its `default`s: the API server would write them into
 * the registration, while Scoby applies them to its working copy only and keeps the registration as
 * written. A keyword the structural schema cannot hold is an error, with the path to it.
 */
function schemaNode(schema: JsonObject, path: string): SchemaNode {
  const node: Record<string, unknown> = {};
  for (const [keyword, value] of Object.entries(schema)) {
    if (keyword === 'default') continue;
    if (!NODE_KEYWORDS.has(keyword))
      throw new Error(`the block schema has "${keyword}" at ${path}, which a CRD's schema node cannot hold`);
    if (keyword === 'properties') {
      node[keyword] = Object.fromEntries(
        Object.entries(objectAt(value, `${path}.properties`)).map(([name, child]) => [
          name,
          schemaNode(objectAt(child, `${path}.${name}`), `${path}.${name}`),
        ]),
      );
    } else if (keyword === 'items' || keyword === 'additionalProperties') {
      node[keyword] = schemaNode(objectAt(value, `${path}.${keyword}`), `${path}.${keyword}`);
    } else {
      node[keyword] = value;
    }
  }
  return node as SchemaNode;
}

function objectAt(value: unknown, path: string): JsonObject {
  if (!isPlainObject(value)) throw new Error(`the block schema at ${path} is not an object`);
  return value as JsonObject;
}

/**
 * The node of one built-in block under spec.workload.formFactor: named for the generated types
 * (`deployment` → `DeploymentFormFactor`) and nullable, as a key written without a block is.
 */
export function builtInBlockNode(name: string, blockSchema: JsonObject): SchemaNode {
  const { type, description, ...rest } = schemaNode(blockSchema, name);
  const title = `${name.charAt(0).toUpperCase()}${name.slice(1)}FormFactor`;
  // The CRD's key order: title, type, description, nullable, then the block's own.
  return {
    title,
    ...(type === undefined ? {} : { type }),
    ...(description === undefined ? {} : { description }),
    nullable: true,
    ...rest,
  };
}

/** The built-in blocks, by their key under spec.workload.formFactor. */
export function builtInBlockNodes(
  schemas: Readonly<Record<string, JsonObject>> = BUILT_IN_BLOCK_SCHEMAS,
): Record<string, SchemaNode> {
  return Object.fromEntries(
    Object.entries(schemas).map(([name, schema]) => [name, builtInBlockNode(name, schema)]),
  );
}
