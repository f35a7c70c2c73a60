/** What the instance reconciler's unit tests hand it as the runtime would: a key and a context. */
import type { ObjectKey } from '@scoby/controller-runtime';
import type { InstanceReconcileContext } from '../../src/instance/reconcile-run.ts';

export function instanceKey(group: string, kind: string, namespace: string, name: string): ObjectKey {
  return { group, kind, namespace, name };
}

/** A context whose signal never fires and whose hook waits run where they are. */
export function reconcileContext(
  signal: AbortSignal = new AbortController().signal,
): InstanceReconcileContext {
  return { signal, withoutSharedSlot: (wait) => wait() };
}
