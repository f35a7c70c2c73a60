/**
 * The OpenAPI documents of what the server currently serves: the built-ins' as captured from
 * kube-apiserver, each CRD's rendered from its schema. Rebuilt when the served custom resources change;
 * each document is serialised once and named by its hash, as kube-apiserver does (/openapi/v3 lists
 * `<path>?hash=<SHA-512>`).
 */
import { createHash } from 'node:crypto';
import type { ResourceRegistry } from '../registry.ts';
import type { ResourceType } from '../resource-type.ts';
import { crdOpenApiV2, crdOpenApiV3, type CrdVersionView } from './crd-documents.ts';
import { kubeOpenApiData } from './kube-openapi-data.ts';
import { reachable } from './references.ts';

/** A document as sent: its JSON text and its hash (the ETag and the `hash` query of /openapi/v3). */
export interface SerializedDocument {
  readonly text: string;
  readonly hash: string;
}

function serialized(document: unknown): SerializedDocument {
  const text = JSON.stringify(document);
  return { text, hash: createHash('sha512').update(text).digest('hex').toUpperCase() };
}

function gvPath(group: string, version: string): string {
  return group === '' ? `api/${version}` : `apis/${group}/${version}`;
}

/** What each served version of a custom resource publishes. */
export function crdVersionViews(type: ResourceType): CrdVersionView[] {
  const spec = type.customResource;
  if (spec === undefined) return [];
  return spec.versions
    .filter((version) => version.served !== false && type.versions.includes(version.name))
    .map((version) => ({
      group: type.group,
      version: version.name,
      plural: type.plural,
      kind: type.kind,
      listKind: type.listKind,
      namespaced: type.namespaced,
      schema: version.schema?.openAPIV3Schema,
      status: version.subresources?.status !== undefined,
      scale: version.subresources?.scale !== undefined,
      selectableFields: (version.selectableFields ?? []).map((field) => field.jsonPath),
    }));
}

function sortedByKey<T>(entries: [string, T][]): Record<string, T> {
  return Object.fromEntries(entries.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
}

/** The documents that depend on the served custom resources, for one set of them. */
interface CustomDocuments {
  types: readonly ResourceType[];
  v3: Map<string, SerializedDocument>;
  v2: SerializedDocument;
}

export class OpenApiDocuments {
  readonly #registry: ResourceRegistry;
  readonly #builtins = new Map<string, SerializedDocument>();
  #custom: CustomDocuments | undefined;

  constructor(registry: ResourceRegistry) {
    this.#registry = registry;
  }

  /** /openapi/v3: every served group-version and the address of its document. */
  index(): { paths: Record<string, { serverRelativeURL: string }> } {
    const entries: [string, { serverRelativeURL: string }][] = [];
    for (const path of this.#groupVersionPaths()) {
      const document = this.v3(path);
      if (document !== undefined) {
        entries.push([path, { serverRelativeURL: `/openapi/v3/${path}?hash=${document.hash}` }]);
      }
    }
    return { paths: sortedByKey(entries) };
  }

  /** /openapi/v3/<path>, undefined when nothing is served there. */
  v3(path: string): SerializedDocument | undefined {
    const builtin = kubeOpenApiData().v3[path];
    if (builtin !== undefined) {
      let document = this.#builtins.get(path);
      if (document === undefined) {
        document = serialized(builtin);
        this.#builtins.set(path, document);
      }
      return document;
    }
    return this.#customDocuments().v3.get(path);
  }

  /** /openapi/v2: the built-ins' document with every custom resource merged in. */
  v2(): SerializedDocument {
    return this.#customDocuments().v2;
  }

  #groupVersionPaths(): string[] {
    return this.#registry
      .groups()
      .flatMap((entry) => entry.versions.map((version) => gvPath(entry.group, version)));
  }

  #customTypes(): ResourceType[] {
    return this.#registry
      .groups()
      .flatMap((entry) =>
        entry.versions.flatMap((version) => this.#registry.inGroupVersion(entry.group, version)),
      )
      .filter((type, index, all) => type.customResource !== undefined && all.indexOf(type) === index);
  }

  #customDocuments(): CustomDocuments {
    const types = this.#customTypes();
    const cached = this.#custom;
    if (cached !== undefined && sameTypes(cached.types, types)) return cached;
    const views = types.flatMap(crdVersionViews);
    const v3 = new Map<string, SerializedDocument>();
    for (const path of new Set(views.map((view) => gvPath(view.group, view.version)))) {
      v3.set(
        path,
        serialized(
          crdGroupVersionDocument(views.filter((view) => gvPath(view.group, view.version) === path)),
        ),
      );
    }
    const data = kubeOpenApiData();
    const parts = views.map(crdOpenApiV2);
    const v2 = serialized({
      ...data.v2,
      paths: sortedByKey([
        ...Object.entries(data.v2.paths),
        ...parts.flatMap((part) => Object.entries(part.paths)),
      ]),
      definitions: sortedByKey([
        ...Object.entries(data.v2.definitions),
        ...parts.flatMap((part) => Object.entries(part.definitions)),
      ]),
    });
    this.#custom = { types, v3, v2 };
    return this.#custom;
  }
}

function sameTypes(a: readonly ResourceType[], b: readonly ResourceType[]): boolean {
  return a.length === b.length && a.every((type, index) => type === b[index]);
}

/** The document of one custom group-version: every CRD served there, merged. */
function crdGroupVersionDocument(views: CrdVersionView[]): unknown {
  const template = kubeOpenApiData().crdTemplates.v3.Namespaced;
  const parts = views.map(crdOpenApiV3);
  const paths = sortedByKey(parts.flatMap((part) => Object.entries(part.paths)));
  const schemas = Object.fromEntries(parts.flatMap((part) => Object.entries(part.schemas)));
  // Shared schemas only a subresource refers to (Scale) stay out when no CRD here serves it.
  const used = reachable(paths, { 'components/schemas': schemas })['components/schemas'];
  return {
    openapi: template.openapi,
    info: template.info,
    paths,
    components: { ...template.components, schemas: used },
  };
}
