/**
 * Adding and removing a controller's finalizer on an object, as controller-runtime's controllerutil
 * does: a merge patch of metadata.finalizers alone, guarded by resourceVersion, the object read again
 * on conflict; every other finalizer is preserved.
 */
import type { KubeObject } from '@scoby/kube-objects';
import { isConflict, isNotFound } from '../client/api-error.ts';
import type { CallOptions, DynamicClient, ResourceRef } from '../client/dynamic-client.ts';

const ATTEMPTS = 5;

export function hasFinalizer(object: KubeObject, finalizer: string): boolean {
  return (object.metadata.finalizers ?? []).includes(finalizer);
}

/**
 * Sets whether `object` carries `finalizer`. Returns the updated object (or `object` when nothing
 * had to change), or undefined when the object is gone. With `signal`, nothing is sent once it has fired.
 */
export async function setFinalizer(
  client: DynamicClient,
  resource: ResourceRef,
  object: KubeObject,
  finalizer: string,
  present: boolean,
  options: CallOptions = {},
): Promise<KubeObject | undefined> {
  let current = object;
  for (let attempt = 1; ; attempt++) {
    const others = (current.metadata.finalizers ?? []).filter((entry) => entry !== finalizer);
    if (hasFinalizer(current, finalizer) === present) return current;
    const finalizers = present ? [...others, finalizer] : others;
    try {
      return await client.patch(
        resource,
        current.metadata.namespace,
        current.metadata.name ?? '',
        {
          metadata: { finalizers, resourceVersion: current.metadata.resourceVersion },
        },
        options,
      );
    } catch (error) {
      if (isNotFound(error)) return undefined;
      if (!isConflict(error) || attempt === ATTEMPTS) throw error;
      try {
        current = await client.get(
          resource,
          current.metadata.namespace,
          current.metadata.name ?? '',
          options,
        );
      } catch (readError) {
        if (isNotFound(readError)) return undefined;
        throw readError;
      }
    }
  }
}
