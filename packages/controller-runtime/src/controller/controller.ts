/**
 * A controller declared as controller-runtime's builder declares one: the kind it reconciles (each
 * add, update and delete enqueues the object), the kinds it owns (an event enqueues the object's
 * controlling owner when that is of the reconciled group and kind), other watches mapped to keys by
 * a function of the event, an optional predicate, and the reconcile, run by a work queue of its own
 * with typed keys. "watch → map → queue → reconcile → result" is written here once.
 */
import { splitApiVersion, type KubeObject } from '@scoby/kube-objects';
import type { Logger } from 'pino';
import { writeScopes } from '../client/write-scope.ts';
import type { InformerFactory, InformerHandle, InformerRequest } from '../informer/informer-factory.ts';
import type { Slots } from '../queue/concurrency-limit.ts';
import { LOW_PRIORITY, NORMAL_PRIORITY } from '../queue/ready-keys.ts';
import {
  type ReconcileContext,
  type ReconcileResult,
  WorkQueue,
  type WorkQueueObserver,
} from '../queue/work-queue.ts';
import { type Clock, realClock } from '../time/clock.ts';
import { formatObjectKey, type GroupKind, type ObjectKey, parseObjectKey } from './object-key.ts';

/** A watch event as the handlers of a controller see it. */
export interface ControllerEvent<T extends KubeObject = KubeObject> {
  type: 'add' | 'update' | 'delete';
  object: T;
  /** The object before an update. */
  old?: T;
  /** An add of the informer's initial list (see InformerHandlers.add). */
  inInitialList?: boolean;
}

/**
 * The priority of the keys an event enqueues (controller-runtime's WithLowPriorityWhenUnchanged):
 * low for an add of the initial list and for an update that changed nothing (the same
 * resourceVersion: a resync), normal for every change.
 */
export function eventPriority(event: ControllerEvent): number {
  if (event.type === 'add' && event.inInitialList === true) return LOW_PRIORITY;
  const version = event.object.metadata.resourceVersion;
  if (event.type === 'update' && version !== undefined && event.old?.metadata.resourceVersion === version)
    return LOW_PRIORITY;
  return NORMAL_PRIORITY;
}

/** An informer to watch: one the controller acquires (and releases), or a handle someone else holds. */
export type WatchSource<T extends KubeObject = KubeObject> = InformerRequest | InformerHandle<T>;

export interface Watch<T extends KubeObject = KubeObject> {
  source: WatchSource<T>;
  /** The keys of the reconciled kind an event concerns (controller-runtime's EnqueueRequestsFromMapFunc). */
  map(event: ControllerEvent<T>): readonly ObjectKey[];
}

/**
 * Whether an event enqueues its key (controller-runtime's predicates), judged for the reconciled
 * kind and the owned kinds.
 */
export interface EventFilter {
  admit(event: ControllerEvent): boolean;
  /**
   * Hold the events of a key whose reconcile is running and judge them when it ends: what the
   * running reconcile writes is known only then (e.g. telling the echo of its own write from news).
   */
  holdWhileReconciling?: boolean;
}

/**
 * Periodic reconciles of every object (controller-runtime's SyncPeriod, per controller): each object
 * is reconciled again `periodMs` after its last reconcile ended well, within ±`jitter` of the period,
 * so that objects reconciled together (a start, a configuration change) spread out.
 */
export interface ResyncPolicy {
  periodMs: number;
  /** The fraction of the period each delay may vary by, either way. Default 0.1 (±10 %). */
  jitter?: number;
  /** Uniform in [0, 1); Math.random by default (tests fix it). */
  random?: () => number;
}

export const DEFAULT_RESYNC_JITTER = 0.1;

/** The delay of the next resync of one object: the period, moved by up to ±jitter of it. */
export function resyncDelayMs(policy: ResyncPolicy): number {
  const jitter = policy.jitter ?? DEFAULT_RESYNC_JITTER;
  const random = policy.random ?? Math.random;
  return Math.round(policy.periodMs * (1 + jitter * (2 * random() - 1)));
}

