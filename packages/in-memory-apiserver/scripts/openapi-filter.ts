/**
 * Cuts kube-apiserver's OpenAPI documents down to what the in-memory server serves: the paths of its
 * resources and subresources (no deprecated /watch/ paths, which it does not serve) and the definitions
 * and shared parameters those paths reach, transitively.
 */
import { reachable } from '../src/openapi/references.ts';

/** One served resource: `/api/v1/…` when group is ''. */
export interface ServedResource {
  group: string;
  version: string;
  plural: string;
  subresources: readonly string[];
}

type JsonObject = Record<string, unknown>;

function groupVersionPrefix(group: string, version: string): string {
  return group === '' ? `/api/${version}/` : `/apis/${group}/${version}/`;
}

/** Whether an OpenAPI path is one the in-memory server answers (resource paths and discovery of served group-versions). */
export function isServedPath(path: string, served: readonly ServedResource[]): boolean {
  if (path === '/version/' || path === '/api/' || path === '/apis/') return true;
  for (const resource of served) {
    const prefix = groupVersionPrefix(resource.group, resource.version);
    if (resource.group !== '' && path === `/apis/${resource.group}/`) return true;
    if (!path.startsWith(prefix)) continue;
    const rest = path.slice(prefix.length);
    if (rest === '') return true;
    const parts = rest.split('/');
    const local =
      parts[0] === 'namespaces' && parts[1] === '{namespace}' && parts.length > 2 ? parts.slice(2) : parts;
    const [plural, name, subresource, ...extra] = local;
    if (plural !== resource.plural || extra.length > 0) continue;
    if (name === undefined) return true;
    if (subresource === undefined || resource.subresources.includes(subresource)) return true;
  }
  return false;
}

function servedPaths(paths: JsonObject, served: readonly ServedResource[]): JsonObject {
  return Object.fromEntries(Object.entries(paths).filter(([path]) => isServedPath(path, served)));
}

/** A swagger 2.0 document reduced to the served paths, the definitions and parameters they use. */
export function filterV2(document: JsonObject, served: readonly ServedResource[]): JsonObject {
  const paths = servedPaths(document.paths as JsonObject, served);
  const kept = reachable(paths, {
    definitions: document.definitions as JsonObject,
    parameters: document.parameters as JsonObject,
  });
  return { ...document, paths, definitions: kept.definitions, parameters: kept.parameters };
}

/** An OpenAPI 3 group-version document reduced to the served paths and the schemas they use. */
export function filterV3(document: JsonObject, served: readonly ServedResource[]): JsonObject {
  const paths = servedPaths(document.paths as JsonObject, served);
  const components = document.components as JsonObject;
  const kept = reachable(paths, { 'components/schemas': components.schemas as JsonObject });
  return { ...document, paths, components: { ...components, schemas: kept['components/schemas'] } };
}

/**
 * Splits a filtered swagger 2.0 document into the part of the given groups (their paths and the
 * definitions named after them, `<reversed group>.<version>.<Kind>`) and the rest.
 */
export function splitV2ByGroup(
  document: JsonObject,
  groups: readonly string[],
): { rest: JsonObject; groups: { paths: JsonObject; definitions: JsonObject } } {
  const ofGroups = (path: string): boolean => groups.some((group) => path.startsWith(`/apis/${group}/`));
  const prefixes = groups.map((group) => `${group.split('.').reverse().join('.')}.`);
  const named = (name: string): boolean => prefixes.some((prefix) => name.startsWith(prefix));
  const paths = Object.entries(document.paths as JsonObject);
  const definitions = Object.entries(document.definitions as JsonObject);
  return {
    rest: {
      ...document,
      paths: Object.fromEntries(paths.filter(([path]) => !ofGroups(path))),
      definitions: Object.fromEntries(definitions.filter(([name]) => !named(name))),
    },
    groups: {
      paths: Object.fromEntries(paths.filter(([path]) => ofGroups(path))),
      definitions: Object.fromEntries(definitions.filter(([name]) => named(name))),
    },
  };
}
