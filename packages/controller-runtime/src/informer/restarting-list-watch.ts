import type { KubeObject } from '@scoby/kube-objects';
import { ApiError, serverRetryAfterMs } from '../client/api-error.ts';
import type { OpenWatch, WatchEvent, WatchHandlers } from '../client/watch-request.ts';
import { backoffDelay, type BackoffPolicy, type Random } from '../queue/backoff.ts';
import type { Clock, TimerHandle } from '../time/clock.ts';

/** What a list-watch does after a failure: list again (the full state), or watch again from where it was. */
export type Restart = 'list' | 'watch';

/** Where a list-watch delivers what it learns. */
export interface ListWatchSink<T> {
  /** A full list: the complete current state of the watched scope. */
  listed(items: T[]): void;
  upserted(object: T): void;
  removed(object: T): void;
  /** The list-watch failed and will `restart` after `retryInMs`. */
  failed(error: unknown, retryInMs: number, restart: Restart): void;
  /** The API server answered (a list, or a watch request) after the list-watch had failed. */
  recovered?(): void;
}

export interface RestartingListWatchOptions<T> {
  /** API path of the collection, e.g. `/apis/apps/v1/namespaces/shop/deployments`, for messages. */
  path: string;
  list: () => Promise<{ metadata?: { resourceVersion?: string }; items: T[] }>;
  /** Opens a watch of the same collection with these query parameters (resourceVersion, bookmarks, timeout). */
  watch: (query: Record<string, string>, handlers: WatchHandlers) => OpenWatch;
  /** Delays after consecutive failures; their count starts again after a list, or a watch open for the cap. */
  backoff: BackoffPolicy;
  /** A watch from which neither an event nor a bookmark arrived for this long is restarted. */
  silenceTimeoutMs: number;
  clock: Clock;
  sink: ListWatchSink<T>;
  /** The jitter's random numbers (default Math.random). */
  random?: Random;
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
 * Whether a failed watch resumes from its last resourceVersion (client-go's reflector does the same):
 * a watch the network lost (refused, reset, cut mid-answer, fallen silent) or a refusal for load
 * (429) says nothing about the state, and a watch from the last version seen replays what changed
 * meanwhile, or is answered 410 Gone when that is no longer kept, and then lists. Any other answer
 * of the API server (a 5xx, a 4xx, an ERROR event) lists again.
 */
function restartAfter(error: unknown): Restart {
  if (!(error instanceof ApiError)) return 'watch';
  return error.code === 429 ? 'watch' : 'list';
}

/**
 * One list + watch of one collection that never gives up: it lists, then watches from the list's
 * resourceVersion, watching again from the last event or bookmark when the server ends a watch, and
 * listing again at once after 410 Gone. A watch lost to the network or refused for load is resumed
 * from the last resourceVersion seen; after a failed list, or any other refusal, it lists again.
 * Both happen after an exponential backoff with jitter (docs/spec/README.md, Informers after a failure),
 * or after the Retry-After of an answer that refused it for load when that is later; so nothing that
 * changed during an outage is missed: the watch replays it, or the fresh list holds it. Events go to
 * the sink as they are read: no second cache.
 */
export class RestartingListWatch<T extends KubeObject> {
  readonly #options: RestartingListWatchOptions<T>;
  /** The current connection; a callback of an older one finds it replaced and does nothing. */
  #current: { watch: OpenWatch | undefined } | undefined;
  #restartTimer: TimerHandle | undefined;
  #silenceTimer: TimerHandle | undefined;
  #lastSignOfLife = 0;
  #failures = 0;
  /** The last resourceVersion a list, event or bookmark gave; a resumed watch starts there. */
  #resourceVersion = '';
  /** When the API server answered the current watch request. */
  #watchOpenedAt: number | undefined;
  /** The last request failed and the API server has not answered one since. */
  #failing = false;
  #stopped = true;

  constructor(options: RestartingListWatchOptions<T>) {
    this.#options = options;
  }

  start(): void {
    if (!this.#stopped) return;
    this.#stopped = false;
    this.#connect('list');
  }

  stop(): void {
    this.#stopped = true;
    if (this.#restartTimer !== undefined) this.#options.clock.clearTimeout(this.#restartTimer);
    this.#restartTimer = undefined;
    this.#disconnect();
  }

  #connect(how: Restart): void {
    const current: { watch: OpenWatch | undefined } = { watch: undefined };
    this.#current = current;
    this.#alive();
    this.#checkSilence(this.#options.silenceTimeoutMs);
    if (how === 'list') void this.#listThenWatch(current);
    else this.#watchFrom(current);
  }

  async #listThenWatch(current: { watch: OpenWatch | undefined }): Promise<void> {
    let list: { metadata?: { resourceVersion?: string }; items: T[] };
    try {
      list = await this.#options.list();
    } catch (error) {
      if (this.#current === current) this.#restartAfterFailure(error, 'list');
      return;
    }
    // A list that comes back after its connection was replaced or stopped must not start a watch.
    if (this.#current !== current) return;
    this.#answered();
    this.#options.sink.listed(list.items);
    this.#alive();
    this.#failures = 0;
    this.#resourceVersion = list.metadata?.resourceVersion ?? '';
    this.#watchFrom(current);
  }

  #watchFrom(current: { watch: OpenWatch | undefined }): void {
    this.#watchOpenedAt = undefined;
    const query = {
      resourceVersion: this.#resourceVersion,
      allowWatchBookmarks: 'true',
      timeoutSeconds: String(serverTimeoutSeconds()),
    };
    current.watch = this.#options.watch(query, {
      opened: () => {
        if (this.#current !== current) return;
        this.#watchOpenedAt = this.#options.clock.now();
        this.#answered();
      },
      event: (event: WatchEvent) => {
        if (this.#current !== current) return;
        this.#alive();
        if (event.type === 'ERROR') {
          current.watch?.close();
          const status = event.object as unknown as WatchErrorStatus;
          // 410 Gone: the version is too old to watch from; a new list is the current state.
          if (status.code === 410) void this.#listThenWatch(current);
          else {
            const error = watchError(status);
            this.#restartAfterFailure(error, restartAfter(error));
          }
          return;
        }
        const version = event.object.metadata?.resourceVersion;
        if (version) this.#resourceVersion = version;
        if (event.type === 'ADDED' || event.type === 'MODIFIED')
          this.#options.sink.upserted(event.object as T);
        else if (event.type === 'DELETED') this.#options.sink.removed(event.object as T);
      },
      ended: (error) => {
        if (this.#current !== current) return;
        if (error !== undefined) this.#restartAfterFailure(error, restartAfter(error));
        else {
          this.#alive();
          this.#watchFrom(current);
        }
      },
    });
  }

  #alive(): void {
    this.#lastSignOfLife = this.#options.clock.now();
  }

  #answered(): void {
    if (!this.#failing) return;
    this.#failing = false;
    this.#options.sink.recovered?.();
  }

  /** Looks again after `delayMs`; one timer per connection, however many events arrive. */
  #checkSilence(delayMs: number): void {
    this.#silenceTimer = this.#options.clock.setTimeout(() => {
      this.#silenceTimer = undefined;
      const { clock, silenceTimeoutMs, path } = this.#options;
      const silentMs = clock.now() - this.#lastSignOfLife;
      if (silentMs < silenceTimeoutMs) this.#checkSilence(silenceTimeoutMs - silentMs);
      else this.#restartAfterFailure(new WatchSilentError(path, silentMs), 'watch');
    }, delayMs);
  }

  #restartAfterFailure(error: unknown, restart: Restart): void {
    const { backoff, clock, random } = this.#options;
    // A watch that had been serving for as long as the longest delay: this failure is a new one.
    if (this.#watchOpenedAt !== undefined && clock.now() - this.#watchOpenedAt >= backoff.capMs)
      this.#failures = 0;
    this.#disconnect();
    this.#failing = true;
    this.#failures += 1;
    // Nothing to resume from before the first list.
    const how = this.#resourceVersion === '' ? 'list' : restart;
    // An API server that refused for load said when to come back: not sooner.
    const delay = Math.max(backoffDelay(backoff, this.#failures, random), serverRetryAfterMs(error) ?? 0);
    this.#options.sink.failed(error, delay, how);
    this.#restartTimer = clock.setTimeout(() => {
      this.#restartTimer = undefined;
      if (!this.#stopped) this.#connect(how);
    }, delay);
  }

  #disconnect(): void {
    if (this.#silenceTimer !== undefined) this.#options.clock.clearTimeout(this.#silenceTimer);
    this.#silenceTimer = undefined;
    this.#current?.watch?.close();
    this.#current = undefined;
    this.#watchOpenedAt = undefined;
  }
}
