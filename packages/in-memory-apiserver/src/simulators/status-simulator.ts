import type { KubeObject } from '@scoby/kube-objects';
import type { Cluster } from '../cluster.ts';
import { deepEqual } from '../json.ts';
import { commitUpdate } from '../verbs/commit.ts';
import { composeUpdate } from '../verbs/update.ts';

export interface StatusSimulation {
  /** Storage key of the simulated resource (e.g. `deployments.apps`). */
  key: string;
  delayMs: number;
  /** The status a healthy controller would report for this object. */
  status(object: KubeObject, now: string): unknown;
}

/**
 * Plays the controller of a resource: some milliseconds after each change, writes the status it would
 * report through the status subresource rules (no write when nothing changes).
 */
export function startStatusSimulator(
  cluster: Cluster,
  simulation: StatusSimulation,
  now: () => string,
): () => void {
  const timers = new Map<string, NodeJS.Timeout>();
  const settle = (uid: string): void => {
    timers.delete(uid);
    const object = cluster.store.byUid(uid);
    const type = cluster.registry.byKey(simulation.key);
    if (object === undefined || type === undefined || object.metadata.deletionTimestamp !== undefined) return;
    const status = simulation.status(object, now());
    if (deepEqual(status, object.status)) return;
    commitUpdate(
      cluster,
      type,
      type.versions[0] ?? 'v1',
      object,
      composeUpdate(type, 'status', object, { ...object, status }),
    );
  };
  const unsubscribe = cluster.store.subscribe((event) => {
    const uid = event.object.metadata.uid;
    if (event.key !== simulation.key || event.type === 'DELETED' || uid === undefined || timers.has(uid))
      return;
    timers.set(
      uid,
      setTimeout(() => settle(uid), simulation.delayMs),
    );
  });
  return () => {
    unsubscribe();
    for (const timer of timers.values()) clearTimeout(timer);
    timers.clear();
  };
}

/** Keeps the transition time of a condition whose status did not change, like real controllers. */
export function condition(
  previous: unknown,
  type: string,
  status: string,
  reason: string,
  message: string,
  now: string,
  withUpdateTime: boolean,
): Record<string, unknown> {
  const conditions = (previous as { conditions?: unknown } | undefined)?.conditions;
  const before = Array.isArray(conditions)
    ? (conditions as Record<string, unknown>[]).find(
        (candidate) => candidate.type === type && candidate.status === status,
      )
    : undefined;
  const since = typeof before?.lastTransitionTime === 'string' ? before.lastTransitionTime : now;
  const updated =
    typeof before?.lastUpdateTime === 'string' && before.reason === reason && before.message === message
      ? before.lastUpdateTime
      : now;
  return {
    type,
    status,
    ...(withUpdateTime ? { lastUpdateTime: updated } : {}),
    lastTransitionTime: since,
    reason,
    message,
  };
}
