/**
 * The one status write of a controller: a JSON merge patch from the stored status to the desired one,
 * sent to the status subresource, and no request at all when they are equal.
 */
import type { KubeObject } from '@scoby/kube-objects';
import jsonMergePatch from 'json-merge-patch';
import type { CallOptions, DynamicClient, ResourceRef } from '../client/dynamic-client.ts';

/** `{status: <patch>}` to send to the status subresource, or undefined when nothing changed. */
export function statusMergePatch(
  stored: unknown,
  desired: Record<string, unknown>,
): { status: unknown } | undefined {
  const before = typeof stored === 'object' && stored !== null && !Array.isArray(stored) ? stored : {};
  const patch = jsonMergePatch.generate(before, desired);
  return patch === undefined ? undefined : { status: patch };
}

export interface WriteStatusOptions extends CallOptions {
  /**
   * `desired` holds only some of the status's fields: the others stay as stored (the smallest
   * write, e.g. recording a failure when the full status cannot be computed or written).
   */
  partial?: boolean;
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
  return client.patch(resource, object.metadata.namespace, object.metadata.name ?? '', patch, {
    subresource: 'status',
    ...(options.signal ? { signal: options.signal } : {}),
  });
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
