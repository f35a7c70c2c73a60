import type { Logger } from 'pino';
import { type Clock, realClock, type TimerHandle } from '../time/clock.ts';
import { claimedRecord, releasedRecord } from '../leader-election/lease-record.ts';
import {
  DEFAULT_LEASE_DURATION_MS,
  DEFAULT_RENEW_DEADLINE_MS,
  DEFAULT_RETRY_PERIOD_MS,
} from '../leader-election/leader-elector.ts';
import { assignOwners } from './assignment.ts';
import { LeaseView } from './lease-view.ts';
import {
  keyLeaseName,
  LEASE_KEY_ANNOTATION,
  LEASE_ROLE_LABEL,
  type ListedLease,
  memberLeaseName,
  type ShardLeaseClient,
} from './shard-leases.ts';

export interface WorkSharingOptions {
  client: ShardLeaseClient;
  namespace: string;
  identity: string;
  /** Prefix of every Lease name, e.g. `scoby-`: `scoby-member-…`, `scoby-registration-…`. */
  leasePrefix: string;
  /** What a key is, in its Lease's name (`registration`). */
  keyKind: string;
  /**
   * A single-leader Lease that replicas of an older mode compete for: while one of them holds it,
   * this replica owns nothing; once it is free or expired, the members take it and keep it.
   */
  legacyLeaseName?: string;
  leaseDurationMs?: number;
  renewDeadlineMs?: number;
  retryPeriodMs?: number;
  /** Every key that exists now (the registrations' names). */
  keys(): readonly string[];
  /** Whether keys() answers from a complete list: before that nothing is claimed, released or collected. */
  keysSynced(): boolean;
  /** This replica holds the key's Lease: start its work. */
  onAcquired(key: string): void;
  /**
   * This replica stopped holding the key (its write fence is already closed): stop its work. A
   * hand-over waits for the returned promise before it releases the Lease.
   */
  onStopping(key: string, reason: string, how: HandOver): Promise<void>;
  /** The live members this replica sees changed (their number, itself included). */
  onMembers?(count: number): void;
  clock?: Clock;
  logger?: Logger;
}

/** `released`: this replica gave the key up on purpose; `lost`: its Lease lapsed or someone else took it. */
export type HandOver = 'released' | 'lost';

interface Held {
  /** Monotonic time at which the last successful claim or renewal was sent. */
  renewedAt: number;
  watchdog: TimerHandle | undefined;
}

/**
 * Work sharing between active replicas through coordination.k8s.io Leases
 * (docs/spec/registration.md §9): each replica renews a membership Lease; each key (a registration)
 * has a Lease held by the one replica assigned to it by assignOwners over the live members. One LIST
 * of the namespace's Leases per retry period shows every replica the same members and holders.
 *
 * Liveness and expiry are judged by observation, as LeaderElector does: a Lease seen unchanged for a
 * lease duration by this replica's monotonic clock. The fence per key closes at the renew deadline
 * counted from the last successful renewal, before anyone else may take the key. A replica whose
 * assignment moves a key elsewhere closes its fence, waits for onStopping, then empties the
 * Lease so the new owner takes it at once.
 */
export class WorkSharing {
  readonly #options: WorkSharingOptions;
  readonly #client: ShardLeaseClient;
  readonly #identity: string;
  readonly #leaseDurationMs: number;
  readonly #renewDeadlineMs: number;
  readonly #retryPeriodMs: number;
  readonly #clock: Clock;
  readonly #logger: Logger | undefined;
  readonly #memberLease: string;

  /** What this replica has seen of the Leases, and what it judges from that. */
  readonly #view: LeaseView;
  readonly #held = new Map<string, Held>();
  /** Keys being handed over: their work is stopping; the Lease is emptied after. */
  readonly #releasing = new Map<string, Promise<void>>();
  #memberRenewedAt: number | undefined;
  #memberRenewals = 0;
  #members: string[] = [];
  #healthy = false;
  #gateOpen = false;
  #stopped = true;
  #loop: Promise<void> | undefined;
  #wake: (() => void) | undefined;
  #pause: TimerHandle | undefined;

