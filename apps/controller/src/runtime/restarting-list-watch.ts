import type { RequestOptions } from 'node:https';
import {
  ListWatch,
  Watch,
  type KubeConfig,
  type KubernetesListObject,
  type KubernetesObject,
} from '@kubernetes/client-node';
import type { KubeObject } from '@scoby/kube-objects';
import { backoffDelay, type BackoffPolicy } from './backoff.ts';
import type { Clock, TimerHandle } from './clock.ts';

/** Where a list-watch delivers what it learns. */
export interface ListWatchSink<T> {
  /** A full list: the complete current state of the watched scope. */
  listed(items: T[]): void;
  upserted(object: T): void;
  removed(object: T): void;
  /** The list-watch failed and will restart after `retryInMs`. */
  failed(error: unknown, retryInMs: number): void;
}

export interface RestartingListWatchOptions<T> {
  kubeConfig: KubeConfig;
  /** API path of the collection, e.g. `/apis/apps/v1/namespaces/shop/deployments`. */
  path: string;
  list: () => Promise<{ metadata?: { resourceVersion?: string }; items: T[] }>;
  labelSelector?: string;
  backoff: BackoffPolicy;
  /** A watch from which neither an event nor a bookmark arrived for this long is restarted. */
  silenceTimeoutMs: number;
  clock: Clock;
  sink: ListWatchSink<T>;
}

/** The server ends each watch after 5 to 10 minutes, as client-go's reflector asks, spreading reconnects. */
function serverTimeoutSeconds(): number {
  return Math.floor(300 * (1 + Math.random()));
}

/** A watch that delivered nothing, not even a bookmark, for longer than the bound. */
export class WatchSilentError extends Error {
  constructor(path: string, silentMs: number) {
    super(`the watch of ${path} delivered no event or bookmark for ${silentMs} ms`);
    this.name = 'WatchSilentError';
  }
}

/**
 * client-node's Watch plus close(), bookmarks and a sign of life. ListWatch.stop() only aborts a
 * watch whose request has been answered; close() also cuts one the server never answers, through
 * the agent client-node makes for each watch request. Every (re)connect and every event, bookmarks
 * included, calls `alive`.
 */
class ClosableWatch extends Watch {
  #closed = false;
  #active: AbortController | undefined;
  #agent: { destroy(): void } | undefined;
  readonly #alive: () => void;

