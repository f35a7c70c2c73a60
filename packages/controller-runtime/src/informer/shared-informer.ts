import type { KubeObject } from '@scoby/kube-objects';
import type { Logger } from 'pino';
import { errorMessage } from '../client/api-error.ts';
import { type ObjectList, resourcePath, type ResourceRef } from '../client/dynamic-client.ts';
import type { OpenWatch, WatchHandlers } from '../client/watch-request.ts';
import type { BackoffPolicy } from '../queue/backoff.ts';
import { type Clock, realClock, type TimerHandle } from '../time/clock.ts';
import { ObjectStore, type StoreEvent } from './object-store.ts';
import { RestartingListWatch, WatchSilentError } from './restarting-list-watch.ts';
import type { ObjectTransform } from './transforms.ts';

export interface InformerHandlers<T> {
  /**
   * `inInitialList` (client-go's isInInitialList): the object came with the informer's first list of
   * its namespace, or was already cached when the handlers were added; false for an object created
   * later or found by a list after a failed watch.
   */
  add?(object: T, inInitialList: boolean): void;
  update?(object: T, old: T): void;
  delete?(object: T): void;
  /** The API server answers this informer again after its list or watch failed. */
  recovered?(): void;
}

/** Lists and watches a collection; the app's DynamicClient is one. */
export interface ObjectLister {
  list(ref: ResourceRef, namespace?: string, query?: Record<string, string | undefined>): Promise<ObjectList>;
  watch(
    ref: ResourceRef,
    namespace: string | undefined,
    query: Record<string, string | undefined>,
    handlers: WatchHandlers,
  ): OpenWatch;
}

export interface SharedInformerOptions<T extends KubeObject = KubeObject> {
  lister: ObjectLister;
  resource: ResourceRef;
  /** Namespaces to watch, one watch each; undefined watches all namespaces (or a cluster-scoped kind). */
  namespaces?: readonly string[];
  labelSelector?: string;
  /** Every this often, handlers get `update(object, object)` for every cached object. 0 or unset: never. */
  resyncMs?: number;
  /**
   * Applied to every listed and watched object before it is cached and handed to handlers, e.g.
   * stripManagedFields. Readers of the cache see only what it returns. Default: objects as served.
   */
  transform?: ObjectTransform<T>;
  /** Delay before restarting a failed list-watch. Default DEFAULT_RESTART_BACKOFF. */
  restartBackoff?: BackoffPolicy;
  /** A watch silent for this long (no event, no bookmark) is restarted. Default 3 min. */
  watchSilenceMs?: number;
  clock?: Clock;
  logger?: Logger;
}

/**
 * 200 ms doubling up to 5 s, each delay drawn from its upper half (docs/spec/README.md, Operational
 * behaviour): within 5 s of the API server answering again every informer has listed or watched
 * again, and the informers of every replica, which failed at the same moment, come back spread out.
 */
export const DEFAULT_RESTART_BACKOFF: BackoffPolicy = { baseMs: 200, capMs: 5_000, jitter: 0.5 };

const RESTART_MESSAGES = {
  failed: {
    list: 'list-watch failed; restarting with a fresh list',
    watch: 'watch lost; watching again from its last resourceVersion',
  },
  silent: {
    list: 'watch went silent; restarting with a fresh list',
    watch: 'watch went silent; watching again from its last resourceVersion',
  },
} as const;

/**
 * kube-apiserver sends an idle watch a bookmark about once a minute, but not on the minute: on an idle
 * v1.34 control plane a new ConfigMap watch got its first bookmark after 119 s, and under load a 90 s
 * bound restarted healthy watches of quiet resources (a warning and a fresh LIST each time). Three
 * minutes is 1.5 times the longest gap seen; a watch the network lost is still noticed within it.
 */
export const DEFAULT_WATCH_SILENCE_MS = 180_000;