  constructor(options: WorkSharingOptions) {
    this.#options = options;
    this.#client = options.client;
    this.#identity = options.identity;
    this.#leaseDurationMs = options.leaseDurationMs ?? DEFAULT_LEASE_DURATION_MS;
    this.#renewDeadlineMs = options.renewDeadlineMs ?? DEFAULT_RENEW_DEADLINE_MS;
    this.#retryPeriodMs = options.retryPeriodMs ?? DEFAULT_RETRY_PERIOD_MS;
    this.#clock = options.clock ?? realClock;
    this.#logger = options.logger?.child({ identity: options.identity });
    this.#memberLease = memberLeaseName(options.leasePrefix, options.identity);
    this.#view = new LeaseView({
      identity: options.identity,
      memberPrefix: `${options.leasePrefix}member-`,
      keyPrefix: `${options.leasePrefix}${options.keyKind}-`,
      keyRole: options.keyKind,
      leaseDurationMs: this.#leaseDurationMs,
    });
  }

  get identity(): string {
    return this.#identity;
  }

  /** The keys this replica holds now, sorted. */
  owned(): string[] {
    return [...this.#held.keys()].sort();
  }

  owns(key: string): boolean {
    return this.#held.has(key);
  }

  /** The live members' identities as last seen, sorted, this replica included. */
  members(): string[] {
    return [...this.#members];
  }

  /** True when the last LIST of the Leases was answered. */
  isHealthy(): boolean {
    return this.#healthy;
  }

  /** Whether no older-mode leader holds the legacy Lease (always true without one). */
  mayWork(): boolean {
    return this.#gateOpen;
  }

  /** Why this replica must not write for `key` now; undefined while it holds the key within its renew deadline. */
  writeRefusal(key: string): string | undefined {
    const held = this.#held.get(key);
    if (held === undefined)
      return `this replica does not hold the Lease of ${this.#options.keyKind} "${key}"`;
    const sinceRenewal = Math.round(this.#clock.monotonic() - held.renewedAt);
    if (sinceRenewal < this.#renewDeadlineMs) return undefined;
    return `the Lease of ${this.#options.keyKind} "${key}" was last renewed ${sinceRenewal} ms ago, past the renew deadline of ${this.#renewDeadlineMs} ms`;
  }

  /** Why this replica must not write what belongs to no key (Events, say): its membership has lapsed. */
  memberRefusal(): string | undefined {
    if (this.#memberRenewedAt === undefined) return 'this replica has not joined yet';
    const sinceRenewal = Math.round(this.#clock.monotonic() - this.#memberRenewedAt);
    if (sinceRenewal < this.#renewDeadlineMs) return undefined;
    return `the membership Lease was last renewed ${sinceRenewal} ms ago, past the renew deadline of ${this.#renewDeadlineMs} ms`;
  }

  start(): void {
    if (!this.#stopped) return;
    this.#stopped = false;
    this.#loop = this.#run();
  }

  /** Looks again soon (a key appeared or went). */
  kick(): void {
    this.#wake?.();
  }

  /**
   * Stops taking part. `release` (a graceful stop): every held key's work stops and its Lease is
   * emptied, the membership Lease is deleted, and the legacy Lease is released if no other member
   * lives to keep it. Without `release` (a crash, in tests) the Leases are left to expire.
   */
  async stop(options: { release?: boolean } = {}): Promise<void> {
    this.#stopped = true;
    if (this.#pause !== undefined) this.#clock.clearTimeout(this.#pause);
    this.#wake?.();
    await this.#loop;
    this.#loop = undefined;
    const release = options.release ?? true;
    const keys = [...this.#held.keys()];
    await Promise.all(keys.map((key) => this.#handOver(key, 'this replica is stopping', release)));
    await Promise.all([...this.#releasing.values()]);
    if (!release) return;
    await this.#releaseLegacy();
    const member = this.#view.get(this.#memberLease);
    if (member !== undefined) {
      await this.#client
        .delete(this.#options.namespace, member)
        .catch((error: unknown) =>
          this.#logger?.warn({ err: error }, 'could not delete the membership Lease; it will expire'),
        );
    }
    this.#memberRenewedAt = undefined;
  }

  async #run(): Promise<void> {
    while (!this.#stopped) {
      await this.#tick();
      if (this.#stopped) return;
      await this.#sleep(this.#retryPeriodMs);
    }
  }

  async #tick(): Promise<void> {
    let leases: ListedLease[];
    try {
      leases = await this.#client.list(this.#options.namespace);
    } catch (error) {
      this.#healthy = false;
      this.#logger?.warn({ err: error }, 'could not list the Leases of work sharing');
      return;
    }
    if (this.#stopped) return;
    this.#healthy = true;
    this.#absorb(leases);
    // One round of writes per tick, all at once: the membership, the legacy Lease and every key.
    // The renewal interval is then a LIST, one write and the retry period, whatever the latency.
    const membership = this.#renewMembership();
    this.#members = this.#liveMembers();
    this.#options.onMembers?.(this.#members.length);
    if (!this.#options.keysSynced()) {
      await membership;
      return;
    }
    const gate = this.#legacyGate();
    this.#gateOpen = gate.open;
    const keys = this.#options.keys();
    const mine = this.#assigned(keys);
    for (const key of this.#held.keys()) {
      if (!mine.has(key)) void this.#handOver(key, this.#handOverReason(key, keys), true);
    }
    await Promise.all([
      membership,
      gate.written,
      ...[...mine].map((key) => (this.#held.has(key) ? this.#renew(key) : this.#claim(key))),
    ]);
    await this.#collect(keys);
  }

  /** Keys this replica should hold; none before its membership Lease has been written twice (its peers have seen it). */
  #assigned(keys: readonly string[]): Set<string> {
    if (!this.#gateOpen || this.memberRefusal() !== undefined || this.#memberRenewals < 2) return new Set();
    const holders = new Map<string, string>();
    for (const key of keys) {
      const holder = this.#view.get(this.#keyLease(key))?.record.holderIdentity;
      if (holder) holders.set(key, holder);
    }
    const owners = assignOwners(this.#members, keys, holders);
    return new Set(keys.filter((key) => owners.get(key) === this.#identity));
  }

  #handOverReason(key: string, keys: readonly string[]): string {
    if (!keys.includes(key)) return `${this.#options.keyKind} "${key}" no longer exists`;
    if (!this.#gateOpen)
      return `the Lease ${this.#options.legacyLeaseName} is held by a replica in leader mode`;
    if (this.memberRefusal() !== undefined) return 'this replica could not renew its membership';
    return 'another replica is assigned to it';
  }

  #absorb(leases: readonly ListedLease[]): void {
    this.#view.absorb(leases, this.#clock.monotonic());
  }

  #written(lease: ListedLease): void {
    this.#view.written(lease, this.#clock.monotonic());
  }

  async #renewMembership(): Promise<void> {
    const sentAt = this.#clock.monotonic();
    const written = await this.#write(this.#memberLease, { labels: { [LEASE_ROLE_LABEL]: 'member' } });
    if (written) {
      this.#memberRenewedAt = sentAt;
      this.#memberRenewals++;
    }
  }

  #liveMembers(): string[] {
    return this.#view.liveMembers(
      this.memberRefusal() === undefined,
      this.#clock.monotonic(),
      this.#clock.now(),
    );
  }

  /** Open unless a replica that is no member holds the legacy Lease (LeaseView.legacyVerdict); writes what it asks. */
  #legacyGate(): { open: boolean; written: Promise<unknown> } {
    const name = this.#options.legacyLeaseName;
    if (name === undefined) return { open: true, written: Promise.resolve() };
    const verdict = this.#view.legacyVerdict(name, this.#clock.monotonic());
    if (verdict.kind !== 'take') return { open: verdict.kind === 'open', written: Promise.resolve() };
    return { open: verdict.open, written: this.#write(name, {}) };
  }

  async #releaseLegacy(): Promise<void> {
    const name = this.#options.legacyLeaseName;
    if (name === undefined) return;
    // A fresh look: a member that stopped a moment ago has deleted its membership Lease since the last tick.
    try {
      this.#absorb(await this.#client.list(this.#options.namespace));
      this.#members = this.#liveMembers();
    } catch {
      // The last tick's view decides.
    }
    const lease = this.#view.get(name);
    const holder = lease?.record.holderIdentity;
    if (lease === undefined || !holder) return;
    // Another member keeps it from older-mode replicas; with none left, they may lead at once. The
    // holder may be a member that stopped before this one, leaving the Lease to the members then
    // alive: the last one releases it all the same (the write fails if anyone wrote it since).
    if (this.#members.some((member) => member !== this.#identity)) return;
    if (!this.#view.isKnownMember(holder)) return;
    try {
      await this.#client.replace(lease, releasedRecord(lease.record, this.#clock.now()));
      this.#logger?.info({ lease: name }, 'released the legacy leader Lease: no other member is left');
    } catch (error) {
      this.#logger?.warn(
        { err: error, lease: name },
        'could not release the legacy leader Lease; it will expire',
      );
    }
  }

  #keyLease(key: string): string {
    return keyLeaseName(this.#options.leasePrefix, this.#options.keyKind, key);
  }

  async #claim(key: string): Promise<void> {
    if (this.#releasing.has(key)) return;
    const name = this.#keyLease(key);
    if (!this.#view.isFree(name, this.#clock.monotonic())) return;
    const sentAt = this.#clock.monotonic();
    const written = await this.#write(name, {
      labels: { [LEASE_ROLE_LABEL]: this.#options.keyKind },
      annotations: { [LEASE_KEY_ANNOTATION]: key },
    });
    if (!written || this.#stopped) return;
    if (!this.#renewed(key, sentAt)) return;
    this.#logger?.info(
      { [this.#options.keyKind]: key, lease: name },
      `acquired the Lease of ${this.#options.keyKind} "${key}"`,
    );
    this.#options.onAcquired(key);
  }

  async #renew(key: string): Promise<void> {
    const name = this.#keyLease(key);
    const holder = this.#view.get(name)?.record.holderIdentity;
    if (holder !== this.#identity) {
      void this.#handOver(key, holder ? `the Lease is held by ${holder}` : 'the Lease was emptied', false);
      return;
    }
    const sentAt = this.#clock.monotonic();
    const renewal = this.#held.get(key);
    // Lost while the write was out (its watchdog fired): the next tick claims it again, as new work.
    if ((await this.#write(name, {})) && this.#held.get(key) === renewal) this.#renewed(key, sentAt);
  }

  /** Records a successful claim or renewal sent at `sentAt`; false when it came back past the deadline. */
  #renewed(key: string, sentAt: number): boolean {
    const leftMs = sentAt + this.#renewDeadlineMs - this.#clock.monotonic();
    const previous = this.#held.get(key);
    if (previous?.watchdog !== undefined) this.#clock.clearTimeout(previous.watchdog);
    if (leftMs <= 0) {
      this.#held.delete(key);
      if (previous !== undefined)
        void this.#stopWork(
          key,
          `the Lease renewal took longer than the renew deadline of ${this.#renewDeadlineMs} ms`,
        );
      return false;
    }
    // A timer rather than a check in the loop: a renewal that hangs must not keep the key.
    const watchdog = this.#clock.setTimeout(() => {
      if (this.#held.get(key)?.watchdog !== watchdog) return;
      this.#held.delete(key);
      void this.#stopWork(
        key,
        `the Lease was not renewed within the renew deadline of ${this.#renewDeadlineMs} ms`,
      );
    }, leftMs);
    this.#held.set(key, { renewedAt: sentAt, watchdog });
    return true;
  }

  async #stopWork(key: string, reason: string): Promise<void> {
    this.#logger?.warn(
      { [this.#options.keyKind]: key, reason },
      `lost the Lease of ${this.#options.keyKind} "${key}"`,
    );
    await this.#stopping(key, reason, 'lost');
  }

  /** onStopping, whose failure is logged: the hand-over goes on (the fence is closed whatever it says). */
  async #stopping(key: string, reason: string, how: HandOver): Promise<void> {
    try {
      await this.#options.onStopping(key, reason, how);
    } catch (error) {
      this.#logger?.error(
        { err: error, [this.#options.keyKind]: key },
        'stopping the work of a handed-over key failed',
      );
    }
  }

  /**
   * Closes the key's fence, stops its work and then, with `release`, empties its Lease if this
   * replica still holds it as last listed, so the next owner need not wait for it to expire.
   */
  #handOver(key: string, reason: string, release: boolean): Promise<void> {
    const existing = this.#releasing.get(key);
    if (existing) return existing;
    const held = this.#held.get(key);
    if (held === undefined) return Promise.resolve();
    if (held.watchdog !== undefined) this.#clock.clearTimeout(held.watchdog);
    this.#held.delete(key);
    const handing = (async () => {
      this.#logger?.info(
        { [this.#options.keyKind]: key, reason },
        `handing over ${this.#options.keyKind} "${key}"`,
      );
      await this.#stopping(key, reason, release ? 'released' : 'lost');
      if (!release) return;
      const lease = this.#view.get(this.#keyLease(key));
      if (lease?.record.holderIdentity !== this.#identity) return;
      try {
        this.#written(await this.#client.replace(lease, releasedRecord(lease.record, this.#clock.now())));
      } catch (error) {
        this.#logger?.warn(
          { err: error, [this.#options.keyKind]: key },
          'could not release the Lease; it will expire',
        );
      }
    })().finally(() => this.#releasing.delete(key));
    this.#releasing.set(key, handing);
    return handing;
  }

  /**
   * Claims or renews the Lease `name` for this replica; false when someone else wrote it first (a
   * conflict) or the call failed. Creates it when it does not exist.
   */
  async #write(
    name: string,
    metadata: { labels?: Record<string, string>; annotations?: Record<string, string> },
  ): Promise<boolean> {
    const lease = this.#view.get(name);
    const now = this.#clock.now();
    try {
      const record = claimedRecord(lease?.record, this.#identity, now, this.#leaseDurationMs);
      this.#written(
        lease === undefined
          ? await this.#client.create(this.#options.namespace, name, record, { labels: {}, ...metadata })
          : await this.#client.replace(lease, record),
      );
      return true;
    } catch (error) {
      const code = (error as { code?: unknown }).code;
      if (code !== 409) this.#logger?.warn({ err: error, lease: name }, 'Lease write failed');
      return false;
    }
  }

  /** Deletes dead members' Leases and the Leases of keys that are gone once nobody holds them. */
  async #collect(keys: readonly string[]): Promise<void> {
    const existing = new Set(keys.map((key) => this.#keyLease(key)));
    const doomed = this.#view.collectable(existing, this.#memberLease, this.#clock.monotonic());
    await Promise.all(
      doomed.map(async (lease) => {
        try {
          await this.#client.delete(this.#options.namespace, lease);
          this.#view.forget(lease.name);
        } catch (error) {
          const code = (error as { code?: unknown }).code;
          if (code !== 404 && code !== 409)
            this.#logger?.warn({ err: error, lease: lease.name }, 'could not delete a Lease');
        }
      }),
    );
  }

  #sleep(delayMs: number): Promise<void> {
    return new Promise((resolve) => {
      const done = () => {
        this.#wake = undefined;
        if (this.#pause !== undefined) this.#clock.clearTimeout(this.#pause);
        this.#pause = undefined;
        resolve();
      };
      this.#wake = done;
      this.#pause = this.#clock.setTimeout(done, delayMs);
    });
  }
}
