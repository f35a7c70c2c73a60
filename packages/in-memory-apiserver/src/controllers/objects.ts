import type { KubeObject } from '@scoby/kube-objects';
import type { Cluster } from '../cluster.ts';
import type { ResourceType } from '../resource-type.ts';
import { commitUpdate } from '../verbs/commit.ts';
import { deleteObject, type PropagationPolicy } from '../verbs/delete.ts';

export interface TypedObject {
  type: ResourceType;
  object: KubeObject;
}

/** Every stored object with its resource type. */
export function everyObject(cluster: Cluster, namespace?: string): TypedObject[] {
  const result: TypedObject[] = [];
  for (const key of cluster.store.keys()) {
    const type = cluster.registry.byKey(key);
    if (type === undefined || (namespace !== undefined && !type.namespaced)) continue;
    for (const object of cluster.store.list(key, namespace)) result.push({ type, object });
  }
  return result;
}

/** Deletes on behalf of a controller, like a client would through the API. */
export function deleteAs(
  cluster: Cluster,
  { type, object }: TypedObject,
  propagationPolicy: PropagationPolicy,
): void {
  deleteObject(cluster, type, object.metadata.namespace, object.metadata.name ?? '', {
    propagationPolicy,
    preconditions: {},
    dryRun: false,
  });
}

/** Writes a changed object on behalf of a controller, through the same update rules as the API. */
export function updateAs(cluster: Cluster, { type, object }: TypedObject, next: KubeObject): void {
  commitUpdate(cluster, type, type.versions[0] ?? 'v1', object, next);
}

export function withoutFinalizer(object: KubeObject, finalizer: string): KubeObject {
  const finalizers = (object.metadata.finalizers ?? []).filter((candidate) => candidate !== finalizer);
  const { finalizers: _previous, ...metadata } = object.metadata;
  return { ...object, metadata: finalizers.length > 0 ? { ...metadata, finalizers } : metadata };
}

export function deleting(object: KubeObject): boolean {
  return object.metadata.deletionTimestamp !== undefined;
}
