import type { ApiGroupVersions, ResourceRegistry } from './registry.ts';
import { groupVersion, type ResourceType } from './resource-type.ts';

/**
 * The in-memory server behaves as kube-apiserver v1.34 (the conformance suite's reference) but reports
 * v1.31.0: kubectl 1.32 sends protobuf bodies to a server reporting v1.32 or later, and this server reads
 * only JSON and YAML.
 */
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

/**
 * The order kube-apiserver lists its built-in groups in (/apis): by the priority of their APIServices.
 * Custom resource groups come after them.
 */
const BUILTIN_GROUP_ORDER = [
  'apiregistration.k8s.io',
  'apps',
  'events.k8s.io',
  'authentication.k8s.io',
  'authorization.k8s.io',
  'autoscaling',
  'batch',
  'certificates.k8s.io',
  'networking.k8s.io',
  'policy',
  'rbac.authorization.k8s.io',
  'storage.k8s.io',
  'admissionregistration.k8s.io',
  'apiextensions.k8s.io',
  'scheduling.k8s.io',
  'coordination.k8s.io',
  'node.k8s.io',
  'discovery.k8s.io',
  'resource.k8s.io',
  'flowcontrol.apiserver.k8s.io',
];

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

/**
 * Built-in groups in their fixed order, then custom resource groups the way the aggregator sorts their
 * APIServices (all of one priority): by APIService name, `<version>.<group>`, a group placed by its first.
 */
function groupOrder(entry: ApiGroupVersions): [number, string] {
  const builtin = BUILTIN_GROUP_ORDER.indexOf(entry.group);
  if (builtin >= 0) return [builtin, ''];
  const serviceNames = entry.versions.map((version) => `${version}.${entry.group}`).sort();
  return [BUILTIN_GROUP_ORDER.length, serviceNames[0] ?? ''];
}

function compareGroups(a: ApiGroupVersions, b: ApiGroupVersions): number {
  const [rankA, nameA] = groupOrder(a);
  const [rankB, nameB] = groupOrder(b);
  if (rankA !== rankB) return rankA - rankB;
  return nameA < nameB ? -1 : nameA > nameB ? 1 : 0;
}

export function apiGroupList(registry: ResourceRegistry): unknown {
  const groups = registry
    .groups()
    .filter((entry) => entry.group !== '')
    .sort(compareGroups);
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

/** An APIResource of discovery (JSON keeps the order of the fields, as kube-apiserver writes them). */
interface ApiResource {
  name: string;
  singularName: string;
  namespaced: boolean;
  kind: string;
  group?: string;
  version?: string;
  verbs: readonly string[];
  shortNames?: readonly string[];
  categories?: readonly string[];
  storageVersionHash?: string;
}

function resourceEntries(type: ResourceType): ApiResource[] {
  const main: ApiResource = {
    name: type.plural,
    singularName: type.singular,
    namespaced: type.namespaced,
    kind: type.kind,
    verbs: type.verbs,
    ...(type.shortNames.length > 0 ? { shortNames: type.shortNames } : {}),
    ...(type.categories.length > 0 ? { categories: type.categories } : {}),
    storageVersionHash: type.storageVersionHash,
  };
  const subresourceVerbs = ['get', 'patch', 'update'];
  const status: ApiResource = {
    name: `${type.plural}/status`,
    singularName: '',
    namespaced: type.namespaced,
    kind: type.kind,
    verbs: subresourceVerbs,
  };
  const scale: ApiResource = {
    name: `${type.plural}/scale`,
    singularName: '',
    namespaced: type.namespaced,
    group: 'autoscaling',
    version: 'v1',
    kind: 'Scale',
    verbs: subresourceVerbs,
  };
  return [main, ...(type.statusSubresource ? [status] : []), ...(type.scale === undefined ? [] : [scale])];
}

function byName(a: ApiResource, b: ApiResource): number {
  return a.name < b.name ? -1 : a.name > b.name ? 1 : 0;
}

/**
 * /api/v1 or /apis/<group>/<version>, or undefined when nothing is served there. Built-in lists are in
 * name order, a custom resource lists its subresources after it; the core list has no apiVersion (as served).
 */
export function apiResourceList(registry: ResourceRegistry, group: string, version: string): unknown {
  const types = registry.inGroupVersion(group, version);
  if (types.length === 0) return undefined;
  const resources = types.flatMap(resourceEntries);
  return {
    kind: 'APIResourceList',
    ...(group === '' ? {} : { apiVersion: 'v1' }),
    groupVersion: groupVersion(group, version),
    resources: types.every((type) => type.builtin) ? resources.sort(byName) : resources,
  };
}