/**
 * A cache of one kind of object kept current by list + watch, shared by every handler interested
 * in it. With several namespaces, one watch per namespace feeds the one cache.
 */
export class SharedInformer<T extends KubeObject = KubeObject> {
  readonly #store = new ObjectStore<T>();
  readonly #handlers = new Set<InformerHandlers<T>>();
  readonly #partitions: Array<{ listWatch: RestartingListWatch<T>; synced: boolean }> = [];
  readonly #syncWaiters = new Set<() => void>();
  readonly #clock: Clock;
  readonly #resyncMs: number;
  readonly #logger: Logger | undefined;
  #resyncTimer: TimerHandle | undefined;
  #running = false;

  constructor(options: SharedInformerOptions<T>) {
    this.#clock = options.clock ?? realClock;
    this.#resyncMs = options.resyncMs ?? 0;
    this.#logger = options.logger?.child({
      informer: `${options.resource.resource}.${options.resource.group || 'core'}`,
      ...(options.namespaces ? { namespaces: options.namespaces.join(',') } : {}),
      ...(options.labelSelector ? { labelSelector: options.labelSelector } : {}),
    });
    const transform = options.transform ?? ((object: T) => object);
    const scopes = options.resource.namespaced && options.namespaces ? options.namespaces : [undefined];
    for (const namespace of scopes) {
      const partition = {
        synced: false,
        listWatch: new RestartingListWatch<T>({
          path: resourcePath(options.resource, namespace),
          watch: (query, handlers) =>
            options.lister.watch(
              options.resource,
              namespace,
              { ...query, labelSelector: options.labelSelector },
              handlers,
            ),
          list: async () => {
            const query = { labelSelector: options.labelSelector };
            const list = await options.lister.list(options.resource, namespace, query);
            // kube-apiserver leaves apiVersion and kind out of the items of built-in lists (watch
            // events carry them); the cache's objects have them, as code reading it expects.
            const { apiVersion, kind } = list as { apiVersion?: string; kind?: string };
            const typeMeta = {
              ...(apiVersion ? { apiVersion } : {}),
              ...(kind?.endsWith('List') ? { kind: kind.slice(0, -'List'.length) } : {}),
            };
            // The cache holds whatever kind this informer was created for.
            return {
              ...list,
              items: list.items.map((item) => {
                const object = { ...typeMeta, ...item } as unknown as T;
                return transform(
                  object,
                  this.#store.get(object.metadata.namespace, object.metadata.name ?? ''),
                );
              }),
            };
          },
          backoff: options.restartBackoff ?? DEFAULT_RESTART_BACKOFF,
          silenceTimeoutMs: options.watchSilenceMs ?? DEFAULT_WATCH_SILENCE_MS,
          clock: this.#clock,
          sink: {
            listed: (items) => {
              this.#dispatch(this.#store.replace(items, namespace), !partition.synced);
              partition.synced = true;
              this.#notifyIfSynced();
            },
            upserted: (object) => {
              const { namespace: objectNamespace, name = '' } = object.metadata;
              const cached = this.#store.get(objectNamespace, name);
              this.#dispatchOne(this.#store.upsert(transform(object, cached)));
            },
            removed: (object) => this.#dispatchOne(this.#store.remove(transform(object))),
            // The message alone: a stack trace per retry says nothing more about an API server that is away.
            failed: (error, retryInMs, restart) =>
              this.#logger?.warn(
                { error: errorMessage(error), namespace, retryInMs: Math.round(retryInMs) },
                RESTART_MESSAGES[error instanceof WatchSilentError ? 'silent' : 'failed'][restart],
              ),
            recovered: () => {
              for (const handlers of [...this.#handlers]) handlers.recovered?.();
            },
          },
        }),
      };
      this.#partitions.push(partition);
    }
  }

  start(): void {
    if (this.#running) return;
    this.#running = true;
    for (const partition of this.#partitions) partition.listWatch.start();
    this.#scheduleResync();
  }

  stop(): void {
    this.#running = false;
    for (const partition of this.#partitions) partition.listWatch.stop();
    if (this.#resyncTimer !== undefined) this.#clock.clearTimeout(this.#resyncTimer);
    this.#resyncTimer = undefined;
  }

  /** True once every watched namespace has been listed at least once. */
  hasSynced(): boolean {
    return this.#partitions.every((partition) => partition.synced);
  }

  /**
   * Resolves true once synced, false if that takes longer than `timeoutMs` or `signal` fires first
   * (the caller stopped waiting: its timer and waiter go at once).
   */
  waitForSync(timeoutMs: number, signal?: AbortSignal): Promise<boolean> {
    if (this.hasSynced()) return Promise.resolve(true);
    if (signal?.aborted) return Promise.resolve(false);
    return new Promise((resolve) => {
      const done = (synced: boolean) => {
        this.#syncWaiters.delete(onSynced);
        this.#clock.clearTimeout(timer);
        signal?.removeEventListener('abort', onAbort);
        resolve(synced);
      };
      const onSynced = () => done(true);
      const onAbort = () => done(false);
      const timer = this.#clock.setTimeout(() => done(false), timeoutMs);
      this.#syncWaiters.add(onSynced);
      signal?.addEventListener('abort', onAbort, { once: true });
    });
  }

  list(): T[] {
    return this.#store.list();
  }

  get(namespace: string | undefined, name: string): T | undefined {
    return this.#store.get(namespace, name);
  }

  /**
   * Puts `object` in place of the cached object of the same uid and resourceVersion, without an
   * event (it is the same version): for a reader that learnt something of a cached object and
   * wants the cache to hold a smaller form of it. False when the cache holds another version.
   */
  recache(object: T): boolean {
    const { namespace, name = '', uid, resourceVersion } = object.metadata;
    const cached = this.#store.get(namespace, name);
    if (
      cached === undefined ||
      uid === undefined ||
      cached.metadata.uid !== uid ||
      cached.metadata.resourceVersion !== resourceVersion
    )
      return false;
    this.#store.set(object);
    return true;
  }

  /**
   * Subscribes to changes. Objects already cached are delivered as adds right away, so a late
   * subscriber sees the same state as an early one. Returns the unsubscribe function.
   */
  addHandlers(handlers: InformerHandlers<T>): () => void {
    this.#handlers.add(handlers);
    for (const object of this.#store.list()) this.#call(handlers, { type: 'add', object }, true);
    return () => this.#handlers.delete(handlers);
  }

  #notifyIfSynced(): void {
    if (!this.hasSynced()) return;
    for (const waiter of [...this.#syncWaiters]) waiter();
  }

  #scheduleResync(): void {
    if (this.#resyncMs <= 0) return;
    this.#resyncTimer = this.#clock.setTimeout(() => {
      for (const object of this.#store.list()) this.#dispatchOne({ type: 'update', object, old: object });
      if (this.#running) this.#scheduleResync();
    }, this.#resyncMs);
  }

  #dispatch(events: StoreEvent<T>[], inInitialList: boolean): void {
    for (const event of events) this.#dispatchOne(event, inInitialList);
  }

  #dispatchOne(event: StoreEvent<T> | undefined, inInitialList = false): void {
    if (event === undefined) return;
    for (const handlers of [...this.#handlers]) this.#call(handlers, event, inInitialList);
  }

  /** A failing handler is logged and does not keep the others from running. */
  #call(handlers: InformerHandlers<T>, event: StoreEvent<T>, inInitialList: boolean): void {
    try {
      if (event.type === 'add') handlers.add?.(event.object, inInitialList);
      else if (event.type === 'update') handlers.update?.(event.object, event.old);
      else handlers.delete?.(event.object);
    } catch (error) {
      this.#logger?.error({ err: error, event: event.type }, 'informer handler failed');
    }
  }
}
