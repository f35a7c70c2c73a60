/**
 * A walk over a custom resource and its structural schema, node by node, with the node's field path as
 * kube-apiserver prints it and, on updates, the old value the node correlates with (same property, same
 * map key, same key of an `x-kubernetes-list-type: map` item; other list items correlate with nothing).
 */
import { deepEqual, isJsonObject, type JSONSchemaProps } from '@scoby/structural-schema';

export interface SchemaNode {
  schema: JSONSchemaProps;
  value: unknown;
  /** `spec.ports[1]`; '' for the root. */
  path: string;
  /** The correlated old value; `undefined` when there is none (a create, or a new node). */
  old: unknown;
}

/** Sentinel for "no old value": absent and null differ. */
export const NO_OLD: unique symbol = Symbol('no old value');

export function childPath(path: string, key: string): string {
  return path === '' ? key : `${path}.${key}`;
}

/** The keys of a map-list item, in the order of x-kubernetes-list-map-keys. */
export function mapKeysOf(schema: JSONSchemaProps, item: unknown): Record<string, unknown> | undefined {
  const keys = schema['x-kubernetes-list-map-keys'] ?? [];
  if (!isJsonObject(item)) return undefined;
  return Object.fromEntries(keys.map((key) => [key, item[key]]));
}

function correlatedItem(schema: JSONSchemaProps, old: unknown, item: unknown): unknown {
  if (schema['x-kubernetes-list-type'] !== 'map' || !Array.isArray(old)) return NO_OLD;
  const keys = mapKeysOf(schema, item);
  const match = old.find((candidate) => deepEqual(mapKeysOf(schema, candidate), keys));
  return match === undefined ? NO_OLD : match;
}

/** Calls `visit` on every node that has a schema, parents before children. */
export function walkSchema(
  schema: JSONSchemaProps,
  value: unknown,
  old: unknown,
  path: string,
  visit: (node: SchemaNode) => void,
): void {
  visit({ schema, value, path, old: old === NO_OLD ? undefined : old });
  if (isJsonObject(value)) {
    const oldMap = isJsonObject(old) ? old : {};
    const additional =
      typeof schema.additionalProperties === 'object' ? schema.additionalProperties : undefined;
    for (const [key, child] of Object.entries(value)) {
      const property = schema.properties?.[key];
      const childSchema = property ?? additional;
      if (childSchema === undefined) continue;
      const oldChild = key in oldMap ? oldMap[key] : NO_OLD;
      walkSchema(childSchema, child, oldChild, property ? childPath(path, key) : `${path}[${key}]`, visit);
    }
  } else if (Array.isArray(value) && schema.items !== undefined) {
    const items = schema.items;
    value.forEach((item, index) =>
      walkSchema(items, item, correlatedItem(schema, old, item), `${path}[${index}]`, visit),
    );
  }
}