export interface ControllerOptions {
  name: string;
  factory: InformerFactory;
  /** The reconciled kind: its informer, and its group and kind for the keys and owner references. */
  for: InformerRequest & GroupKind;
  /** Owned kinds: their events enqueue the controlling owner. */
  owns?: readonly WatchSource[];
  /** Other kinds, mapped to keys by a function. */
  watches?: readonly Watch[];
  filter?: EventFilter;
  reconcile(key: ObjectKey, context: ReconcileContext): Promise<ReconcileResult> | ReconcileResult;
  /**
   * The write scope (see write-scope.ts) each reconcile of `key` runs in, so its writes are fenced
   * as that scope's; undefined, or no function: outside any scope, whatever scope enqueued the key.
   */
  writeScope?: (key: ObjectKey) => string | undefined;
  concurrency?: number | Slots;
  observer?: WorkQueueObserver;
  reconcileTimeoutMs?: number;
  /** Reconcile every object again periodically; absent, only events and requeues reconcile. */
  resync?: ResyncPolicy;
  clock?: Clock;
  logger?: Logger;
}

/** How long a reconcile waits for the caches to sync before it is put back for that long. */
const SYNC_WAIT_MS = 1_000;

/**
 * When an informer's API server answers again, the keys backing off after failures are retried
 * within this window, spread over it (docs/spec/children-and-status.md §1 step 12).
 */
export const RECOVERY_RETRY_WINDOW_MS = 1_000;

interface Watched {
  handle: InformerHandle;
  /** Released by this controller: it acquired the handle. */
  owned: boolean;
  unsubscribe: () => void;
}

export class Controller<T extends KubeObject = KubeObject> {
  readonly #options: ControllerOptions;
  readonly #queue: WorkQueue;
  readonly #primary: InformerHandle<T>;
  readonly #watched = new Set<Watched>();
  /** Told when a watch starts or stops (see waitForSync). */
  readonly #watchedChanged = new Set<() => void>();
  /** Events held while their key's reconcile runs (see EventFilter.holdWhileReconciling). */
  readonly #held = new Map<string, ControllerEvent[]>();
  #resync: ResyncPolicy | undefined;

