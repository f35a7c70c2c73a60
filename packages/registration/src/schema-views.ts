/**
 * Plain JSON Schema view of the structural schema, for tools that do not know the Kubernetes
 * extensions (ajv, json-schema-to-typescript). `nullable` is kept: ajv understands it natively and the
 * type renderer maps it itself.
 */
import { isClosedSet } from './closed-set.ts';
import { sharedNodeOf } from './described-use.ts';
import type { SchemaNode } from './schema-node.ts';

export type JsonSchema = { [keyword: string]: unknown };

/** Shared nodes map to one shared view, so the type generator emits one type for them. */
const views = new WeakMap<SchemaNode, JsonSchema>();

export function toJsonSchema(use: SchemaNode): JsonSchema {
  const node = sharedNodeOf(use);
  const known = views.get(node);
  if (known !== undefined) return known;
  const {
    properties,
    items,
    additionalProperties,
    'x-kubernetes-preserve-unknown-fields': preserveUnknown,
    'x-kubernetes-int-or-string': intOrString,
    ...plain
  } = node;
  const view: JsonSchema = { ...plain };
  if (isClosedSet(use)) delete view['enum'];
  if (intOrString === true) view['type'] = ['integer', 'string'];
  if (properties !== undefined) {
    view['properties'] = Object.fromEntries(
      Object.entries(properties).map(([key, child]) => [key, toJsonSchema(child)]),
    );
  }
  if (items !== undefined) view['items'] = toJsonSchema(items);
  if (additionalProperties !== undefined) view['additionalProperties'] = toJsonSchema(additionalProperties);
  // Elsewhere unknown keys never reach Scoby (the API server prunes them), so they are not rejected.
  else if (preserveUnknown === true) view['additionalProperties'] = true;
  views.set(node, view);
  return view;
}
