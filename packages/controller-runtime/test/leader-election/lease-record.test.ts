import { describe, expect, it } from 'vitest';
import {
  claimedRecord,
  judgeLease,
  observeLease,
  parseLeaseTime,
  releasedRecord,
} from '../../src/leader-election/lease-record.ts';
import { toRecord } from '../../src/leader-election/lease-spec.ts';

describe('observeLease', () => {
  const record = { holderIdentity: 'b', renewTime: 10_000, leaseDurationSeconds: 15, leaseTransitions: 2 };

  it('starts the observation at the first read', () => {
    expect(observeLease(undefined, record, 500)).toEqual({ record, observedAt: 500 });
  });

  it('keeps the time while the record is unchanged, however the holder stamps it', () => {
    const first = observeLease(undefined, record, 500);
    expect(observeLease(first, { ...record }, 9000)).toBe(first);
  });

  it('moves the time when holder, renewTime or transitions change', () => {
    const first = observeLease(undefined, record, 500);
    expect(observeLease(first, { ...record, renewTime: 12_000 }, 2500).observedAt).toBe(2500);
    expect(observeLease(first, { ...record, holderIdentity: 'c' }, 2600).observedAt).toBe(2600);
    expect(observeLease(first, { ...record, leaseTransitions: 3 }, 2700).observedAt).toBe(2700);
    expect(observeLease(first, { ...record, leaseDurationSeconds: 30 }, 2800).observedAt).toBe(2800);
    expect(observeLease(first, { ...record, acquireTime: 9_000 }, 2900).observedAt).toBe(2900);
  });
});

describe('judgeLease', () => {
  const held = {
    record: { holderIdentity: 'b', renewTime: 10_000, leaseDurationSeconds: 15 },
    observedAt: 1000,
  };

  it('is ours when we hold it, even unchanged for long', () => {
    expect(judgeLease({ ...held, record: { ...held.record, holderIdentity: 'a' } }, 'a', 99_999, 600)).toBe(
      'ours',
    );
  });

  it('is free without a holder', () => {
    expect(judgeLease({ record: {}, observedAt: 0 }, 'a', 0, 600)).toBe('free');
    expect(judgeLease({ ...held, record: { ...held.record, holderIdentity: '' } }, 'a', 1000, 600)).toBe(
      'free',
    );
  });

  it('is held until a lease duration has passed since the record was seen to change', () => {
    expect(judgeLease(held, 'a', 1599, 600)).toBe('held');
    expect(judgeLease(held, 'a', 1600, 600)).toBe('free');
  });

  it("never reads the holder's renewTime against the local clock", () => {
    // The candidate's wall clock is far ahead of renewTime + duration: still held, judged by observation.
    expect(judgeLease(held, 'a', 1100, 600)).toBe('held');
    expect(judgeLease({ ...held, record: { holderIdentity: 'b' } }, 'a', 1100, 600)).toBe('held');
  });
});

describe('claimedRecord', () => {
  it('creates a fresh record', () => {
    expect(claimedRecord(undefined, 'a', 5000, 15_000)).toEqual({
      holderIdentity: 'a',
      leaseDurationSeconds: 15,
      acquireTime: 5000,
      renewTime: 5000,
      leaseTransitions: 0,
    });
  });

  it('renews keeping acquireTime and transitions', () => {
    const previous = {
      holderIdentity: 'a',
      leaseDurationSeconds: 15,
      acquireTime: 5000,
      renewTime: 5000,
      leaseTransitions: 3,
    };
    expect(claimedRecord(previous, 'a', 7000, 15_000)).toEqual({ ...previous, renewTime: 7000 });
  });

  it('takes over counting one more transition; sub-second durations round up to 1 s', () => {
    const previous = {
      holderIdentity: 'b',
      leaseDurationSeconds: 1,
      acquireTime: 1,
      renewTime: 2,
      leaseTransitions: 3,
    };
    expect(claimedRecord(previous, 'a', 9000, 600)).toEqual({
      holderIdentity: 'a',
      leaseDurationSeconds: 1,
      acquireTime: 9000,
      renewTime: 9000,
      leaseTransitions: 4,
    });
    expect(claimedRecord(undefined, 'a', 0, 1500).leaseDurationSeconds).toBe(2);
  });
});

describe('releasedRecord', () => {
  it('empties the holder and shortens the lease to one second', () => {
    expect(
      releasedRecord({ holderIdentity: 'a', leaseDurationSeconds: 15, leaseTransitions: 2 }, 8000),
    ).toEqual({
      holderIdentity: '',
      leaseDurationSeconds: 1,
      acquireTime: 8000,
      renewTime: 8000,
      leaseTransitions: 2,
    });
  });
});

describe('parseLeaseTime', () => {
  it('reads MicroTime strings and Dates', () => {
    expect(parseLeaseTime('2024-05-01T10:00:00.123456Z')).toBe(Date.UTC(2024, 4, 1, 10, 0, 0, 123));
    expect(parseLeaseTime(new Date(42))).toBe(42);
    expect(parseLeaseTime(undefined)).toBeUndefined();
    expect(parseLeaseTime('yesterday')).toBeUndefined();
  });
});

describe('toRecord', () => {
  it('reads a Lease without a spec as an empty record', () => {
    expect(toRecord(undefined)).toEqual({
      holderIdentity: undefined,
      leaseDurationSeconds: undefined,
      acquireTime: undefined,
      renewTime: undefined,
      leaseTransitions: undefined,
    });
  });
});
