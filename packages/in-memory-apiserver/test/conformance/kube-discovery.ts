/**
 * Discovery documents as kube-apiserver v1.34.4 serves them (captured from packages/kube-control-plane),
 * for the resources the in-memory server serves too. Both servers must answer exactly these.
 */

const ALL_VERBS = ['create', 'delete', 'deletecollection', 'get', 'list', 'patch', 'update', 'watch'];
const STATUS_VERBS = ['get', 'patch', 'update'];

/** /api/v1, in the order served (by name). */
export const CORE_V1_RESOURCES = [
  {
    name: 'configmaps',
    singularName: 'configmap',
    namespaced: true,
    kind: 'ConfigMap',
    verbs: ALL_VERBS,
    shortNames: ['cm'],
    storageVersionHash: 'qFsyl6wFWjQ=',
  },
  {
    name: 'events',
    singularName: 'event',
    namespaced: true,
    kind: 'Event',
    verbs: ALL_VERBS,
    shortNames: ['ev'],
    storageVersionHash: 'r2yiGXH7wu8=',
  },
  {
    name: 'namespaces',
    singularName: 'namespace',
    namespaced: false,
    kind: 'Namespace',
    verbs: ['create', 'delete', 'get', 'list', 'patch', 'update', 'watch'],
    shortNames: ['ns'],
    storageVersionHash: 'Q3oi5N2YM8M=',
  },
  { name: 'namespaces/status', singularName: '', namespaced: false, kind: 'Namespace', verbs: STATUS_VERBS },
  {
    name: 'secrets',
    singularName: 'secret',
    namespaced: true,
    kind: 'Secret',
    verbs: ALL_VERBS,
    storageVersionHash: 'S6u1pOWzb84=',
  },
  {
    name: 'serviceaccounts',
    singularName: 'serviceaccount',
    namespaced: true,
    kind: 'ServiceAccount',
    verbs: ALL_VERBS,
    shortNames: ['sa'],
    storageVersionHash: 'pbx9ZvyFpBE=',
  },
  {
    name: 'services',
    singularName: 'service',
    namespaced: true,
    kind: 'Service',
    verbs: ALL_VERBS,
    shortNames: ['svc'],
    categories: ['all'],
    storageVersionHash: '0/CO1lhkEBI=',
  },
  { name: 'services/status', singularName: '', namespaced: true, kind: 'Service', verbs: STATUS_VERBS },
];

/** /apis/apps/v1, in the order served. */
export const APPS_V1_RESOURCES = [
  {
    name: 'deployments',
    singularName: 'deployment',
    namespaced: true,
    kind: 'Deployment',
    verbs: ALL_VERBS,
    shortNames: ['deploy'],
    categories: ['all'],
    storageVersionHash: '8aSe+NMegvE=',
  },
  {
    name: 'deployments/scale',
    singularName: '',
    namespaced: true,
    group: 'autoscaling',
    version: 'v1',
    kind: 'Scale',
    verbs: STATUS_VERBS,
  },
  { name: 'deployments/status', singularName: '', namespaced: true, kind: 'Deployment', verbs: STATUS_VERBS },
  {
    name: 'statefulsets',
    singularName: 'statefulset',
    namespaced: true,
    kind: 'StatefulSet',
    verbs: ALL_VERBS,
    shortNames: ['sts'],
    categories: ['all'],
    storageVersionHash: 'H+vl74LkKdo=',
  },
  {
    name: 'statefulsets/scale',
    singularName: '',
    namespaced: true,
    group: 'autoscaling',
    version: 'v1',
    kind: 'Scale',
    verbs: STATUS_VERBS,
  },
  {
    name: 'statefulsets/status',
    singularName: '',
    namespaced: true,
    kind: 'StatefulSet',
    verbs: STATUS_VERBS,
  },
];

/** The other built-in group versions the in-memory server serves, whole. */
export const OTHER_GROUP_RESOURCES: Record<string, unknown[]> = {
  'events.k8s.io/v1': [
    {
      name: 'events',
      singularName: 'event',
      namespaced: true,
      kind: 'Event',
      verbs: ALL_VERBS,
      shortNames: ['ev'],
      // Stored as core v1 Events: the same hash as /api/v1 events.
      storageVersionHash: 'r2yiGXH7wu8=',
    },
  ],
  'coordination.k8s.io/v1': [
    {
      name: 'leases',
      singularName: 'lease',
      namespaced: true,
      kind: 'Lease',
      verbs: ALL_VERBS,
      storageVersionHash: 'gqkMMb/YqFM=',
    },
  ],
  'apiextensions.k8s.io/v1': [
    {
      name: 'customresourcedefinitions',
      singularName: 'customresourcedefinition',
      namespaced: false,
      kind: 'CustomResourceDefinition',
      verbs: ALL_VERBS,
      shortNames: ['crd', 'crds'],
      categories: ['api-extensions'],
      storageVersionHash: 'jfWCUB31mvA=',
    },
    {
      name: 'customresourcedefinitions/status',
      singularName: '',
      namespaced: false,
      kind: 'CustomResourceDefinition',
      verbs: STATUS_VERBS,
    },
  ],
  'rbac.authorization.k8s.io/v1': [
    {
      name: 'clusterrolebindings',
      singularName: 'clusterrolebinding',
      namespaced: false,
      kind: 'ClusterRoleBinding',
      verbs: ALL_VERBS,
      storageVersionHash: '48tpQ8gZHFc=',
    },
    {
      name: 'clusterroles',
      singularName: 'clusterrole',
      namespaced: false,
      kind: 'ClusterRole',
      verbs: ALL_VERBS,
      storageVersionHash: 'bYE5ZWDrJ44=',
    },
    {
      name: 'rolebindings',
      singularName: 'rolebinding',
      namespaced: true,
      kind: 'RoleBinding',
      verbs: ALL_VERBS,
      storageVersionHash: 'eGsCzGH6b1g=',
    },
    {
      name: 'roles',
      singularName: 'role',
      namespaced: true,
      kind: 'Role',
      verbs: ALL_VERBS,
      storageVersionHash: '7FuwZcIIItM=',
    },
  ],
};

/** The built-in groups of /apis in the order kube-apiserver lists them (by APIService priority). */
export const BUILTIN_GROUP_ORDER = [
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

/** Resources kube-apiserver serves that the in-memory server does not (a sample: Scoby never writes them). */
export const NOT_SERVED_IN_MEMORY: Record<string, string[]> = {
  v1: ['pods', 'pods/status', 'bindings', 'endpoints', 'nodes', 'namespaces/finalize', 'resourcequotas'],
  'apps/v1': ['replicasets', 'daemonsets', 'controllerrevisions'],
};
