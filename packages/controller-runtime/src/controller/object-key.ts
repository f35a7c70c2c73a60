/**
 * Which object a reconcile is about, typed: its API group and kind as well as its namespace and
 * name, so that two kinds' objects of one namespace/name are never the same key.
 */
import { splitApiVersion, type KubeObject } from '@scoby/kube-objects';

export interface GroupKind {
  /** '' for the core group. */
  group: string;
  kind: string;
}

export interface ObjectKey extends GroupKind {
  /** '' for a cluster-scoped object. */
  namespace: string;
  name: string;
}

export function objectKeyOf(object: KubeObject): ObjectKey {
  return {
    group: splitApiVersion(object.apiVersion).group,
    kind: object.kind,
    namespace: object.metadata.namespace ?? '',
    name: object.metadata.name ?? '',
  };
}

/** `<kind>.<group>/<namespace>/<name>`: one string per key, for work queues and maps. */
export function formatObjectKey(key: ObjectKey): string {
  return `${key.kind}.${key.group}/${key.namespace}/${key.name}`;
}

/** The key `formatObjectKey` made. Names and namespaces hold no `/`; the group may hold dots. */
export function parseObjectKey(text: string): ObjectKey {
  const [kindGroup = '', namespace = '', ...rest] = text.split('/');
  const dot = kindGroup.indexOf('.');
  return {
    kind: kindGroup.slice(0, dot),
    group: kindGroup.slice(dot + 1),
    namespace,
    name: rest.join('/'),
  };
}
