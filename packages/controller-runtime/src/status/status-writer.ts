/**
 * The one status write of a controller: a JSON merge patch from the stored status to the desired one,
 * sent to the status subresource (or, with `verb: 'update'`, applied to the object read and PUT
 * there), and no request at all when they are equal.
 */
import type { KubeObject } from '@scoby/kube-objects';
import jsonMergePatch from 'json-merge-patch';
import type { DynamicClient, ResourceRef } from '../client/dynamic-client.ts';
import { updateFromRead, type RereadOptions, type WriteVerb } from './write-verb.ts';

/** `{status: <patch>}` to send to the status subresource, or undefined when nothing changed. */
export function statusMergePatch(
  stored: unknown,
  desired: Record<string, unknown>,
): { status: unknown } | undefined {
  const before = typeof stored === 'object' && stored !== null && !Array.isArray(stored) ? stored : {};
  const patch = jsonMergePatch.generate(before, desired);
  return patch === undefined ? undefined : { status: patch };
}

export interface WriteStatusOptions extends RereadOptions {
  /**
   * `desired` holds only some of the status's fields: the others stay as stored (the smallest
   * write, e.g. recording a failure when the full status cannot be computed or written).
   */
  partial?: boolean;
  /**
   * `update` where the role grants no `patch` on the status subresource: the merge patch applied to
   * the object read (read again on conflict), sent whole with its resourceVersion. Default `patch`.
   */
  verb?: WriteVerb;
}

/** `object` with `patch` (statusMergePatch's) applied to its status: every other field as read. */
export function withStatusPatch(object: KubeObject, patch: { status: unknown }): KubeObject {
  const status = isRecord(object.status) ? structuredClone(object.status) : {};
  return { ...object, status: jsonMergePatch.apply(status, patch.status) as unknown };
}

/**
 * Writes `desired` as the status of `object` (as the cache had it); answers the written object, or
 * undefined when the stored status already is `desired`. API errors (a gone object among them) are
 * the caller's to judge; with `signal`, nothing is sent once it has fired.
 */
export async function writeStatus(
  client: DynamicClient,
  resource: ResourceRef,
  object: KubeObject,
  desired: Record<string, unknown>,
  options: WriteStatusOptions = {},
): Promise<KubeObject | undefined> {
  const stored = isRecord(object.status) ? object.status : {};
  const patch = statusMergePatch(stored, options.partial ? { ...stored, ...desired } : desired);
  if (!patch) return undefined;
  if (options.verb === 'update') {
    return updateFromRead(client, resource, object, (read) => withStatusPatch(read, patch), {
      subresource: 'status',
      ...(options.signal ? { signal: options.signal } : {}),
      ...(options.onReread ? { onReread: options.onReread } : {}),
    });
  }
  return client.patch(resource, object.metadata.namespace, object.metadata.name ?? '', patch, {
    subresource: 'status',
    ...(options.signal ? { signal: options.signal } : {}),
  });
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
