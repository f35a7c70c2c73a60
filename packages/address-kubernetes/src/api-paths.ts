import type { ObjectRef } from '@scoby/address';

/** What discovery tells about a kind: its plural resource name and whether it lives in namespaces. */
export interface ApiResource {
  name: string;
  namespaced: boolean;
}

/** `/api/v1` for the core group, `/apis/<group>/<version>` otherwise. */
export function groupVersionPath(apiVersion: string): string {
  const segments = apiVersion.split('/').map(encodeURIComponent).join('/');
  return apiVersion.includes('/') ? `/apis/${segments}` : `/api/${segments}`;
}

export function objectPath(ref: ObjectRef, resource: ApiResource): string {
  const scope = resource.namespaced ? `/namespaces/${encodeURIComponent(ref.namespace)}` : '';
  return `${groupVersionPath(ref.apiVersion)}${scope}/${encodeURIComponent(resource.name)}/${encodeURIComponent(ref.name)}`;
}