  constructor(options: ControllerOptions) {
    this.#options = options;
    this.#resync = options.resync;
    this.#queue = new WorkQueue({
      reconcile: (key, context) => this.#reconcile(key, context),
      ...(options.concurrency === undefined ? {} : { concurrency: options.concurrency }),
      ...(options.observer ? { observer: options.observer } : {}),
      ...(options.reconcileTimeoutMs === undefined ? {} : { reconcileTimeoutMs: options.reconcileTimeoutMs }),
      ...(options.clock ? { clock: options.clock } : {}),
      ...(options.logger ? { logger: options.logger.child({ controller: options.name }) } : {}),
    });
    this.#primary = options.factory.acquire<T>(options.for);
    this.#subscribe(this.#primary as unknown as InformerHandle, true, (event) =>
      this.#filtered(event, this.#keyOf(event.object)),
    );
    for (const source of options.owns ?? []) this.own(source);
    for (const watch of options.watches ?? []) this.watch(watch);
  }

  get name(): string {
    return this.#options.name;
  }

  /** The reconciled kind's informer handle (its cache, and handlers beside the controller's). */
  get informer(): InformerHandle<T> {
    return this.#primary;
  }

  /** The reconciled object as the cache holds it. */
  get(key: Pick<ObjectKey, 'namespace' | 'name'>): T | undefined {
    return this.#primary.informer.get(key.namespace === '' ? undefined : key.namespace, key.name);
  }

  /** The key of a reconciled object of this namespace and name. */
  keyFor(namespace: string, name: string): ObjectKey {
    const { group, kind } = this.#options.for;
    return { group, kind, namespace, name };
  }

  /** Enqueues `key` at `priority` (default normal: a change asks for it). */
  enqueue(key: ObjectKey, priority = NORMAL_PRIORITY): void {
    this.#queue.add(formatObjectKey(key), priority);
  }

  /** Every object in the reconciled kind's cache, at `priority` (default normal). */
  enqueueAll(priority = NORMAL_PRIORITY): void {
    for (const object of this.#primary.informer.list()) this.enqueue(this.#keyOf(object), priority);
  }

  /**
   * A new resync policy (or none), taking effect as each object's reconcile ends; a resync already
   * scheduled runs once more, unless the object is enqueued before (which cancels it).
   */
  setResync(policy: ResyncPolicy | undefined): void {
    this.#resync = policy;
  }

  /** Starts watching an owned kind; the answer stops it (and releases the informer if acquired). */
  own(source: WatchSource): () => void {
    return this.#watch(source, (event) => {
      const key = this.#ownerKey(event.object);
      return key ? this.#filtered(event, key) : undefined;
    });
  }

  /** Starts a mapped watch; the answer stops it (and releases the informer if acquired). */
  watch<W extends KubeObject>(watch: Watch<W>): () => void {
    return this.#watch(watch.source as WatchSource, (event) => {
      const priority = eventPriority(event);
      for (const key of watch.map(event as ControllerEvent<W>)) this.enqueue(key, priority);
    });
  }

  hasSynced(): boolean {
    return [...this.#watched].every(({ handle }) => handle.informer.hasSynced());
  }

  /**
   * Resolves true once every informer watched then has synced, false after `timeoutMs`. The watched
   * set may change meanwhile (an owned kind's informer replaced by one of another selector, its old
   * one stopped and never to sync): the wait follows the set as it is, not as it was when it began.
   */
  async waitForSync(timeoutMs: number): Promise<boolean> {
    const clock = this.#options.clock ?? realClock;
    const deadline = clock.monotonic() + timeoutMs;
    for (;;) {
      if (this.hasSynced()) return true;
      const leftMs = deadline - clock.monotonic();
      if (leftMs <= 0) return false;
      const stopWaiting = new AbortController();
      const changed = new Promise<'changed'>((resolve) => {
        const onChange = () => resolve('changed');
        this.#watchedChanged.add(onChange);
        stopWaiting.signal.addEventListener('abort', () => this.#watchedChanged.delete(onChange));
      });
      const synced = Promise.all(
        [...this.#watched].map(({ handle }) => handle.informer.waitForSync(leftMs, stopWaiting.signal)),
      ).then((answers) => answers.every(Boolean));
      const outcome = await Promise.race([synced, changed]);
      stopWaiting.abort();
      if (outcome === false) return this.hasSynced();
    }
  }

  /** Keys waiting to start. */
  get length(): number {
    return this.#queue.length;
  }

  /** Reconciles running now. */
  get running(): number {
    return this.#queue.running;
  }

  /** How long the queue has had work without a reconcile finishing (see WorkQueue.stalledForMs). */
  stalledForMs(): number {
    return this.#queue.stalledForMs();
  }

  /** Stops taking work and waits for the running reconciles; `abort` fires their signals first. */
  async stop(options: { abort?: string } = {}): Promise<void> {
    await this.#queue.shutdown({
      drain: true,
      ...(options.abort === undefined ? {} : { abort: options.abort }),
    });
    for (const watched of [...this.#watched]) this.#unwatch(watched);
  }

  #watch(source: WatchSource, handle: (event: ControllerEvent) => void): () => void {
    const acquired = !('informer' in source);
    const informerHandle = acquired ? this.#options.factory.acquire(source) : source;
    const watched = this.#subscribe(informerHandle, acquired, handle);
    return () => this.#unwatch(watched);
  }

  #subscribe(handle: InformerHandle, owned: boolean, onEvent: (event: ControllerEvent) => void): Watched {
    const unsubscribe = handle.informer.addHandlers({
      add: (object, inInitialList) => onEvent({ type: 'add', object, inInitialList }),
      update: (object, old) => onEvent({ type: 'update', object, old }),
      delete: (object) => onEvent({ type: 'delete', object }),
      recovered: () => this.#queue.retryBackedOffWithin(RECOVERY_RETRY_WINDOW_MS),
    });
    const watched: Watched = { handle, owned, unsubscribe };
    this.#watched.add(watched);
    this.#notifyWatchedChanged();
    return watched;
  }

  #unwatch(watched: Watched): void {
    if (!this.#watched.delete(watched)) return;
    watched.unsubscribe();
    if (watched.owned) watched.handle.release();
    this.#notifyWatchedChanged();
  }

  #notifyWatchedChanged(): void {
    for (const notify of [...this.#watchedChanged]) notify();
  }

  /** Enqueues `key` for `event` unless the filter refuses it, or holds it while `key` runs. */
  #filtered(event: ControllerEvent, key: ObjectKey): void {
    const filter = this.#options.filter;
    if (!filter) return this.enqueue(key, eventPriority(event));
    const text = formatObjectKey(key);
    const held = filter.holdWhileReconciling ? this.#held.get(text) : undefined;
    if (held) held.push(event);
    else if (filter.admit(event)) this.#queue.add(text, eventPriority(event));
  }

  async #reconcile(text: string, context: ReconcileContext): Promise<ReconcileResult> {
    // As controller-runtime starts its workers only once every cache has synced: before that, a
    // reconcile would take an object an owned kind's cache has not listed yet for a missing one
    // (and create it again, say, on every restart).
    if (!this.hasSynced() && !(await this.waitForSync(SYNC_WAIT_MS))) return { requeueAfterMs: SYNC_WAIT_MS };
    const result = await this.#reconcileHolding(text, context);
    this.#scheduleResync(text, result);
    return result;
  }

  /**
   * The next periodic reconcile of `text`, after a reconcile that ended well (errors are retried with
   * backoff, terminal ones wait for an event) and while the object exists. The queue keeps the sooner
   * of this and a requeue the result asks for; an event before it cancels it, and the reconcile that
   * event brings schedules the next.
   */
  #scheduleResync(text: string, result: ReconcileResult): void {
    const policy = this.#resync;
    if (policy === undefined) return;
    if (result !== undefined && ('error' in result || 'terminal' in result)) return;
    if (this.get(parseObjectKey(text)) === undefined) return;
    this.#queue.addAfter(text, resyncDelayMs(policy), LOW_PRIORITY);
  }

  async #reconcileHolding(text: string, context: ReconcileContext): Promise<ReconcileResult> {
    const filter = this.#options.filter;
    if (!filter?.holdWhileReconciling) return this.#reconcileScoped(parseObjectKey(text), context);
    const held: ControllerEvent[] = [];
    this.#held.set(text, held);
    try {
      return await this.#reconcileScoped(parseObjectKey(text), context);
    } finally {
      // A reconcile past its deadline may still run beside its successor: only the latest holds events.
      if (this.#held.get(text) === held) this.#held.delete(text);
      // Every held event is judged (a filter may keep records that judging consumes); the key
      // waits at the highest priority of those admitted.
      let priority: number | undefined;
      for (const event of held) {
        if (filter.admit(event)) priority = Math.max(priority ?? LOW_PRIORITY, eventPriority(event));
      }
      if (priority !== undefined) this.#queue.add(text, priority);
    }
  }

  /**
   * The reconcile in the scope its key is given, and never in another: the queue starts it from
   * whatever code added the key (another scope's reconcile, an informer's handler), whose scope it
   * would otherwise inherit.
   */
  #reconcileScoped(key: ObjectKey, context: ReconcileContext): Promise<ReconcileResult> | ReconcileResult {
    return writeScopes.within(this.#options.writeScope?.(key), () => this.#options.reconcile(key, context));
  }

  #keyOf(object: KubeObject): ObjectKey {
    return this.keyFor(object.metadata.namespace ?? '', object.metadata.name ?? '');
  }

  #ownerKey(object: KubeObject): ObjectKey | undefined {
    const { group, kind } = this.#options.for;
    const owner = (object.metadata.ownerReferences ?? []).find((reference) => reference.controller === true);
    if (!owner || owner.kind !== kind || splitApiVersion(owner.apiVersion).group !== group) return undefined;
    return this.keyFor(object.metadata.namespace ?? '', owner.name);
  }
}
