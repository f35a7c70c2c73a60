/**
 * A closed set of values the spec calls every other value of invalid (hook version and capabilities,
 * built-in functions). It is an `enum` in the CRD, so the API server refuses an unknown value at
 * `kubectl apply`; the plain JSON Schema view (ajv, TypeScript types) leaves it out, because the
 * registration's own validation reports such a value with its §4 message, and the types describe what
 * a user may have written (objects stored before the enum existed included).
 */
import type { SchemaNode } from './schema-node.ts';

const closedSets = new WeakSet<SchemaNode>();

export function closedSet(node: SchemaNode, values: readonly (string | number)[]): SchemaNode {
  const restricted = { ...node, enum: [...values] };
  closedSets.add(restricted);
  return restricted;
}

export function isClosedSet(node: SchemaNode): boolean {
  return closedSets.has(node);
}
