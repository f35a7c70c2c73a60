/**
 * The OpenAPI v3 schemas of the built-in kinds, as kube-apiserver publishes them (captured into
 * data/kube-openapi.json): types, formats, required fields and the patch metadata
 * (x-kubernetes-patch-merge-key, -patch-strategy, -list-type, -list-map-keys, -map-type).
 */
import { kubeOpenApiData, type OpenApiSchema } from './kube-openapi-data.ts';

export type { OpenApiSchema } from './kube-openapi-data.ts';

export interface GroupVersionKind {
  group: string;
  version: string;
  kind: string;
}

const REF_PREFIX = '#/components/schemas/';

let definitions: ReadonlyMap<string, OpenApiSchema> | undefined;
let byKind: ReadonlyMap<string, string> | undefined;

function gvkKey(gvk: GroupVersionKind): string {
  return `${gvk.group}/${gvk.version}/${gvk.kind}`;
}

/** Every named schema of the captured v3 documents (one name means one schema in all of them). */
export function builtinDefinitions(): ReadonlyMap<string, OpenApiSchema> {
  if (definitions === undefined) {
    const all = new Map<string, OpenApiSchema>();
    for (const document of Object.values(kubeOpenApiData().v3)) {
      for (const [name, schema] of Object.entries(document.components.schemas)) all.set(name, schema);
    }
    definitions = all;
  }
  return definitions;
}

function kindIndex(): ReadonlyMap<string, string> {
  if (byKind === undefined) {
    const index = new Map<string, string>();
    for (const [name, schema] of builtinDefinitions()) {
      const gvks = schema['x-kubernetes-group-version-kind'] ?? [];
      // DeleteOptions, Status, WatchEvent… name every group; a kind's own schema names one.
      if (gvks.length === 1) index.set(gvkKey(gvks[0]!), name);
    }
    byKind = index;
  }
  return byKind;
}

/** The definition name of a built-in kind (`io.k8s.api.apps.v1.Deployment`), undefined for kinds not served. */
export function builtinSchemaName(gvk: GroupVersionKind): string | undefined {
  return kindIndex().get(gvkKey(gvk));
}

/** The schema of a built-in kind, undefined for kinds not served. */
export function builtinSchema(gvk: GroupVersionKind): OpenApiSchema | undefined {
  const name = builtinSchemaName(gvk);
  return name === undefined ? undefined : builtinDefinitions().get(name);
}

/**
 * The schema a property stands for, its reference followed: kube-apiserver writes a reference as
 * `{allOf: [{$ref}], description, default}`; the patch metadata sits beside it, on the property.
 */
export function resolveSchema(schema: OpenApiSchema): OpenApiSchema {
  const ref = schema.$ref ?? (schema.allOf?.length === 1 ? schema.allOf[0]?.$ref : undefined);
  if (ref === undefined) return schema;
  if (!ref.startsWith(REF_PREFIX)) throw new Error(`unexpected reference ${ref}`);
  const target = builtinDefinitions().get(ref.slice(REF_PREFIX.length));
  if (target === undefined) throw new Error(`no schema ${ref} in data/kube-openapi.json`);
  return target;
}
