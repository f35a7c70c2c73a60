import { randomUUID } from 'node:crypto';
import type { Logger } from 'pino';
import { type BackoffPolicy, KeyedBackoff, type Random } from './backoff.ts';
import { type Clock, realClock, type TimerHandle } from '../time/clock.ts';
import { canLend, ConcurrencyLimit, type Slots } from './concurrency-limit.ts';
import { NORMAL_PRIORITY, ReadyKeys } from './ready-keys.ts';
import { isAbortError } from '../client/request-errors.ts';
import { serverRetryAfterMs } from '../client/api-error.ts';

/**
 * What a reconcile tells the queue: nothing (done, wait for the next event), a requeue after a
 * delay (done for now, look again later), an error (retry with backoff, or after the given delay, or
 * after the API server's Retry-After when the error is its refusal for load),
 * or a terminal error (counted as an error, never retried: only a new event brings the key back,
 * as controller-runtime's TerminalError). A reconcile that throws counts as `{ error }`.
 */
export type ReconcileResult =
  { requeueAfterMs?: number } | { error: unknown; retryAfterMs?: number } | { terminal: unknown } | void;

/** What each reconcile gets besides its key. */
export interface ReconcileContext {
  /** Fires at the reconcile's deadline, or when the queue shuts down aborting (lost leadership). */
  signal: AbortSignal;
  /** Tells one run of one key apart in the log (controller-runtime's reconcileID). */
  reconcileId: string;
  /** The queue's logger with `reconcileID` and `key`; absent when the queue has none. */
  logger?: Logger;
  /**
   * Runs `wait`, a wait on something outside the process (a hook), with this run's part of the
   * slots shared with other queues given back, and takes a part back before returning: a run
   * blocked outside holds only its own queue's place. Rejects with the signal's reason when the
   * run ended meanwhile (its deadline, a shutdown that aborts). Where the queue shares no slots it
   * just runs `wait`.
   */
  withoutSharedSlot<T>(wait: () => Promise<T>): Promise<T>;
}

export type Reconcile = (
  key: string,
  context: ReconcileContext,
) => Promise<ReconcileResult> | ReconcileResult;

/**
 * How a run ended, for metrics and logs only (the `result` label): not a result a reconcile returns.
 * `timeout`: it did not finish within its deadline and was abandoned; `aborted`: its signal fired
 * (shutdown, lost leadership) and it stopped with an AbortError.
 */
export type ReconcileMetricLabel = 'success' | 'requeue' | 'error' | 'timeout' | 'aborted';

/** A reconcile still running at its deadline: its slot was freed, whatever it returns later is ignored. */
export class ReconcileTimeoutError extends Error {
  constructor(key: string, timeoutMs: number) {
    super(`the reconcile of ${key} did not finish within ${timeoutMs} ms; it is retried with backoff`);
    this.name = 'ReconcileTimeoutError';
  }
}

const ABANDONED = Symbol('abandoned');

/** What one run holds of the queue's slots. */
interface HeldSlot {
  /** Its shared part is lent (see ReconcileContext.withoutSharedSlot). */
  lent: boolean;
  /** Given back: the run finished or was abandoned, and may not take a part again. */
  released: boolean;
}

/** A reconcile that stopped with an AbortError after its signal fired: nothing to report or retry. */
const ABORTED = Symbol('aborted');

/** Hooks for metrics and logs. Every method is optional. */
export interface WorkQueueObserver {
  /** The number of keys waiting to start changed. */
  depth?(depth: number): void;
  /** A key entered the queue (adds that collapse into an already waiting key are not counted). */
  added?(key: string): void;
  /** A reconcile started, `queueLatencyMs` after its key entered the queue. */
  started?(key: string, queueLatencyMs: number): void;
  finished?(key: string, outcome: ReconcileMetricLabel, durationMs: number, error?: unknown): void;
  /** A key was scheduled for a retry after a failure. */
  retried?(key: string, delayMs: number): void;
}

