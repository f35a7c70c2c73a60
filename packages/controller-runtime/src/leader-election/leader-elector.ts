import { hostname } from 'node:os';
import { randomUUID } from 'node:crypto';
import type { CoordinationV1Api, V1Lease } from '@kubernetes/client-node';
import type { Logger } from 'pino';
import { type Clock, realClock, type TimerHandle } from '../time/clock.ts';
import {
  claimedRecord,
  judgeLease,
  type LeaseObservation,
  observeLease,
  releasedRecord,
} from './lease-record.ts';
import { toRecord, toSpec } from './lease-spec.ts';

export type LeaseClient = Pick<
  CoordinationV1Api,
  'readNamespacedLease' | 'createNamespacedLease' | 'replaceNamespacedLease'
>;

export interface LeaderElectorOptions {
  client: LeaseClient;
  namespace: string;
  name: string;
  identity: string;
  /** How long a lease stays valid after its last renewal. Default 15 s. */
  leaseDurationMs?: number;
  /**
   * A leader that has not renewed for this long steps down and its write fence closes. Default 10 s;
   * it must stay below leaseDurationMs, so the leader stops before another candidate may take over.
   */
  renewDeadlineMs?: number;
  /** Pause between attempts to acquire or renew. Default 2 s. */
  retryPeriodMs?: number;
  onStartedLeading?: () => void;
  onStoppedLeading?: (reason: string) => void;
  clock?: Clock;
  logger?: Logger;
}

/** client-go's defaults. */
export const DEFAULT_LEASE_DURATION_MS = 15_000;
export const DEFAULT_RENEW_DEADLINE_MS = 10_000;
export const DEFAULT_RETRY_PERIOD_MS = 2_000;

/** `conflict`: someone wrote the Lease between our read and write; the next attempt reads again. */
type Attempt = 'leading' | 'held' | 'conflict' | 'failed';

/** `<hostname>_<uuid>`: unique per process even when pods share a hostname. */
export function defaultIdentity(): string {
  return `${hostname()}_${randomUUID()}`;
}

/**
 * Leader election on a coordination.k8s.io/v1 Lease, like client-go's: candidates poll the Lease,
 * take it when it has no holder or when they have seen it unchanged for a lease duration (timed by
 * their own monotonic clock, never by comparing the holder's timestamps with theirs), and the
 * holder renews it with optimistic concurrency (resourceVersion). A leader that cannot renew
 * within the renew deadline, counted from the start of its last successful renewal, or sees
 * another holder, steps down; writeRefusal() closes at that deadline even before the step-down
 * runs, so the process never writes while another candidate could hold the lease.
 */
export class LeaderElector {
  readonly #client: LeaseClient;
  readonly #namespace: string;
  readonly #name: string;
  readonly #identity: string;
  readonly #leaseDurationMs: number;
  readonly #renewDeadlineMs: number;
  readonly #retryPeriodMs: number;
  readonly #onStartedLeading: () => void;
  readonly #onStoppedLeading: (reason: string) => void;
  readonly #clock: Clock;
  readonly #logger: Logger | undefined;

  #leading = false;
  /** What writeRefusal says while not leading. */
  #notLeading = 'this process is not the leader';
  /** Monotonic time at which the last successful acquire or renew attempt started. */
  #renewedAt = 0;
  #observed: LeaseObservation | undefined;
  #healthy = false;
  #stopped = true;
  #loop: Promise<void> | undefined;
  #wake: (() => void) | undefined;
  #pause: TimerHandle | undefined;
  #renewWatchdog: TimerHandle | undefined;

