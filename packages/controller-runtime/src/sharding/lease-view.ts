/**
 * What one replica has seen of the Leases of work sharing, and the judgements made from it without
 * I/O (docs/spec/registration.md §9.2–§9.4, §9.9): which members are live, what to do about the
 * legacy leader Lease, which Leases are due for deletion. Times are passed in: `now` is the
 * replica's monotonic clock, `wallNow` its wall clock (used only for a first sight of a membership
 * Lease).
 */
import { judgeLease, type LeaseObservation, observeLease } from '../leader-election/lease-record.ts';
import { LEASE_ROLE_LABEL, type ListedLease } from './shard-leases.ts';

/** Dead members' Leases are deleted after this many lease durations without a change. */
const MEMBER_COLLECT_AFTER_LEASES = 10;

/**
 * `closed`: a replica that is no member holds the legacy Lease and it has not expired: own nothing.
 * `open`: a member keeps it. `take`: write it (claim or renew); work goes on only if it was already
 * this replica's (`open: true`), otherwise from the next tick.
 */
export type LegacyVerdict = { kind: 'closed' } | { kind: 'open' } | { kind: 'take'; open: boolean };

export interface LeaseViewOptions {
  identity: string;
  /** `scoby-member-`: the names of membership Leases start with it. */
  memberPrefix: string;
  /** `scoby-registration-`: the names of key Leases start with it. */
  keyPrefix: string;
  /** The value of LEASE_ROLE_LABEL on key Leases: only those are ever collected. */
  keyRole: string;
  leaseDurationMs: number;
}

export class LeaseView {
  readonly #options: LeaseViewOptions;
  readonly #leases = new Map<string, ListedLease>();
  readonly #observations = new Map<string, LeaseObservation>();
  readonly #firstSeen = new Map<string, number>();
  /**
   * Every identity a membership Lease has named while this replica ran. A member that stops
   * gracefully deletes its membership Lease but leaves the legacy Lease to the members still
   * running; without this memory they would take it for an older-mode leader's and stand down until
   * it expired. One short string per replica start seen.
   */
  readonly #everMembers = new Set<string>();

  constructor(options: LeaseViewOptions) {
    this.#options = options;
    this.#everMembers.add(options.identity);
  }

  get(name: string): ListedLease | undefined {
    return this.#leases.get(name);
  }

  /** A LIST of the namespace's Leases at `now`: what it lacks is gone. */
  absorb(leases: readonly ListedLease[], now: number): void {
    const names = new Set<string>();
    for (const lease of leases) {
      names.add(lease.name);
      if (lease.name.startsWith(this.#options.memberPrefix) && lease.record.holderIdentity)
        this.#everMembers.add(lease.record.holderIdentity);
      this.written(lease, now);
      if (!this.#firstSeen.has(lease.name)) this.#firstSeen.set(lease.name, now);
    }
    for (const name of [...this.#leases.keys()]) if (!names.has(name)) this.forget(name);
  }

  /** A Lease as this replica wrote it (or listed it) at `now`. */
  written(lease: ListedLease, now: number): void {
    this.#leases.set(lease.name, lease);
    this.#observations.set(lease.name, observeLease(this.#observations.get(lease.name), lease.record, now));
  }

  forget(name: string): void {
    this.#leases.delete(name);
    this.#observations.delete(name);
    this.#firstSeen.delete(name);
  }

  /** Milliseconds the Lease has gone unchanged, as this replica saw it; 0 when never seen. */
  unchangedFor(name: string, now: number): number {
    const observation = this.#observations.get(name);
    return observation === undefined ? 0 : now - observation.observedAt;
  }

  /** Whether this replica may take the Lease: absent, without holder, its own, or expired by observation. */
  isFree(name: string, now: number): boolean {
    const observation = this.#observations.get(name);
    if (!this.#leases.has(name) || observation === undefined) return true;
    return judgeLease(observation, this.#options.identity, now, this.#options.leaseDurationMs) !== 'held';
  }

  /**
   * The live members, sorted: those whose membership Lease changed within a lease duration, and
   * this replica when `selfLive`. A Lease first seen already stale by far (its renewTime more than
   * two lease durations older than `wallNow`) is taken as dead at once, so a replica that starts
   * does not wait a lease duration to learn that a crashed member is gone. Only the balance depends
   * on it: taking a key still waits for the key's own Lease to expire by observation.
   */
  liveMembers(selfLive: boolean, now: number, wallNow: number): string[] {
    const members = new Set<string>();
    if (selfLive) members.add(this.#options.identity);
    for (const [name, lease] of this.#leases) {
      const holder = lease.record.holderIdentity;
      if (!name.startsWith(this.#options.memberPrefix) || !holder || holder === this.#options.identity)
        continue;
      const observation = this.#observations.get(name);
      if (observation === undefined || now - observation.observedAt >= this.#options.leaseDurationMs)
        continue;
      const staleAtFirstSight =
        observation.observedAt === this.#firstSeen.get(name) &&
        observation.record.renewTime !== undefined &&
        observation.record.renewTime < wallNow - 2 * this.#options.leaseDurationMs;
      if (!staleAtFirstSight) members.add(holder);
    }
    return [...members].sort();
  }

  /** Whether a membership Lease has named `identity` while this replica ran (or it is this replica). */
  isKnownMember(identity: string): boolean {
    return this.#everMembers.has(identity);
  }

  /**
   * The legacy leader Lease `name`: members keep it themselves. Its holder renews it, and another
   * member takes it once it has gone unchanged for a third of a lease duration, well before an
   * older-mode replica (which waits a whole lease duration) could. A replica that is no member
   * holding it closes the gate until it is free or expired.
   */
  legacyVerdict(name: string, now: number): LegacyVerdict {
    const holder = this.#leases.get(name)?.record.holderIdentity;
    const identity = this.#options.identity;
    if (holder && holder !== identity && this.isKnownMember(holder)) {
      return this.unchangedFor(name, now) >= this.#options.leaseDurationMs / 3
        ? { kind: 'take', open: true }
        : { kind: 'open' };
    }
    if (!this.isFree(name, now)) return { kind: 'closed' };
    return { kind: 'take', open: holder === identity };
  }

  /**
   * Leases due for deletion: membership Leases without holder or unchanged for ten lease durations
   * (never `ownMember`), and key Leases whose key is not in `existingKeyLeases` once nobody holds
   * them (no holder, or expired).
   */
  collectable(existingKeyLeases: ReadonlySet<string>, ownMember: string, now: number): ListedLease[] {
    const due: ListedLease[] = [];
    const duration = this.#options.leaseDurationMs;
    for (const [name, lease] of this.#leases) {
      if (name === ownMember || !this.#observations.has(name)) continue;
      const unchangedMs = this.unchangedFor(name, now);
      const holder = lease.record.holderIdentity;
      if (name.startsWith(this.#options.memberPrefix)) {
        if (!holder || unchangedMs >= MEMBER_COLLECT_AFTER_LEASES * duration) due.push(lease);
      } else if (name.startsWith(this.#options.keyPrefix) && !existingKeyLeases.has(name)) {
        if (lease.object.metadata.labels?.[LEASE_ROLE_LABEL] !== this.#options.keyRole) continue;
        if (!holder || unchangedMs >= duration) due.push(lease);
      }
    }
    return due;
  }
}
