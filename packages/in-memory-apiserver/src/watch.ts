import type { KubeObject } from '@scoby/kube-objects';
import { atVersion } from './cluster.ts';
import { groupVersion, keyOf, type ResourceType } from './resource-type.ts';
import { expired } from './status.ts';
import type { ObjectStore, StoreEvent } from './store.ts';
import type { ObjectFilter } from './verbs/read.ts';

export type WatchEventType = 'ADDED' | 'MODIFIED' | 'DELETED' | 'BOOKMARK' | 'ERROR';

/** Where a watch writes: one JSON event per line, then end. */
export interface WatchSink {
  /** The user of the client reading it (the bearer token), for faults aimed at one client. */
  readonly user?: string | undefined;
  write(event: { type: WatchEventType; object: unknown }): void;
  end(): void;
}

export interface WatchRequest {
  type: ResourceType;
  version: string;
  namespace: string | undefined;
  filter: ObjectFilter;
  /** Absent or "0": start with ADDED events for the current state. */
  resourceVersion: string | undefined;
  bookmarks: boolean;
  timeoutSeconds: number | undefined;
  sink: WatchSink;
}

interface OpenWatch {
  readonly request: WatchRequest;
  readonly key: string;
  readonly timers: NodeJS.Timeout[];
  /** Open but dead: nothing reaches the client any more, as over a connection a network lost. */
  silent: boolean;
}

/** The event a watcher sees for a change, given its filter: a change out of the selection is a DELETED. */
export function eventFor(
  change: StoreEvent,
  matches: (object: KubeObject) => boolean,
): { type: WatchEventType; object: KubeObject } | undefined {
  const now = matches(change.object);
  if (change.type === 'DELETED')
    return now || (change.previous !== undefined && matches(change.previous))
      ? { type: 'DELETED', object: change.object }
      : undefined;
  const before = change.previous !== undefined && matches(change.previous);
  if (change.type === 'ADDED') return now ? { type: 'ADDED', object: change.object } : undefined;
  if (now) return { type: before ? 'MODIFIED' : 'ADDED', object: change.object };
  return before ? { type: 'DELETED', object: change.object } : undefined;
}

/** Open watches, fed from the store in resourceVersion order. */
export class WatchHub {
  private readonly watches = new Set<OpenWatch>();
  private readonly store: ObjectStore;
  private readonly bookmarkIntervalMs: number;
  private expireNext = 0;

  constructor(store: ObjectStore, bookmarkIntervalMs: number) {
    this.store = store;
    this.bookmarkIntervalMs = bookmarkIntervalMs;
    store.subscribe((change) => {
      for (const watch of this.watches) if (watch.key === change.key) this.deliver(watch, change);
    });
  }

  /** The next `count` watches that resume from a resourceVersion are answered 410 Gone. */
  expireNextWatches(count: number): void {
    this.expireNext += count;
  }

  open(request: WatchRequest): void {
    const start = request.resourceVersion;
    const key = this.store.storageKey(keyOf(request.type));
    let backlog: StoreEvent[] = [];
    if (start === undefined || start === '' || start === '0') {
      for (const object of this.store.list(key, request.namespace)) {
        if (request.filter.matches(object))
          request.sink.write({ type: 'ADDED', object: atVersion(request.type, request.version, object) });
      }
    } else {
      const requested = Number(start);
      const since = this.store.eventsSince(requested);
      if (this.expireNext > 0 || since.expired) {
        if (this.expireNext > 0) this.expireNext--;
        request.sink.write({
          type: 'ERROR',
          object: expired(requested, since.expired ? since.oldest : this.store.resourceVersion).body,
        });
        request.sink.end();
        return;
      }
      backlog = since.events;
    }
    const watch: OpenWatch = { request, key, timers: [], silent: false };
    this.watches.add(watch);
    for (const change of backlog) if (change.key === key) this.deliver(watch, change);
    if (request.bookmarks) {
      watch.timers.push(setInterval(() => this.bookmark(watch), this.bookmarkIntervalMs));
    }
    if (request.timeoutSeconds !== undefined && request.timeoutSeconds > 0) {
      watch.timers.push(setTimeout(() => this.close(watch), request.timeoutSeconds * 1000));
    }
  }

  /** Ends the watches of one resource (all of them without a key), as a server restart or CRD removal would. */
  closeAll(key?: string): void {
    for (const watch of [...this.watches]) if (key === undefined || watch.key === key) this.close(watch);
  }

  /** From now on the open watches (of `user` only, when given) deliver nothing, not even their end. */
  silence(user?: string): void {
    for (const watch of this.watches) {
      if (user !== undefined && watch.request.sink.user !== user) continue;
      watch.silent = true;
      for (const timer of watch.timers) clearTimeout(timer);
    }
  }

  forget(sink: WatchSink): void {
    for (const watch of this.watches) {
      if (watch.request.sink === sink) {
        for (const timer of watch.timers) clearTimeout(timer);
        this.watches.delete(watch);
      }
    }
  }

  private close(watch: OpenWatch): void {
    for (const timer of watch.timers) clearTimeout(timer);
    this.watches.delete(watch);
    if (!watch.silent) watch.request.sink.end();
  }

  private deliver(watch: OpenWatch, change: StoreEvent): void {
    const { request } = watch;
    if (watch.silent) return;
    if (request.namespace !== undefined && change.object.metadata.namespace !== request.namespace) return;
    const event = eventFor(change, (object) => request.filter.matches(object));
    if (event)
      request.sink.write({
        type: event.type,
        object: atVersion(request.type, request.version, event.object),
      });
  }

  private bookmark(watch: OpenWatch): void {
    const { type, version } = watch.request;
    watch.request.sink.write({
      type: 'BOOKMARK',
      object: {
        kind: type.kind,
        apiVersion: groupVersion(type.group, version),
        metadata: { resourceVersion: String(this.store.resourceVersion) },
      },
    });
  }
}
