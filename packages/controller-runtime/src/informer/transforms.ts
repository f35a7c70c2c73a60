/**
 * What an informer does to an object before caching it (client-go's TransformFunc). The cache holds
 * every object of its kind for the life of the process, so what no reader needs is memory spent on
 * nothing.
 */
import type { KubeObject } from '@scoby/kube-objects';

/**
 * `cached` is the object the cache holds under the same key before this one, if any, so a transform
 * can carry over what it learnt about an unchanged part.
 */
export type ObjectTransform<T extends KubeObject = KubeObject> = (object: T, cached?: T) => T;

/**
 * Drops metadata.managedFields, the server's field-ownership record, often as large as the object's
 * spec (client-go's TransformStripManagedFields; controller-runtime's caches strip it by default). A
 * reader that needs it reads the object from the API server.
 */
export function stripManagedFields<T extends KubeObject>(object: T): T {
  if (object.metadata.managedFields === undefined) return object;
  // A new metadata object rather than `delete`, which would leave the cached object in V8's slower,
  // larger dictionary mode.
  const { managedFields: _managedFields, ...metadata } = object.metadata;
  return { ...object, metadata };
}
