import { describe, expect, it } from 'vitest';
import { claimedRecord, judgeLease, parseLeaseTime, releasedRecord } from '../../src/runtime/lease-record.ts';

describe('judgeLease', () => {
  const held = { holderIdentity: 'b', renewTime: 10_000, leaseDurationSeconds: 15 };

  it('is ours when we hold it, even expired', () => {
    expect(judgeLease({ ...held, holderIdentity: 'a' }, 'a', 99_999, 600)).toBe('ours');
  });

  it('is free without holder or renew time', () => {
    expect(judgeLease({}, 'a', 0, 600)).toBe('free');
    expect(judgeLease({ ...held, holderIdentity: '' }, 'a', 10_000, 600)).toBe('free');
    expect(judgeLease({ holderIdentity: 'b' }, 'a', 10_000, 600)).toBe('free');
  });

  it('is held until renewTime + leaseDuration has passed', () => {
    expect(judgeLease(held, 'a', 10_600, 600)).toBe('held');
    expect(judgeLease(held, 'a', 10_601, 600)).toBe('free');
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
