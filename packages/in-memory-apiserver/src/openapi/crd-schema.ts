/**
 * The schema kube-apiserver publishes for a custom resource kind (apiextensions-apiserver's OpenAPI
 * builder): the CRD's structural schema as Kubernetes' OpenAPI model keeps it (unknown keywords and
 * empty values dropped, int-or-string unfolded), `apiVersion`, `kind` and a `metadata` reference set at
 * the root and in embedded resources, and the kind in x-kubernetes-group-version-kind. OpenAPI v2 loses
 * what it cannot say (ToStructuralOpenAPIV2) and every default.
 */
import type { JSONSchemaProps } from '@scoby/structural-schema';
import type { OpenApiSchema } from './kube-openapi-data.ts';

export interface KindNames {
  group: string;
  version: string;
  kind: string;
}

/** The root properties every kind gets, as the captured template CRD has them (OpenAPI v3 form). */
export interface TypeMetaProperties {
  apiVersion: OpenApiSchema;
  kind: OpenApiSchema;
  metadata: OpenApiSchema;
}

type Schema = Record<string, unknown>;

/** What Kubernetes' structural schema keeps (Generic, Extensions, ValueValidation, ValidationExtensions). */
const KEPT_KEYWORDS = [
  'type',
  'nullable',
  'description',
  'title',
  'default',
  'format',
  'maximum',
  'exclusiveMaximum',
  'minimum',
  'exclusiveMinimum',
  'maxLength',
  'minLength',
  'pattern',
  'maxItems',
  'minItems',
  'uniqueItems',
  'multipleOf',
  'enum',
  'maxProperties',
  'minProperties',
  'required',
  'allOf',
  'anyOf',
  'oneOf',
  'not',
  'items',
  'properties',
  'additionalProperties',
  'x-kubernetes-preserve-unknown-fields',
  'x-kubernetes-embedded-resource',
  'x-kubernetes-int-or-string',
  'x-kubernetes-list-map-keys',
  'x-kubernetes-list-type',
  'x-kubernetes-map-type',
  'x-kubernetes-validations',
];

/** Go's `omitempty`: false, '', empty lists and maps are not written. */
function isEmpty(value: unknown): boolean {
  if (value === undefined || value === null || value === false || value === '') return true;
  if (Array.isArray(value)) return value.length === 0;
  return typeof value === 'object' && Object.keys(value).length === 0;
}

const INT_OR_STRING_ANY_OF = [{ type: 'integer' }, { type: 'string' }];

function isIntOrStringPattern(anyOf: unknown): boolean {
  return JSON.stringify(anyOf) === JSON.stringify(INT_OR_STRING_ANY_OF);
}

/** A CRD schema node as Kubernetes' OpenAPI model has it, recursively. */
function normalized(node: JSONSchemaProps): Schema {
  const source = node as Schema;
  const out: Schema = {};
  for (const keyword of KEPT_KEYWORDS) {
    const value = source[keyword];
    if (keyword !== 'default' && isEmpty(value)) continue;
    if (keyword === 'default' && value === undefined) continue;
    if (keyword === 'properties') {
      out.properties = Object.fromEntries(
        Object.entries(value as Record<string, JSONSchemaProps>).map(([name, inner]) => [
          name,
          normalized(inner),
        ]),
      );
    } else if (keyword === 'items') {
      out.items = normalized(value as JSONSchemaProps);
    } else if (keyword === 'additionalProperties') {
      out.additionalProperties = typeof value === 'boolean' ? value : normalized(value as JSONSchemaProps);
    } else {
      out[keyword] = value;
    }
  }
  if (out['x-kubernetes-int-or-string'] === true) unfoldIntOrString(out);
  return out;
}

/** Schema.Unfold: int-or-string gets its anyOf spelled out, unless it is already there. */
function unfoldIntOrString(node: Schema): void {
  const allOf = node.allOf as Schema[] | undefined;
  if (isIntOrStringPattern(node.anyOf) || isIntOrStringPattern(allOf?.[0]?.anyOf)) return;
  if (node.anyOf === undefined) node.anyOf = INT_OR_STRING_ANY_OF;
  else node.allOf = [{ anyOf: INT_OR_STRING_ANY_OF }, ...(allOf ?? [])];
}