export interface WorkQueueOptions {
  reconcile: Reconcile;
  /** Reconciles running at once: a number for this queue alone, or slots shared with other queues. Default 1. */
  concurrency?: number | Slots;
  /** Per-key exponential backoff after failures. Default 5 ms doubling up to 1000 s. */
  backoff?: Partial<BackoffPolicy>;
  clock?: Clock;
  observer?: WorkQueueObserver;
  /**
   * A reconcile still running after this long gives up its slot: the key is retried with backoff
   * and whatever the abandoned run returns later is ignored. Default: no deadline.
   */
  reconcileTimeoutMs?: number;
  /** Where reconciles that throw, and abandoned ones, are reported (at error level). */
  logger?: Logger;
}

export const DEFAULT_BACKOFF: BackoffPolicy = { baseMs: 5, capMs: 1_000_000 };

interface DelayedAdd {
  readyAt: number;
  priority: number;
  timer: TimerHandle;
  /** A retry after a failure, waiting out its backoff delay (not a Retry-After, not a requeue). */
  backoff: boolean;
}

/** A key that must run (again). */
interface DirtyKey {
  /** When it entered the queue. */
  addedAt: number;
  /** The highest priority it was added at since. */
  priority: number;
}

/**
 * A keyed work queue with the semantics of client-go's workqueue driven by controller-runtime's
 * reconcile loop: a key waits at most once; a key never runs twice at the same time; adds that
 * arrive while a key runs collapse into exactly one follow-up run after it finishes. Keys start by
 * priority, as controller-runtime's priority queue does (ready-keys.ts): a key added again waits at
 * the higher of its priorities, and a delayed add merged with another is due at the sooner time and
 * the higher priority. Retries and requeues keep the priority of the run that asked for them.
 */
export class WorkQueue {
  readonly #reconcile: Reconcile;
  readonly #limit: Slots;
  readonly #backoff: KeyedBackoff;
  readonly #clock: Clock;
  readonly #observer: WorkQueueObserver;
  readonly #reconcileTimeoutMs: number | undefined;
  readonly #logger: Logger | undefined;

  /** The abort controllers of the running reconciles. */
  readonly #running = new Set<AbortController>();
  /** Keys ready to start, by priority. */
  readonly #ready = new ReadyKeys();
  readonly #dirty = new Map<string, DirtyKey>();
  readonly #processing = new Set<string>();
  readonly #delayed = new Map<string, DelayedAdd>();
  readonly #inFlight = new Set<Promise<void>>();
  #waitingForSlot = false;
  #shuttingDown = false;
  /** When a reconcile last finished, or the queue last got work after being idle. */
  #lastProgressAt: number;
  /** An abandoned reconcile is no progress: going idle after one does not reset the stall clock. */
  #abandonedSinceProgress = false;

  constructor(options: WorkQueueOptions) {
    this.#reconcile = options.reconcile;
    const concurrency = options.concurrency ?? 1;
    this.#limit = typeof concurrency === 'number' ? new ConcurrencyLimit(concurrency) : concurrency;
    this.#backoff = new KeyedBackoff({ ...DEFAULT_BACKOFF, ...options.backoff });
    this.#clock = options.clock ?? realClock;
    this.#observer = options.observer ?? {};
    this.#reconcileTimeoutMs = options.reconcileTimeoutMs;
    this.#logger = options.logger;
    this.#lastProgressAt = this.#clock.now();
  }

  /** Keys waiting to start (not counting running ones). */
  get length(): number {
    return this.#ready.size;
  }

  get running(): number {
    return this.#processing.size;
  }

  get shuttingDown(): boolean {
    return this.#shuttingDown;
  }

