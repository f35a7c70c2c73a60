/**
 * Normalising the final children map before it is written (docs/spec/children-and-status.md §4.4).
 */
import type { KubeObject, OwnerReference } from '@scoby/kube-objects';

const SERVER_OWNED = [
  'uid',
  'resourceVersion',
  'generation',
  'creationTimestamp',
  'managedFields',
  'selfLink',
  'deletionTimestamp',
  'deletionGracePeriodSeconds',
] as const;

export interface ChildOwnership {
  namespace: string;
  labels: Record<string, string>;
  ownerReference: OwnerReference;
}

/**
 * Copies only what it changes (metadata, labels, owner references); the rest is shared with `child`,
 * which nothing mutates, so a reconcile does not deep-copy every child.
 */
export function normalizeChild(child: KubeObject, ownership: ChildOwnership): KubeObject {
  const { status: _status, ...rest } = child;
  const metadata = { ...rest.metadata };
  for (const field of SERVER_OWNED) delete metadata[field];
  metadata.namespace = ownership.namespace;
  metadata.labels = { ...(metadata.labels ?? {}), ...ownership.labels };
  const others = (metadata.ownerReferences ?? []).filter(
    (reference) => reference.controller !== true && reference.uid !== ownership.ownerReference.uid,
  );
  metadata.ownerReferences = [{ ...ownership.ownerReference }, ...others];
  return { ...rest, metadata };
}
