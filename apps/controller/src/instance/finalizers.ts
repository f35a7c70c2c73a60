/**
 * Adding and removing Scoby's finalizer on an instance (docs/spec/children-and-status.md §1 step 4, docs/spec/hooks-v1.md
 * §7): a merge patch of metadata.finalizers alone, guarded by resourceVersion, re-read on conflict.
 */
import type { KubeObject } from '@scoby/kube-objects';
import { FINALIZER } from '@scoby/registration';
import { type DynamicClient, isConflict, isNotFound, type ResourceRef } from '@scoby/controller-runtime';

const ATTEMPTS = 5;

export function hasFinalizer(object: KubeObject): boolean {
  return (object.metadata.finalizers ?? []).includes(FINALIZER);
}

/**
 * Sets whether the instance carries the finalizer, preserving the others. Returns the updated object,
 * or undefined when the instance is gone.
 */
export async function setFinalizer(
  client: DynamicClient,
  resource: ResourceRef,
  instance: KubeObject,
  present: boolean,
): Promise<KubeObject | undefined> {
  let current = instance;
  for (let attempt = 1; ; attempt++) {
    const others = (current.metadata.finalizers ?? []).filter((entry) => entry !== FINALIZER);
    if (hasFinalizer(current) === present) return current;
    const finalizers = present ? [...others, FINALIZER] : others;
    try {
      return await client.patch(resource, current.metadata.namespace, current.metadata.name ?? '', {
        metadata: { finalizers, resourceVersion: current.metadata.resourceVersion },
      });
    } catch (error) {
      if (isNotFound(error)) return undefined;
      if (!isConflict(error) || attempt === ATTEMPTS) throw error;
      try {
        current = await client.get(resource, current.metadata.namespace, current.metadata.name ?? '');
      } catch (readError) {
        if (isNotFound(readError)) return undefined;
        throw readError;
      }
    }
  }
}
