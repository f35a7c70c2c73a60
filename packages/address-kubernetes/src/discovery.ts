import { apiErrorMessage } from './api-message.ts';
import type { ApiGet } from './api-get.ts';
import { groupVersionPath, type ApiResource } from './api-paths.ts';

export type DiscoveryResult =
  { found: true; resource: ApiResource } | { found: false; message: string } | { unknownKind: true };

type DiscoveryFailure = Exclude<DiscoveryResult, { found: true }>;

/**
 * Maps apiVersion + kind to a resource through `/api/v1` and `/apis/<group>/<version>`. Answers are
 * cached per apiVersion; a kind missing from the cache triggers one refresh, so CRDs installed
 * after start-up are found.
 */
export function createDiscovery(get: ApiGet): (apiVersion: string, kind: string) => Promise<DiscoveryResult> {
  const cache = new Map<string, Map<string, ApiResource>>();
  return async (apiVersion, kind) => {
    const cached = cache.get(apiVersion)?.get(kind);
    if (cached !== undefined) return { found: true, resource: cached };
    const fetched = await fetchResources(get, apiVersion);
    if (!(fetched instanceof Map)) return fetched;
    cache.set(apiVersion, fetched);
    const resource = fetched.get(kind);
    return resource === undefined ? { unknownKind: true } : { found: true, resource };
  };
}

/** A group/version the server does not serve (404) makes every kind in it unknown. */
async function fetchResources(
  get: ApiGet,
  apiVersion: string,
): Promise<Map<string, ApiResource> | DiscoveryFailure> {
  const response = await get(groupVersionPath(apiVersion));
  if (response.status === 404) return { unknownKind: true };
  if (response.status !== 200) return { found: false, message: apiErrorMessage(response) };
  return resourcesByKind(response.body);
}

/** Top-level resources of an APIResourceList by kind; subresources (`brokers/status`) share their kind and are skipped. */
function resourcesByKind(list: unknown): Map<string, ApiResource> {
  const byKind = new Map<string, ApiResource>();
  const resources =
    typeof list === 'object' && list !== null && 'resources' in list ? list.resources : undefined;
  for (const entry of Array.isArray(resources) ? resources : []) {
    const { name, kind, namespaced } = entry as { name?: unknown; kind?: unknown; namespaced?: unknown };
    if (typeof name !== 'string' || name.includes('/') || typeof kind !== 'string') continue;
    byKind.set(kind, { name, namespaced: namespaced === true });
  }
  return byKind;
}
