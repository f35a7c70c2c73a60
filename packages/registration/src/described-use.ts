/**
 * One shared schema node used at several fields, each with a description of its own (so
 * `kubectl explain` says what that field is for), while the TypeScript types keep one type for it:
 * schema-views.ts renders every described use as its shared node.
 */
import type { SchemaNode } from './schema-node.ts';

const sharedNodes = new WeakMap<SchemaNode, SchemaNode>();

export function describedUse(node: SchemaNode, description: string): SchemaNode {
  const use = { ...node, description };
  sharedNodes.set(use, sharedNodeOf(node));
  return use;
}

/** The shared node a described use stands for; any other node is its own. */
export function sharedNodeOf(node: SchemaNode): SchemaNode {
  return sharedNodes.get(node) ?? node;
}
