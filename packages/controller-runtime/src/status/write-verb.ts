/**
 * How a controller writes status and finalizers: a merge patch (`patch`), or, where a role grants
 * `update` alone, a PUT of the object read with only the controller's own fields changed (`update`).
 */
import type { KubeObject } from '@scoby/kube-objects';
import { isConflict } from '../client/api-error.ts';
import type { CallOptions, DynamicClient, ResourceRef } from '../client/dynamic-client.ts';

export type WriteVerb = 'patch' | 'update';

/** Options of a write that reads the object again on conflict. */
export interface RereadOptions extends CallOptions {
  /**
   * Told of each object read again after a conflict: once the write succeeds it replaced that
   * version too, which a controller's cache may still deliver (SupersededVersions).
   */
  onReread?: (object: KubeObject) => void;
}

/** Conflicts an update meets before it gives up (each one reads the object again). */
export const UPDATE_ATTEMPTS = 5;

/**
 * The body of a PUT from the object read: `change` applied to it, `managedFields` left out so the
 * server keeps them; the read `resourceVersion` makes the server refuse it if the object changed.
 */
export function updateBody(read: KubeObject, change: (object: KubeObject) => KubeObject): KubeObject {
  const { managedFields: _managedFields, ...metadata } = read.metadata;
  return change(structuredClone({ ...read, metadata }));
}

/**
 * PUTs `updateBody(object, change)` (to `subresource` when given); on 409 Conflict reads the object
 * again and builds the body from that, up to UPDATE_ATTEMPTS times. Other errors (a 404 among them)
 * are the caller's.
 */
export async function updateFromRead(
  client: DynamicClient,
  resource: ResourceRef,
  object: KubeObject,
  change: (object: KubeObject) => KubeObject,
  options: RereadOptions & { subresource?: string } = {},
): Promise<KubeObject> {
  const { namespace, name = '' } = object.metadata;
  const call = options.signal === undefined ? {} : { signal: options.signal };
  let current = object;
  for (let attempt = 1; ; attempt++) {
    try {
      return await client.update(resource, updateBody(current, change), {
        ...call,
        ...(options.subresource === undefined ? {} : { subresource: options.subresource }),
      });
    } catch (error) {
      if (!isConflict(error) || attempt === UPDATE_ATTEMPTS) throw error;
      current = await client.get(resource, namespace, name, call);
      options.onReread?.(current);
    }
  }
}
