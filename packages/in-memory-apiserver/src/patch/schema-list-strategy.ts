/**
 * Server-side apply merges lists as the object's schema says (x-kubernetes-list-type and
 * x-kubernetes-list-map-keys): a map list by all its keys (a Service's ports by port and protocol), a
 * set by value, any other list atomically. For built-in kinds, paths the schema does not describe keep
 * the strategic-merge-patch keys.
 */
import type { JSONSchemaProps } from '@scoby/structural-schema';
import { resolveSchema, type OpenApiSchema } from '../openapi/builtin-schemas.ts';
import { ITEM, listStrategy, type ListStrategy } from './merge-keys.ts';
import type { StrategyAt } from './server-side-apply.ts';

function childOf(schema: OpenApiSchema, segment: string): OpenApiSchema | undefined {
  if (segment === ITEM) return schema.items;
  const property = schema.properties?.[segment];
  if (property !== undefined) return property;
  return typeof schema.additionalProperties === 'object' ? schema.additionalProperties : undefined;
}

function strategyOf(list: OpenApiSchema): ListStrategy {
  switch (list['x-kubernetes-list-type']) {
    case 'set':
      return { kind: 'mergeScalars' };
    case 'map': {
      const keys = list['x-kubernetes-list-map-keys'] ?? [];
      const item = list.items === undefined ? {} : resolveSchema(list.items);
      const defaults = Object.fromEntries(
        keys.flatMap((key) => {
          const value = item.properties?.[key]?.default;
          return value === undefined ? [] : [[key, value]];
        }),
      );
      return { kind: 'mergeByKeys', keys, defaults };
    }
    default:
      return { kind: 'replace' };
  }
}

/**
 * The list strategies of one kind, from its schema (the kind's definition, references followed);
 * `undescribed` for a list the schema does not reach.
 */
export function schemaListStrategy(kind: OpenApiSchema, undescribed: StrategyAt = listStrategy): StrategyAt {
  return (path) => {
    let node: OpenApiSchema | undefined = kind;
    for (const segment of path) {
      node = node === undefined ? undefined : childOf(resolveSchema(node), segment);
    }
    // A property keeps its list metadata beside the reference, so read it before resolving.
    return node === undefined ? undescribed(path) : strategyOf(node);
  };
}

const OBJECT_META: OpenApiSchema = {
  $ref: '#/components/schemas/io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta',
};

/**
 * A custom resource's lists as kube-apiserver merges them: by its CRD's schema, whose `metadata` is
 * ObjectMeta's (owner references by uid, finalizers a set); any list the schema does not type, or
 * does not describe (under x-kubernetes-preserve-unknown-fields), is atomic.
 */
export function customResourceListStrategy(schema: JSONSchemaProps): StrategyAt {
  // A structural schema is an OpenAPI v3 schema without references, so the built-in walk reads it.
  const crd = schema as OpenApiSchema;
  const withObjectMeta = { ...crd, properties: { ...crd.properties, metadata: OBJECT_META } };
  return schemaListStrategy(withObjectMeta, () => ({ kind: 'replace' }));
}
