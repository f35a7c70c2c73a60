/**
 * What a reconcile of an instance acts on besides its status and finalizers, which Scoby writes: its
 * generation (its spec), labels, annotations and deletion. A change of these asks for a reconcile:
 * it releases a parked instance (parking.ts), and an instance written back with other values than
 * the reconcile read carries a change that reconcile never saw (a merge patch of the status has no
 * precondition, so it lands on whatever is stored), whose watch event therefore is no echo
 * (own-writes.ts).
 */
import { compactJson, type KubeObject } from '@scoby/kube-objects';

export function reconcileBasis(instance: KubeObject): unknown[] {
  return [
    instance.metadata.generation ?? null,
    instance.metadata.labels ?? {},
    instance.metadata.annotations ?? {},
    instance.metadata.deletionTimestamp ?? null,
  ];
}

/** The written object stands on what the reconcile read: nothing but its own write changed. */
export function sameBasis(read: KubeObject, written: KubeObject): boolean {
  return compactJson(reconcileBasis(read)) === compactJson(reconcileBasis(written));
}
