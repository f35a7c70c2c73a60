/**
 * Events expire, as kube-apiserver's do (`--event-ttl`, default 1 h): each write of an Event starts its
 * time to live again, and when it runs out the Event is gone (its etcd lease ends: no finalizers, a
 * DELETED watch event).
 */
import type { ObjectStore } from '../store.ts';

export const DEFAULT_EVENT_TTL_MS = 3_600_000;

const EVENTS = 'events';

export function startEventTtl(store: ObjectStore, ttlMs: number): () => void {
  const timers = new Map<string, NodeJS.Timeout>();
  const forget = (uid: string): void => {
    clearTimeout(timers.get(uid));
    timers.delete(uid);
  };
  const unsubscribe = store.subscribe((change) => {
    if (change.key !== EVENTS) return;
    const { uid, namespace, name } = change.object.metadata;
    if (uid === undefined) return;
    forget(uid);
    if (change.type === 'DELETED') return;
    const timer = setTimeout(() => {
      timers.delete(uid);
      const current = store.get(EVENTS, namespace, name ?? '');
      if (current?.metadata.uid === uid) store.remove(EVENTS, current);
    }, ttlMs);
    timer.unref();
    timers.set(uid, timer);
  });
  return () => {
    unsubscribe();
    for (const timer of timers.values()) clearTimeout(timer);
    timers.clear();
  };
}
