import type { ResourceType } from './resource-type.ts';

interface BuiltinSpec {
  group: string;
  version: string;
  plural: string;
  kind: string;
  namespaced: boolean;
  shortNames?: string[];
  categories?: string[];
  statusSubresource?: boolean;
  tracksGeneration?: boolean;
}

function builtin(spec: BuiltinSpec): ResourceType {
  return {
    group: spec.group,
    versions: [spec.version],
    plural: spec.plural,
    singular: spec.kind.toLowerCase(),
    kind: spec.kind,
    listKind: `${spec.kind}List`,
    namespaced: spec.namespaced,
    shortNames: spec.shortNames ?? [],
    categories: spec.categories ?? [],
    statusSubresource: spec.statusSubresource ?? false,
    builtin: true,
    tracksGeneration: spec.tracksGeneration ?? false,
    schemas: new Map(),
  };
}

/** The built-in resources this server serves (stored, validated lightly, RBAC not enforced). */
export const BUILTIN_TYPES: readonly ResourceType[] = [
  builtin({
    group: '',
    version: 'v1',
    plural: 'namespaces',
    kind: 'Namespace',
    namespaced: false,
    shortNames: ['ns'],
    statusSubresource: true,
  }),
  builtin({
    group: '',
    version: 'v1',
    plural: 'configmaps',
    kind: 'ConfigMap',
    namespaced: true,
    shortNames: ['cm'],
  }),
  builtin({ group: '', version: 'v1', plural: 'secrets', kind: 'Secret', namespaced: true }),
  builtin({
    group: '',
    version: 'v1',
    plural: 'services',
    kind: 'Service',
    namespaced: true,
    shortNames: ['svc'],
    categories: ['all'],
    statusSubresource: true,
  }),
  builtin({
    group: '',
    version: 'v1',
    plural: 'serviceaccounts',
    kind: 'ServiceAccount',
    namespaced: true,
    shortNames: ['sa'],
  }),
  builtin({
    group: '',
    version: 'v1',
    plural: 'events',
    kind: 'Event',
    namespaced: true,
    shortNames: ['ev'],
  }),
  builtin({
    group: 'events.k8s.io',
    version: 'v1',
    plural: 'events',
    kind: 'Event',
    namespaced: true,
    shortNames: ['ev'],
  }),
  builtin({
    group: 'apps',
    version: 'v1',
    plural: 'deployments',
    kind: 'Deployment',
    namespaced: true,
    shortNames: ['deploy'],
    categories: ['all'],
    statusSubresource: true,
    tracksGeneration: true,
  }),
  builtin({
    group: 'apps',
    version: 'v1',
    plural: 'statefulsets',
    kind: 'StatefulSet',
    namespaced: true,
    shortNames: ['sts'],
    categories: ['all'],
    statusSubresource: true,
    tracksGeneration: true,
  }),
  builtin({ group: 'coordination.k8s.io', version: 'v1', plural: 'leases', kind: 'Lease', namespaced: true }),
  builtin({
    group: 'apiextensions.k8s.io',
    version: 'v1',
    plural: 'customresourcedefinitions',
    kind: 'CustomResourceDefinition',
    namespaced: false,
    shortNames: ['crd', 'crds'],
    statusSubresource: true,
    tracksGeneration: true,
  }),
  builtin({
    group: 'rbac.authorization.k8s.io',
    version: 'v1',
    plural: 'clusterroles',
    kind: 'ClusterRole',
    namespaced: false,
  }),
  builtin({
    group: 'rbac.authorization.k8s.io',
    version: 'v1',
    plural: 'roles',
    kind: 'Role',
    namespaced: true,
  }),
  builtin({
    group: 'rbac.authorization.k8s.io',
    version: 'v1',
    plural: 'clusterrolebindings',
    kind: 'ClusterRoleBinding',
    namespaced: false,
  }),
  builtin({
    group: 'rbac.authorization.k8s.io',
    version: 'v1',
    plural: 'rolebindings',
    kind: 'RoleBinding',
    namespaced: true,
  }),
];
