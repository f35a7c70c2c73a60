import type { KubeObject } from '@scoby/kube-objects';
import { ApiError, serverRetryAfterMs } from '../client/api-error.ts';
import type { OpenWatch, WatchEvent, WatchHandlers } from '../client/watch-request.ts';
import { backoffDelay, type BackoffPolicy } from '../queue/backoff.ts';
import type { Clock, TimerHandle } from '../time/clock.ts';

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
  /** API path of the collection, e.g. `/apis/apps/v1/namespaces/shop/deployments`, for messages. */
  path: string;
  list: () => Promise<{ metadata?: { resourceVersion?: string }; items: T[] }>;
  /** Opens a watch of the same collection with these query parameters (resourceVersion, bookmarks, timeout). */
  watch: (query: Record<string, string>, handlers: WatchHandlers) => OpenWatch;
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

/** The Status of a watch's ERROR event. */
interface WatchErrorStatus {
  code?: number;
  reason?: string;
  message?: string;
  details?: { retryAfterSeconds?: number };
}

function watchError(status: WatchErrorStatus): ApiError {
  return new ApiError(
    status.code ?? 0,
    status.reason ?? '',
    `watch error ${status.code}: ${status.message}`,
    status.details?.retryAfterSeconds,
  );
}

/** A watch that delivered nothing, not even a bookmark, for longer than the bound. */
export class WatchSilentError extends Error {
  constructor(path: string, silentMs: number) {
    super(`the watch of ${path} delivered no event or bookmark for ${silentMs} ms`);
    this.name = 'WatchSilentError';
  }
}

/**
 * One list + watch of one collection that never gives up: it lists, then watches from the list's
 * resourceVersion, watching again from the last event or bookmark when the server ends a watch, and
 * listing again at once after 410 Gone. After any other failure (list error, watch refused,
 * connection lost, a watch that stays open but falls silent — no event, no bookmark within the
 * silence bound — as over a connection the network lost) it starts over after an exponential
 * backoff, or after the Retry-After of an answer that refused it for load when that is later
 * (docs/spec/README.md); the fresh list gives the sink the full state again, so nothing that changed during the
 * outage is missed. Events go to the sink as they are read: no second cache.
 */
export class RestartingListWatch<T extends KubeObject> {
  readonly #options: RestartingListWatchOptions<T>;
  /** The current connection; a callback of an older one finds it replaced and does nothing. */
  #current: { watch: OpenWatch | undefined } | undefined;
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
    const current: { watch: OpenWatch | undefined } = { watch: undefined };
    this.#current = current;
    this.#alive();
    this.#checkSilence(this.#options.silenceTimeoutMs);
    void this.#listThenWatch(current);
  }

  async #listThenWatch(current: { watch: OpenWatch | undefined }): Promise<void> {
    let list: { metadata?: { resourceVersion?: string }; items: T[] };
    try {
      list = await this.#options.list();
    } catch (error) {
      if (this.#current === current) this.#restartAfterFailure(error);
      return;
    }
    // A list that comes back after its connection was replaced or stopped must not start a watch.
    if (this.#current !== current) return;
    this.#options.sink.listed(list.items);
    this.#alive();
    this.#failures = 0;
    this.#watchFrom(current, list.metadata?.resourceVersion ?? '');
  }

  #watchFrom(current: { watch: OpenWatch | undefined }, listedVersion: string): void {
    let resourceVersion = listedVersion;
    const query = {
      resourceVersion,
      allowWatchBookmarks: 'true',
      timeoutSeconds: String(serverTimeoutSeconds()),
    };
    current.watch = this.#options.watch(query, {
      event: (event: WatchEvent) => {
        if (this.#current !== current) return;
        this.#alive();
        if (event.type === 'ERROR') {
          current.watch?.close();
          const status = event.object as unknown as WatchErrorStatus;
          // 410 Gone: the version is too old to watch from; a new list is the current state.
          if (status.code === 410) void this.#listThenWatch(current);
          else this.#restartAfterFailure(watchError(status));
          return;
        }
        const version = event.object.metadata?.resourceVersion;
        if (version) resourceVersion = version;
        if (event.type === 'ADDED' || event.type === 'MODIFIED')
          this.#options.sink.upserted(event.object as T);
        else if (event.type === 'DELETED') this.#options.sink.removed(event.object as T);
      },
      ended: (error) => {
        if (this.#current !== current) return;
        if (error !== undefined) this.#restartAfterFailure(error);
        else {
          this.#alive();
          this.#watchFrom(current, resourceVersion);
        }
      },
    });
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

  #restartAfterFailure(error: unknown): void {
    this.#disconnect();
    this.#failures += 1;
    // An API server that refused for load said when to come back: not sooner.
    const delay = Math.max(
      backoffDelay(this.#options.backoff, this.#failures),
      serverRetryAfterMs(error) ?? 0,
    );
    this.#options.sink.failed(error, delay);
    this.#restartTimer = this.#options.clock.setTimeout(() => {
      this.#restartTimer = undefined;
      if (!this.#stopped) this.#connect();
    }, delay);
  }

  #disconnect(): void {
    if (this.#silenceTimer !== undefined) this.#options.clock.clearTimeout(this.#silenceTimer);
    this.#silenceTimer = undefined;
    this.#current?.watch?.close();
    this.#current = undefined;
  }
}
