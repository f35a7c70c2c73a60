/** Sends takeOverPatch for an object read with `unknown` entries (legacy-ownership.ts). */
import {
  ApiError,
  type DynamicClient,
  isAbortError,
  JSON_PATCH,
  type ResourceRef,
  stripManagedFields,
} from '@scoby/controller-runtime';
import type { KubeObject } from '@scoby/kube-objects';
import { FINALIZER } from '@scoby/registration';
import type { Logger } from 'pino';
import { FIELD_MANAGER } from '../config/build-info.ts';
import { takeOverPatch } from './legacy-ownership.ts';

/**
 * The object after `unknown`'s fields went to Scoby; undefined when there was nothing to take or
 * the write did not happen. A lost race (the object changed, or went) is left to the reconcile its
 * watch event brings; any other failure is logged and the reconcile goes on: the fields stay where
 * they were, which a merge patch does not mind.
 */
export async function takeOverLegacyFields(
  client: DynamicClient,
  resource: ResourceRef,
  object: KubeObject,
  options: { signal?: AbortSignal; logger?: Logger },
): Promise<KubeObject | undefined> {
  const patch = takeOverPatch(object, FIELD_MANAGER, FINALIZER);
  if (patch === undefined) return undefined;
  const { namespace, name = '' } = object.metadata;
  try {
    const updated = await client.patch(resource, namespace, name, patch, {
      contentType: JSON_PATCH,
      ...(options.signal === undefined ? {} : { signal: options.signal }),
    });
    options.logger?.info(
      { object: `${namespace ?? ''}/${name}`, kind: object.kind },
      'fields written as unknown taken over',
    );
    return stripManagedFields(updated);
  } catch (error) {
    if (isAbortError(error)) throw error;
    if (error instanceof ApiError && [404, 409, 422].includes(error.code)) return undefined;
    options.logger?.warn(
      { object: `${namespace ?? ''}/${name}`, kind: object.kind, err: error },
      'taking over fields written as unknown failed',
    );
    return undefined;
  }
}
