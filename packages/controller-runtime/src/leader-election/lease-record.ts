/**
 * The leader-election rules over a Lease's spec, free of I/O: who may take the lease, and what
 * the spec says after taking, renewing or releasing it. Times are epoch milliseconds.
 */
export interface LeaseRecord {
  holderIdentity?: string;
  leaseDurationSeconds?: number;
  acquireTime?: number;
  renewTime?: number;
  leaseTransitions?: number;
}

/** `ours`: we hold it (renew). `free`: absent holder or expired (take it). `held`: someone else's, still valid. */
export type LeaseVerdict = 'ours' | 'free' | 'held';

/**
 * What a candidate last saw of the Lease and when it saw it change, by its own monotonic clock
 * (client-go's observedRecord and observedTime).
 */
export interface LeaseObservation {
  record: LeaseRecord;
  observedAt: number;
}

/** The observation after reading `record` at `now`: its time moves only when the record changed. */
export function observeLease(
  previous: LeaseObservation | undefined,
  record: LeaseRecord,
  now: number,
): LeaseObservation {
  return previous !== undefined && sameRecord(previous.record, record)
    ? previous
    : { record, observedAt: now };
}

/**
 * Another holder's lease has expired once this candidate has seen no change of it for a lease
 * duration. The holder's renewTime is never compared with the local clock: the two machines'
 * clocks may disagree by more than a lease duration.
 */
export function judgeLease(
  observation: LeaseObservation,
  identity: string,
  now: number,
  leaseDurationMs: number,
): LeaseVerdict {
  const { holderIdentity } = observation.record;
  if (holderIdentity === identity) return 'ours';
  if (!holderIdentity) return 'free';
  return now - observation.observedAt >= leaseDurationMs ? 'free' : 'held';
}

function sameRecord(a: LeaseRecord, b: LeaseRecord): boolean {
  return (
    a.holderIdentity === b.holderIdentity &&
    a.leaseDurationSeconds === b.leaseDurationSeconds &&
    a.acquireTime === b.acquireTime &&
    a.renewTime === b.renewTime &&
    a.leaseTransitions === b.leaseTransitions
  );
}

/** The record after `identity` takes or renews the lease at `now`; `previous` undefined when the Lease is new. */
export function claimedRecord(
  previous: LeaseRecord | undefined,
  identity: string,
  now: number,
  leaseDurationMs: number,
): LeaseRecord {
  const renewing = previous?.holderIdentity === identity;
  const transitions = previous?.leaseTransitions ?? 0;
  return {
    holderIdentity: identity,
    // The API counts whole seconds; round up so observers never see a shorter lease than ours.
    leaseDurationSeconds: Math.max(1, Math.ceil(leaseDurationMs / 1000)),
    acquireTime: renewing ? (previous?.acquireTime ?? now) : now,
    renewTime: now,
    leaseTransitions: previous === undefined || renewing ? transitions : transitions + 1,
  };
}

/** The record a leader leaves behind when it steps down on purpose: no holder, so anyone may take it at once. */
export function releasedRecord(previous: LeaseRecord, now: number): LeaseRecord {
  return {
    holderIdentity: '',
    leaseDurationSeconds: 1,
    acquireTime: now,
    renewTime: now,
    leaseTransitions: previous.leaseTransitions ?? 0,
  };
}

/** Reads a time the client handed back, as a string (MicroTime is not deserialised) or a Date. */
export function parseLeaseTime(value: unknown): number | undefined {
  if (value instanceof Date) return value.getTime();
  if (typeof value !== 'string') return undefined;
  const parsed = Date.parse(value);
  return Number.isNaN(parsed) ? undefined : parsed;
}