/** ToStructuralOpenAPIV2, node first, then what is left of its children. */
function toOpenApiV2(node: Schema): Schema {
  const out: Schema = { ...node };
  delete out.allOf;
  delete out.anyOf;
  delete out.oneOf;
  delete out.not;
  delete out.default;
  const properties = node.properties as Record<string, Schema> | undefined;
  const nullableNames = Object.entries(properties ?? {})
    .filter(([, inner]) => inner.nullable === true)
    .map(([name]) => name);
  if (out.nullable === true) {
    delete out.type;
    delete out.nullable;
    delete out.items;
    delete out.properties;
  }
  const preserves = out['x-kubernetes-preserve-unknown-fields'] === true;
  if (preserves) {
    delete out.items;
    delete out.properties;
  }
  if (out.items === undefined && out.type === 'array') delete out.type;
  if (preserves && out.type === 'object') delete out.type;
  if (Array.isArray(out.required)) {
    const additional = out.additionalProperties as Schema | boolean | undefined;
    const required =
      typeof additional === 'object' && additional.nullable === true
        ? []
        : (out.required as string[]).filter((name) => !nullableNames.includes(name));
    if (required.length === 0) delete out.required;
    else out.required = required;
  }
  if (out.items !== undefined) out.items = toOpenApiV2(out.items as Schema);
  if (out.properties !== undefined) {
    out.properties = Object.fromEntries(
      Object.entries(out.properties as Record<string, Schema>).map(([name, inner]) => [
        name,
        toOpenApiV2(inner),
      ]),
    );
  }
  if (typeof out.additionalProperties === 'object') {
    out.additionalProperties = toOpenApiV2(out.additionalProperties as Schema);
  }
  return out;
}

/** A v3 reference property (`{description, allOf: [{$ref}]}`) in its v2 form (`{description, $ref}`). */
export function referenceV2(property: OpenApiSchema): OpenApiSchema {
  const ref = property.allOf?.[0]?.$ref;
  if (ref === undefined) return property;
  const { allOf: _allOf, ...rest } = property;
  return { ...rest, $ref: ref.replace('#/components/schemas/', '#/definitions/') };
}

const EMBEDDED_API_VERSION =
  'apiVersion defines the versioned schema of this representation of an object. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#resources';
const EMBEDDED_KIND =
  'kind is a string value representing the type of this object. In CamelCase. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#types-kinds';

/** addEmbeddedProperties: an embedded resource is a whole object, with its type meta and metadata. */
function withEmbeddedProperties(node: Schema, meta: TypeMetaProperties, v2: boolean): Schema {
  const out: Schema = { ...node };
  if (out.properties !== undefined) {
    out.properties = Object.fromEntries(
      Object.entries(out.properties as Record<string, Schema>).map(([name, inner]) => [
        name,
        withEmbeddedProperties(inner, meta, v2),
      ]),
    );
  }
  if (out.items !== undefined) out.items = withEmbeddedProperties(out.items as Schema, meta, v2);
  if (typeof out.additionalProperties === 'object') {
    out.additionalProperties = withEmbeddedProperties(out.additionalProperties as Schema, meta, v2);
  }
  if (v2 && out['x-kubernetes-preserve-unknown-fields'] === true) return out;
  if (out['x-kubernetes-embedded-resource'] !== true) return out;
  out.properties = {
    ...(out.properties as Schema | undefined),
    apiVersion: { ...meta.apiVersion, description: EMBEDDED_API_VERSION },
    kind: { ...meta.kind, description: EMBEDDED_KIND },
    metadata: v2 ? referenceV2(meta.metadata) : meta.metadata,
  };
  const required = (out.required as string[] | undefined) ?? [];
  out.required = [...required, ...['kind', 'apiVersion'].filter((name) => !required.includes(name))];
  return out;
}

function groupVersionKind(names: KindNames): Schema {
  return {
    'x-kubernetes-group-version-kind': [{ group: names.group, kind: names.kind, version: names.version }],
  };
}

function sortedProperties(schema: Schema): Schema {
  const properties = schema.properties as Schema | undefined;
  if (properties === undefined) return schema;
  const names = Object.keys(properties).sort();
  return { ...schema, properties: Object.fromEntries(names.map((name) => [name, properties[name]])) };
}

/** The kind's schema in /openapi/v3/apis/<group>/<version>. */
export function crdKindSchemaV3(
  schema: JSONSchemaProps | undefined,
  names: KindNames,
  meta: TypeMetaProperties,
  extensions: Schema = {},
): OpenApiSchema {
  if (schema === undefined) return { type: 'object', ...groupVersionKind(names), ...extensions };
  const root = withEmbeddedProperties(normalized(schema), meta, false);
  root.properties = {
    ...(root.properties as Schema | undefined),
    metadata: meta.metadata,
    apiVersion: meta.apiVersion,
    kind: meta.kind,
  };
  return { ...sortedProperties(root), ...groupVersionKind(names), ...extensions } as OpenApiSchema;
}

/** The kind's definition in /openapi/v2: a schema that preserves unknown fields at its root is just an object. */
export function crdKindSchemaV2(
  schema: JSONSchemaProps | undefined,
  names: KindNames,
  meta: TypeMetaProperties,
  extensions: Schema = {},
): OpenApiSchema {
  if (schema === undefined || schema['x-kubernetes-preserve-unknown-fields'] === true) {
    return { type: 'object', ...groupVersionKind(names), ...extensions };
  }
  const root = withEmbeddedProperties(toOpenApiV2(normalized(schema)), meta, true);
  root.properties = {
    ...(root.properties as Schema | undefined),
    metadata: referenceV2(meta.metadata),
    apiVersion: meta.apiVersion,
    kind: meta.kind,
  };
  return { ...sortedProperties(root), ...groupVersionKind(names), ...extensions } as OpenApiSchema;
}
