/** What the instance reconciler's unit tests hand it as the runtime would: a key and a context. */
import type { ObjectKey } from '@scoby/controller-runtime';
import type { HookClient } from '@scoby/hooks-v1';
import type { KubeObject } from '@scoby/kube-objects';
import type { ReconcileDependencies } from '../../src/instance/reconcile.ts';
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

/**
 * What a reconciler of deleted instances reaches: the hook (`call`) and finalizer patches
 * (`patch`, given the body); nothing else is there.
 */
export function deletionDependencies(
  patch: (body: unknown) => Promise<KubeObject>,
  call: HookClient['call'],
  now: Date,
): ReconcileDependencies {
  const client = { patch: (_ref: unknown, _namespace: string, _name: string, body: unknown) => patch(body) };
  return {
    client,
    hooks: { cutCalls: () => undefined, call, close: () => {} },
    lookups: {},
    events: { emit: () => {} },
    clusterDomain: 'cluster.local',
    now: () => now,
  } as unknown as ReconcileDependencies;
}
