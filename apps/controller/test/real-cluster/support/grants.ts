import type { KubeObject } from '@scoby/kube-objects';

/** The ClusterRole a cluster admin writes for a registered CRD (docs/spec/registration.md §7): aggregated into Scoby's. */
export function registeredKindRole(group: string, plural: string): KubeObject {
  return {
    apiVersion: 'rbac.authorization.k8s.io/v1',
    kind: 'ClusterRole',
    metadata: {
      name: `scoby-${plural}.${group}`,
      labels: { 'scoby.triggermesh.io/crdregistration': 'true' },
    },
    rules: [
      { apiGroups: [group], resources: [plural], verbs: ['get', 'list', 'watch', 'update', 'patch'] },
      { apiGroups: [group], resources: [`${plural}/status`], verbs: ['get', 'update', 'patch'] },
    ],
  } as KubeObject;
}
