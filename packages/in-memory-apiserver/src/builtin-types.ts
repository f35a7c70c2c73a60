import type { ScaleSubresource } from './crd-spec.ts';
import { BUILTIN_VERBS, storageVersionHash, type ResourceType, type Verb } from './resource-type.ts';

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
  verbs?: readonly Verb[];
  /** Default: the plural. */
  etcdPrefix?: string;
  /** The group and version objects are stored at, when not the served ones (events.k8s.io Events are core Events). */
  storedAs?: { group: string; version: string };
  /** Default true. */
  allowUnconditionalUpdate?: boolean;
  /** Default false. */
  allowCreateOnUpdate?: boolean;
  /** Default false. */
  returnDeletedObject?: boolean;
  /** Default false. */
  propagationUnsupported?: boolean;
  scale?: ScaleSubresource;
}

/** Deployments and StatefulSets scale `spec.replicas`; their Scale's selector is `spec.selector`, as text. */
const WORKLOAD_SCALE: ScaleSubresource = {
  specReplicasPath: '.spec.replicas',
  statusReplicasPath: '.status.replicas',
  labelSelectorPath: '.spec.selector',
};

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
    verbs: spec.verbs ?? BUILTIN_VERBS,
    etcdPrefix: spec.etcdPrefix ?? spec.plural,
    allowUnconditionalUpdate: spec.allowUnconditionalUpdate ?? true,
    ...(spec.allowCreateOnUpdate === true ? { allowCreateOnUpdate: true } : {}),
    ...(spec.returnDeletedObject === true ? { returnDeletedObject: true } : {}),
    ...(spec.propagationUnsupported === true ? { propagationUnsupported: true } : {}),
    ...(spec.scale === undefined ? {} : { scale: spec.scale }),
    storageVersionHash: storageVersionHash(
      spec.storedAs?.group ?? spec.group,
      spec.storedAs?.version ?? spec.version,
      spec.kind,
    ),
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
    verbs: BUILTIN_VERBS.filter((verb) => verb !== 'deletecollection'),
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
    allowCreateOnUpdate: true,
    returnDeletedObject: true,
    categories: ['all'],
    statusSubresource: true,
    etcdPrefix: 'services/specs',
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
    allowCreateOnUpdate: true,
    propagationUnsupported: true,
  }),
  builtin({
    group: 'events.k8s.io',
    version: 'v1',
    plural: 'events',
    kind: 'Event',
    namespaced: true,
    shortNames: ['ev'],
    storedAs: { group: '', version: 'v1' },
    allowCreateOnUpdate: true,
    propagationUnsupported: true,
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
    scale: WORKLOAD_SCALE,
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
    scale: WORKLOAD_SCALE,
  }),
  builtin({
    group: 'coordination.k8s.io',
    version: 'v1',
    plural: 'leases',
    kind: 'Lease',
    namespaced: true,
    allowUnconditionalUpdate: false,
    allowCreateOnUpdate: true,
  }),
  builtin({
    group: 'apiextensions.k8s.io',
    version: 'v1',
    plural: 'customresourcedefinitions',
    kind: 'CustomResourceDefinition',
    namespaced: false,
    shortNames: ['crd', 'crds'],
    categories: ['api-extensions'],
    storedAs: { group: 'apiextensions.k8s.io', version: 'v1beta1' },
    statusSubresource: true,
    tracksGeneration: true,
    etcdPrefix: 'apiextensions.k8s.io/customresourcedefinitions',
    allowUnconditionalUpdate: false,
  }),
  // Answered by the access policy (authorization.ts), never stored.
  builtin({
    group: 'authorization.k8s.io',
    version: 'v1',
    plural: 'selfsubjectaccessreviews',
    kind: 'SelfSubjectAccessReview',
    namespaced: false,
    verbs: ['create'],
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
