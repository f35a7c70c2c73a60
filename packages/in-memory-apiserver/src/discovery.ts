import type { ResourceRegistry } from './registry.ts';
import { groupVersion, type ResourceType } from './resource-type.ts';

const VERBS = ['create', 'delete', 'deletecollection', 'get', 'list', 'patch', 'update', 'watch'];

export const VERSION_INFO = {
  major: '1',
  minor: '31',
  gitVersion: 'v1.31.0',
  gitCommit: 'in-memory',
  gitTreeState: 'clean',
  buildDate: '2024-08-13T00:00:00Z',
  goVersion: 'go1.22.5',
  compiler: 'gc',
  platform: 'linux/amd64',
};

export function apiVersions(serverAddress: string): unknown {
  return {
    kind: 'APIVersions',
    versions: ['v1'],
    serverAddressByClientCIDRs: [{ clientCIDR: '0.0.0.0/0', serverAddress }],
  };
}

function apiGroup(group: string, versions: string[]): unknown {
  const entries = versions.map((version) => ({ groupVersion: groupVersion(group, version), version }));
  return { name: group, versions: entries, preferredVersion: entries[0] };
}

export function apiGroupList(registry: ResourceRegistry): unknown {
  const groups = registry.groups().filter((entry) => entry.group !== '');
  return {
    kind: 'APIGroupList',
    apiVersion: 'v1',
    groups: groups.map((entry) => apiGroup(entry.group, entry.versions)),
  };
}

/** /apis/<group>, or undefined when the group is not served. */
export function apiGroupDocument(registry: ResourceRegistry, group: string): unknown {
  const entry = registry.groups().find((candidate) => candidate.group === group && group !== '');
  return entry === undefined
    ? undefined
    : { kind: 'APIGroup', apiVersion: 'v1', ...(apiGroup(entry.group, entry.versions) as object) };
}

function resourceEntries(type: ResourceType): unknown[] {
  const main = {
    name: type.plural,
    singularName: type.singular,
    namespaced: type.namespaced,
    kind: type.kind,
    verbs: VERBS,
    ...(type.shortNames.length > 0 ? { shortNames: type.shortNames } : {}),
    ...(type.categories.length > 0 ? { categories: type.categories } : {}),
  };
  if (!type.statusSubresource) return [main];
  return [
    main,
    {
      name: `${type.plural}/status`,
      singularName: '',
      namespaced: type.namespaced,
      kind: type.kind,
      verbs: ['get', 'patch', 'update'],
    },
  ];
}

/** /api/v1 or /apis/<group>/<version>, or undefined when nothing is served there. */
export function apiResourceList(registry: ResourceRegistry, group: string, version: string): unknown {
  const types = registry.inGroupVersion(group, version);
  if (types.length === 0) return undefined;
  return {
    kind: 'APIResourceList',
    apiVersion: 'v1',
    groupVersion: groupVersion(group, version),
    resources: types.flatMap(resourceEntries),
  };
}
