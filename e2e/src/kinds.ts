/**
 * The YAML a cluster admin writes before registering a kind with Scoby: the CRD (namespaced, status
 * subresource with conditions, observedGeneration and address) and the ClusterRole that grants Scoby
 * access to it through aggregation (docs/spec/registration.md §7). The primer scenario spells the same out in full.
 */

export interface KindNames {
  group: string;
  kind: string;
  plural: string;
}

export function crdYaml({ group, kind, plural }: KindNames): string {
  return `
apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  name: ${plural}.${group}
spec:
  group: ${group}
  scope: Namespaced
  names: {kind: ${kind}, plural: ${plural}, singular: ${kind.toLowerCase()}, listKind: ${kind}List}
  versions:
  - name: v1
    served: true
    storage: true
    subresources: {status: {}}
    schema:
      openAPIV3Schema:
        type: object
        properties:
          spec: {type: object, x-kubernetes-preserve-unknown-fields: true}
          status: {type: object, x-kubernetes-preserve-unknown-fields: true}
`;
}

export function scobyAccessYaml({ group, plural }: KindNames): string {
  return `
apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRole
metadata:
  name: scoby-${plural}.${group}
  labels:
    scoby.triggermesh.io/crdregistration: "true"
rules:
- apiGroups: [${group}]
  resources: [${plural}, ${plural}/status]
  verbs: [get, list, watch, update, patch]
`;
}

/** CRD, access for Scoby and a namespace for the instances, as one multi-document YAML. */
export function registeredKindYaml(names: KindNames, namespace: string): string {
  return [
    crdYaml(names),
    scobyAccessYaml(names),
    `apiVersion: v1\nkind: Namespace\nmetadata: {name: ${namespace}}\n`,
  ].join('\n---\n');
}