  /**
   * How long the queue has had work (keys waiting or running) without any reconcile finishing; 0
   * while it is idle. A wedged queue is one where this keeps growing.
   */
  stalledForMs(): number {
    if (this.#idle()) return 0;
    return this.#clock.now() - this.#lastProgressAt;
  }

  /** Consecutive failures recorded for `key` since its last success or `forget`. */
  failures(key: string): number {
    return this.#backoff.failures(key);
  }

  /** Adds `key` at `priority` (ready-keys.ts; default NORMAL_PRIORITY). */
  add(key: string, priority = NORMAL_PRIORITY): void {
    if (this.#shuttingDown) return;
    // The key is now due immediately, which is sooner than any scheduled add; it keeps that one's priority if higher.
    const due = Math.max(priority, this.#cancelDelayed(key) ?? priority);
    const dirty = this.#dirty.get(key);
    if (dirty !== undefined) {
      if (due <= dirty.priority) return;
      dirty.priority = due;
      if (!this.#processing.has(key)) this.#ready.push(key, due);
      return;
    }
    this.#dirty.set(key, { addedAt: this.#clock.now(), priority: due });
    this.#observer.added?.(key);
    // A running key is re-queued when it finishes: that is the single follow-up run.
    if (this.#processing.has(key)) return;
    if (this.#idle() && !this.#abandonedSinceProgress) this.#lastProgressAt = this.#clock.now();
    this.#ready.push(key, due);
    this.#observer.depth?.(this.#ready.size);
    this.#pump();
  }

  /** Adds `key` at `priority` after `delayMs`, unless it is already due sooner (then at the higher priority). */
  addAfter(key: string, delayMs: number, priority = NORMAL_PRIORITY): void {
    this.#schedule(key, delayMs, priority, false);
  }

  /**
   * The API server answers again after failing: every key waiting out a backoff delay after a failure
   * is retried within `windowMs` instead, each at a random moment of it, its failure count kept
   * (docs/spec/children-and-status.md §1 step 12). Keys held by a Retry-After keep their time.
   */
  retryBackedOffWithin(windowMs: number, random: Random = Math.random): void {
    for (const [key, delayed] of [...this.#delayed]) {
      if (delayed.backoff) this.#schedule(key, random() * windowMs, delayed.priority, true);
    }
  }

  #schedule(key: string, delayMs: number, priority: number, backoff: boolean): void {
    if (this.#shuttingDown) return;
    // A waiting key is due sooner already: it takes the higher priority, if this is.
    if (delayMs <= 0 || this.#dirty.has(key)) {
      this.add(key, priority);
      return;
    }
    const readyAt = this.#clock.now() + delayMs;
    const scheduled = this.#delayed.get(key);
    const merged = Math.max(priority, scheduled?.priority ?? priority);
    if (scheduled !== undefined) {
      if (scheduled.readyAt <= readyAt) {
        scheduled.priority = merged;
        return;
      }
      this.#clock.clearTimeout(scheduled.timer);
    }
    const entry: DelayedAdd = {
      readyAt,
      priority: merged,
      backoff,
      timer: this.#clock.setTimeout(() => {
        this.#delayed.delete(key);
        this.add(key, entry.priority);
      }, delayMs),
    };
    this.#delayed.set(key, entry);
  }

  /** Records a failure of `key` and adds it at `priority` after its backoff delay. */
  addRateLimited(key: string, priority = NORMAL_PRIORITY): void {
    if (this.#shuttingDown) return;
    this.#retryAfter(key, this.#backoff.next(key), priority);
  }

  /** Resets the backoff of `key`. */
  forget(key: string): void {
    this.#backoff.reset(key);
  }

  /**
   * Stops taking work: later adds are ignored, waiting and scheduled keys are dropped. With
   * `drain` (the default) resolves once the running reconciles have finished; with `abort` their
   * signals fire first, with that reason (e.g. leadership lost: their writes must stop).
   */
  async shutdown(options: { drain?: boolean; abort?: string } = {}): Promise<void> {
    this.#shuttingDown = true;
    if (options.abort !== undefined) {
      for (const controller of this.#running) controller.abort(new Error(options.abort));
    }
    for (const { timer } of this.#delayed.values()) this.#clock.clearTimeout(timer);
    this.#delayed.clear();
    this.#ready.clear();
    this.#dirty.clear();
    this.#observer.depth?.(0);
    if (options.drain ?? true) await Promise.allSettled([...this.#inFlight]);
  }

  #idle(): boolean {
    return this.#ready.size === 0 && this.#processing.size === 0;
  }

  #retryAfter(key: string, delayMs: number, priority: number, backoff = true): void {
    this.#observer.retried?.(key, delayMs);
    this.#schedule(key, delayMs, priority, backoff);
  }

  /** Cancels the scheduled add of `key`; its priority, if there was one. */
  #cancelDelayed(key: string): number | undefined {
    const scheduled = this.#delayed.get(key);
    if (scheduled === undefined) return undefined;
    this.#clock.clearTimeout(scheduled.timer);
    this.#delayed.delete(key);
    return scheduled.priority;
  }

  #pump(): void {
    while (this.#ready.size > 0 && !this.#shuttingDown) {
      if (!this.#limit.tryAcquire()) {
        if (!this.#waitingForSlot) {
          this.#waitingForSlot = true;
          this.#limit.whenAvailable(() => {
            this.#waitingForSlot = false;
            this.#pump();
          });
        }
        return;
      }
      const key = this.#ready.shift() as string;
      const dirty = this.#dirty.get(key) ?? { addedAt: this.#clock.now(), priority: NORMAL_PRIORITY };
      this.#dirty.delete(key);
      this.#processing.add(key);
      this.#observer.depth?.(this.#ready.size);
      const run = this.#run(key, dirty);
      this.#inFlight.add(run);
      void run.finally(() => this.#inFlight.delete(run));
    }
  }

  async #run(key: string, { addedAt, priority }: DirtyKey): Promise<void> {
    const startedAt = this.#clock.now();
    this.#observer.started?.(key, startedAt - addedAt);
    let result: ReconcileResult | typeof ABANDONED | typeof ABORTED;
    const abort = new AbortController();
    const reconcileId = randomUUID();
    const logger = this.#logger?.child({ reconcileID: reconcileId, key });
    const slot: HeldSlot = { lent: false, released: false };
    const context: ReconcileContext = {
      signal: abort.signal,
      reconcileId,
      ...(logger ? { logger } : {}),
      withoutSharedSlot: (wait) => this.#withoutSharedSlot(slot, abort.signal, wait),
    };
    this.#running.add(abort);
    try {
      // Start on a later microtask so that add() never runs reconcile code inside the caller.
      result = await this.#withinDeadline(Promise.resolve().then(() => this.#reconcile(key, context)));
    } catch (error) {
      // Aborted by its signal, or by what the shutdown cut (a call the reconcile waited on).
      if ((abort.signal.aborted || this.#shuttingDown) && isAbortError(error)) {
        (logger ?? this.#logger)?.info({ key, reason: errorText(abort.signal.reason) }, 'reconcile aborted');
        result = ABORTED;
      } else {
        (logger ?? this.#logger)?.error({ key, err: error }, 'reconcile failed');
        result = { error };
      }
    } finally {
      this.#running.delete(abort);
    }
    const durationMs = this.#clock.now() - startedAt;
    this.#processing.delete(key);
    const followUp = this.#dirty.get(key);
    if (followUp !== undefined && !this.#shuttingDown) {
      this.#ready.push(key, followUp.priority);
      this.#observer.depth?.(this.#ready.size);
    }
    let finished: { outcome: string; retryInMs?: number } = { outcome: 'success' };
    if (result === ABANDONED) {
      this.#abandonedSinceProgress = true;
      const error = new ReconcileTimeoutError(key, this.#reconcileTimeoutMs ?? 0);
      abort.abort(error);
      this.#logger?.error({ key, err: error }, 'reconcile abandoned at its deadline');
      const backoffDelay = this.#backoff.next(key);
      if (!this.#shuttingDown) this.#retryAfter(key, backoffDelay, priority);
      this.#observer.finished?.(key, 'timeout', durationMs, error);
      finished = { outcome: 'timeout', retryInMs: backoffDelay };
    } else if (result === ABORTED) {
      // Aborted by shutdown there is nothing to retry; aborted otherwise, the key runs again.
      const backoffDelay = this.#backoff.next(key);
      if (!this.#shuttingDown) this.#retryAfter(key, backoffDelay, priority);
      this.#observer.finished?.(key, 'aborted', durationMs);
      finished = { outcome: 'aborted', retryInMs: backoffDelay };
    } else if (result !== undefined && 'terminal' in result) {
      this.#backoff.reset(key);
      (logger ?? this.#logger)?.error({ key, err: result.terminal }, 'reconcile failed for good');
      this.#observer.finished?.(key, 'error', durationMs, result.terminal);
      finished = { outcome: 'terminal' };
    } else if (result !== undefined && 'error' in result) {
      const backoffDelay = this.#backoff.next(key);
      // A request the API server refused for load is retried when it asked, not sooner.
      const askedMs = result.retryAfterMs ?? serverRetryAfterMs(result.error);
      if (!this.#shuttingDown)
        this.#retryAfter(key, askedMs ?? backoffDelay, priority, askedMs === undefined);
      this.#observer.finished?.(key, 'error', durationMs, result.error);
      finished = { outcome: 'error', retryInMs: askedMs ?? backoffDelay };
    } else if (result !== undefined && result.requeueAfterMs !== undefined) {
      this.#backoff.reset(key);
      this.addAfter(key, result.requeueAfterMs, priority);
      this.#observer.finished?.(key, 'requeue', durationMs);
      finished = { outcome: 'requeue', retryInMs: result.requeueAfterMs };
    } else {
      this.#backoff.reset(key);
      this.#observer.finished?.(key, 'success', durationMs);
    }
    (logger ?? this.#logger)?.debug({ key, durationMs, ...finished }, 'reconcile finished');
    if (result !== ABANDONED) {
      this.#lastProgressAt = this.#clock.now();
      this.#abandonedSinceProgress = false;
    }
    // Released last, so observers see this run finish before the next one starts.
    this.#release(slot);
    this.#pump();
  }

  #release(slot: HeldSlot): void {
    slot.released = true;
    const limit = this.#limit;
    if (slot.lent && canLend(limit)) limit.releaseLent();
    else limit.release();
  }

  async #withoutSharedSlot<T>(slot: HeldSlot, signal: AbortSignal, wait: () => Promise<T>): Promise<T> {
    const limit = this.#limit;
    if (!canLend(limit) || slot.lent || slot.released) return wait();
    limit.lend();
    slot.lent = true;
    try {
      return await wait();
    } finally {
      await this.#reclaim(slot, signal);
    }
  }

  /** Takes a shared part back for `slot`, waiting in line with the queues' other waiters. */
  #reclaim(slot: HeldSlot, signal: AbortSignal): Promise<void> {
    const limit = this.#limit;
    if (!canLend(limit)) return Promise.resolve();
    return new Promise((resolve, reject) => {
      let settled = false;
      const stop = (): void => {
        if (settled) return;
        settled = true;
        reject(stoppedWhileLent(signal));
      };
      const attempt = (): void => {
        if (settled) return;
        // Ended meanwhile: whatever it held was given back, so it must not take a part now.
        if (slot.released || signal.aborted) {
          stop();
          return;
        }
        if (limit.tryReclaim()) {
          settled = true;
          slot.lent = false;
          signal.removeEventListener('abort', stop);
          resolve();
          return;
        }
        limit.whenReclaimable(attempt);
      };
      signal.addEventListener('abort', stop, { once: true });
      attempt();
    });
  }

  /** The reconcile's result, or ABANDONED when the deadline comes first (its late result is dropped). */
  #withinDeadline(running: Promise<ReconcileResult>): Promise<ReconcileResult | typeof ABANDONED> {
    const timeoutMs = this.#reconcileTimeoutMs;
    if (timeoutMs === undefined) return running;
    let timer: TimerHandle | undefined;
    const deadline = new Promise<typeof ABANDONED>((resolve) => {
      timer = this.#clock.setTimeout(() => resolve(ABANDONED), timeoutMs);
    });
    return Promise.race([running, deadline]).finally(() => this.#clock.clearTimeout(timer));
  }
}

/** The signal's reason as an AbortError, which the run's end reports as aborted or abandoned. */
function stoppedWhileLent(signal: AbortSignal): Error {
  const error = new Error(`the run ended while it waited outside: ${errorText(signal.reason)}`);
  error.name = 'AbortError';
  return error;
}

function errorText(reason: unknown): string {
  return reason instanceof Error ? reason.message : String(reason);
}