  constructor(kubeConfig: KubeConfig, alive: () => void) {
    super(kubeConfig);
    this.#alive = alive;
    this.config = Object.assign(Object.create(kubeConfig) as KubeConfig, {
      applyToFetchOptions: async (options: RequestOptions) => {
        const init = await kubeConfig.applyToFetchOptions(options);
        const agent = init.agent as { destroy?: () => void } | undefined;
        if (typeof agent?.destroy === 'function') this.#agent = agent as { destroy(): void };
        if (this.#closed) this.#agent?.destroy();
        return init;
      },
    });
  }

  override async watch(
    path: string,
    queryParams: Record<string, string | number | boolean | undefined>,
    callback: (phase: string, apiObj: unknown, watchObj?: unknown) => void,
    done: (err: unknown) => void,
  ): Promise<AbortController> {
    this.#alive();
    const controller = await super.watch(
      path,
      { ...queryParams, allowWatchBookmarks: true, timeoutSeconds: serverTimeoutSeconds() },
      (phase, apiObj, watchObj) => {
        this.#alive();
        callback(phase, apiObj, watchObj);
      },
      done,
    );
    this.#active = controller;
    if (this.#closed) controller.abort();
    return controller;
  }

  close(): void {
    this.#closed = true;
    this.#active?.abort();
    this.#agent?.destroy();
  }
}

/**
 * One list + watch of one collection that never gives up. client-node 1.4's ListWatch relists by
 * itself after a 410 Gone, but after any other failure (list error, watch refused, connection
 * lost with an error) it emits 'error' and stops. This class then starts a fresh ListWatch after
 * an exponential backoff; the fresh one lists first, so the sink sees the full state again and
 * nothing that changed during the outage is missed. A watch that stays open but falls silent (no
 * event, no bookmark within the silence bound, as over a connection the network lost) counts as
 * such a failure.
 */
export class RestartingListWatch<T extends KubeObject> {
  readonly #options: RestartingListWatchOptions<T>;
  #current: { listWatch: ListWatch<KubernetesObject>; watch: ClosableWatch } | undefined;
  #restartTimer: TimerHandle | undefined;
  #silenceTimer: TimerHandle | undefined;
  #lastSignOfLife = 0;
  #failures = 0;
  #stopped = true;

  constructor(options: RestartingListWatchOptions<T>) {
    this.#options = options;
  }

  start(): void {
    if (!this.#stopped) return;
    this.#stopped = false;
    this.#connect();
  }

  stop(): void {
    this.#stopped = true;
    if (this.#restartTimer !== undefined) this.#options.clock.clearTimeout(this.#restartTimer);
    this.#restartTimer = undefined;
    this.#disconnect();
  }

  #connect(): void {
    const { kubeConfig, path, labelSelector, sink } = this.#options;
    const watch = new ClosableWatch(kubeConfig, () => this.#alive());
    const listWatch: ListWatch<KubernetesObject> = new ListWatch<KubernetesObject>(
      path,
      watch,
      (): Promise<KubernetesListObject<KubernetesObject>> => this.#list(listWatch),
      false,
      labelSelector,
    );
    const current = () => this.#current?.listWatch === listWatch;
    const asObject = (object: KubernetesObject) => object as unknown as T;
    listWatch.on('add', (object) => current() && sink.upserted(asObject(object)));
    listWatch.on('update', (object) => current() && sink.upserted(asObject(object)));
    listWatch.on('delete', (object) => current() && sink.removed(asObject(object)));
    listWatch.on('error', (error) => current() && this.#restartAfterFailure(error));
    this.#current = { listWatch, watch };
    this.#alive();
    this.#checkSilence(this.#options.silenceTimeoutMs);
    listWatch.start().catch((error: unknown) => current() && this.#restartAfterFailure(error));
  }

  #alive(): void {
    this.#lastSignOfLife = this.#options.clock.now();
  }

  /** Looks again after `delayMs`; one timer per connection, however many events arrive. */
  #checkSilence(delayMs: number): void {
    this.#silenceTimer = this.#options.clock.setTimeout(() => {
      this.#silenceTimer = undefined;
      const { clock, silenceTimeoutMs, path } = this.#options;
      const silentMs = clock.now() - this.#lastSignOfLife;
      if (silentMs < silenceTimeoutMs) this.#checkSilence(silenceTimeoutMs - silentMs);
      else this.#restartAfterFailure(new WatchSilentError(path, silentMs));
    }, delayMs);
  }

  async #list(listWatch: ListWatch<KubernetesObject>): Promise<KubernetesListObject<KubernetesObject>> {
    const list = await this.#options.list();
    // A list that comes back after its ListWatch was replaced or stopped must not start a watch.
    if (this.#current?.listWatch !== listWatch) throw new Error('list-watch replaced');
    this.#options.sink.listed(list.items);
    this.#alive();
    this.#failures = 0;
    return list as unknown as KubernetesListObject<KubernetesObject>;
  }

  #restartAfterFailure(error: unknown): void {
    this.#disconnect();
    this.#failures += 1;
    const delay = backoffDelay(this.#options.backoff, this.#failures);
    this.#options.sink.failed(error, delay);
    this.#restartTimer = this.#options.clock.setTimeout(() => {
      this.#restartTimer = undefined;
      if (!this.#stopped) this.#connect();
    }, delay);
  }

  #disconnect(): void {
    if (this.#silenceTimer !== undefined) this.#options.clock.clearTimeout(this.#silenceTimer);
    this.#silenceTimer = undefined;
    const current = this.#current;
    this.#current = undefined;
    if (current === undefined) return;
    current.watch.close();
    void current.listWatch.stop();
  }
}