  constructor(options: LeaderElectorOptions) {
    this.#client = options.client;
    this.#namespace = options.namespace;
    this.#name = options.name;
    this.#identity = options.identity;
    this.#leaseDurationMs = options.leaseDurationMs ?? DEFAULT_LEASE_DURATION_MS;
    this.#renewDeadlineMs = options.renewDeadlineMs ?? DEFAULT_RENEW_DEADLINE_MS;
    this.#retryPeriodMs = options.retryPeriodMs ?? DEFAULT_RETRY_PERIOD_MS;
    this.#onStartedLeading = options.onStartedLeading ?? (() => {});
    this.#onStoppedLeading = options.onStoppedLeading ?? (() => {});
    this.#clock = options.clock ?? realClock;
    this.#logger = options.logger?.child({
      lease: `${options.namespace}/${options.name}`,
      identity: options.identity,
    });
  }

  get identity(): string {
    return this.#identity;
  }

  isLeader(): boolean {
    return this.#leading;
  }

  /** Why this process must not write now; undefined while it leads within its renew deadline. */
  writeRefusal(): string | undefined {
    if (!this.#leading) return this.#notLeading;
    const sinceRenewal = Math.round(this.#clock.monotonic() - this.#renewedAt);
    if (sinceRenewal < this.#renewDeadlineMs) return undefined;
    return `the leader lease was last renewed ${sinceRenewal} ms ago, past the renew deadline of ${this.#renewDeadlineMs} ms`;
  }

  /** True when the last attempt got an answer from the API server (leading or standing by). */
  isHealthy(): boolean {
    return this.#healthy;
  }

  start(): void {
    if (!this.#stopped) return;
    this.#stopped = false;
    this.#loop = this.#run();
  }

  /** Stops competing. A leader steps down but leaves the Lease to expire. */
  async stop(): Promise<void> {
    this.#stopped = true;
    if (this.#pause !== undefined) this.#clock.clearTimeout(this.#pause);
    this.#wake?.();
    await this.#loop;
    this.#loop = undefined;
    this.#stepDown('stopped');
  }

  /** Stops competing and, if this process holds the Lease, empties it so another replica takes over at once. */
  async release(): Promise<void> {
    await this.stop();
    try {
      const lease = await this.#client.readNamespacedLease({ name: this.#name, namespace: this.#namespace });
      const record = toRecord(lease.spec);
      if (record.holderIdentity !== this.#identity) return;
      await this.#client.replaceNamespacedLease({
        name: this.#name,
        namespace: this.#namespace,
        body: { ...lease, spec: toSpec(releasedRecord(record, this.#clock.now())) },
      });
      this.#logger?.info('released the leader lease');
    } catch (error) {
      this.#logger?.warn({ err: error }, 'could not release the leader lease; it will expire');
    }
  }

  async #run(): Promise<void> {
    while (!this.#stopped) {
      const startedAt = this.#clock.monotonic();
      const attempt = await this.#tryAcquireOrRenew();
      if (this.#stopped) return;
      this.#healthy = attempt !== 'failed';
      if (attempt === 'leading') this.#renewed(startedAt);
      else if (attempt === 'held') this.#stepDown('the lease is held by another candidate');
      await this.#sleep(this.#retryPeriodMs);
    }
  }

  /** `startedAt`: when the successful attempt began; the Lease may say we renewed as early as that. */
  #renewed(startedAt: number): void {
    const leftMs = startedAt + this.#renewDeadlineMs - this.#clock.monotonic();
    if (leftMs <= 0) {
      this.#stepDown(`the lease renewal took longer than the renew deadline of ${this.#renewDeadlineMs} ms`);
      return;
    }
    this.#renewedAt = startedAt;
    if (this.#renewWatchdog !== undefined) this.#clock.clearTimeout(this.#renewWatchdog);
    // A timer rather than a check in the loop: a renewal that hangs must not keep us leading.
    this.#renewWatchdog = this.#clock.setTimeout(
      () =>
        this.#stepDown(`the lease was not renewed within the renew deadline of ${this.#renewDeadlineMs} ms`),
      leftMs,
    );
    if (this.#leading) return;
    this.#leading = true;
    this.#logger?.info('started leading');
    this.#onStartedLeading();
  }

  #stepDown(why: string): void {
    if (this.#renewWatchdog !== undefined) this.#clock.clearTimeout(this.#renewWatchdog);
    this.#renewWatchdog = undefined;
    if (!this.#leading) return;
    this.#leading = false;
    this.#notLeading = `this process stopped leading: ${why}`;
    this.#logger?.warn({ reason: why }, 'stopped leading');
    this.#onStoppedLeading(why);
  }

  async #tryAcquireOrRenew(): Promise<Attempt> {
    const target = { name: this.#name, namespace: this.#namespace };
    try {
      let lease: V1Lease;
      try {
        lease = await this.#client.readNamespacedLease(target);
      } catch (error) {
        if (statusOf(error) !== 404) throw error;
        const claimed = claimedRecord(undefined, this.#identity, this.#clock.now(), this.#leaseDurationMs);
        await this.#client.createNamespacedLease({
          namespace: this.#namespace,
          body: {
            apiVersion: 'coordination.k8s.io/v1',
            kind: 'Lease',
            metadata: target,
            spec: toSpec(claimed),
          },
        });
        this.#observed = observeLease(this.#observed, claimed, this.#clock.monotonic());
        return 'leading';
      }
      const record = toRecord(lease.spec);
      this.#observed = observeLease(this.#observed, record, this.#clock.monotonic());
      const verdict = judgeLease(
        this.#observed,
        this.#identity,
        this.#clock.monotonic(),
        this.#leaseDurationMs,
      );
      if (verdict === 'held') return 'held';
      const claimed = claimedRecord(record, this.#identity, this.#clock.now(), this.#leaseDurationMs);
      // The read resourceVersion travels in metadata: a concurrent writer makes this fail with 409.
      await this.#client.replaceNamespacedLease({ ...target, body: { ...lease, spec: toSpec(claimed) } });
      this.#observed = observeLease(this.#observed, claimed, this.#clock.monotonic());
      return 'leading';
    } catch (error) {
      if (statusOf(error) === 409) return 'conflict';
      this.#logger?.warn({ err: error }, 'leader election attempt failed');
      return 'failed';
    }
  }

  #sleep(delayMs: number): Promise<void> {
    return new Promise((resolve) => {
      const done = () => {
        this.#wake = undefined;
        this.#pause = undefined;
        resolve();
      };
      this.#wake = done;
      this.#pause = this.#clock.setTimeout(done, delayMs);
    });
  }
}

/** The HTTP status of a failed Lease call, from client-node's ApiException or the app's ApiError alike. */
function statusOf(error: unknown): number | undefined {
  const code = (error as { code?: unknown } | undefined)?.code;
  return typeof code === 'number' ? code : undefined;
}
