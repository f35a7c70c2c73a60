/**
 * Adding and removing a controller's finalizer on an object, as controller-runtime's controllerutil
 * does: a merge patch of metadata.finalizers alone (or, with `verb: 'update'`, a PUT of the object
 * read with only its finalizers changed), guarded by resourceVersion, the object read again on
 * conflict; every other finalizer is preserved.
 */
import type { KubeObject } from '@scoby/kube-objects';
import { isConflict, isNotFound } from '../client/api-error.ts';
import type { DynamicClient, ResourceRef } from '../client/dynamic-client.ts';
import { updateBody, type RereadOptions, type WriteVerb } from '../status/write-verb.ts';

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
  options: RereadOptions & { verb?: WriteVerb } = {},
): Promise<KubeObject | undefined> {
  const call = options.signal === undefined ? {} : { signal: options.signal };
  let current = object;
  for (let attempt = 1; ; attempt++) {
    const others = (current.metadata.finalizers ?? []).filter((entry) => entry !== finalizer);
    if (hasFinalizer(current, finalizer) === present) return current;
    const finalizers = present ? [...others, finalizer] : others;
    try {
      if (options.verb === 'update') {
        const body = updateBody(current, (read) => ({ ...read, metadata: { ...read.metadata, finalizers } }));
        return await client.update(resource, body, call);
      }
      return await client.patch(
        resource,
        current.metadata.namespace,
        current.metadata.name ?? '',
        {
          metadata: { finalizers, resourceVersion: current.metadata.resourceVersion },
        },
        call,
      );
    } catch (error) {
      if (isNotFound(error)) return undefined;
      if (!isConflict(error) || attempt === ATTEMPTS) throw error;
      try {
        current = await client.get(resource, current.metadata.namespace, current.metadata.name ?? '', call);
        options.onReread?.(current);
      } catch (readError) {
        if (isNotFound(readError)) return undefined;
        throw readError;
      }
    }
  }
}
