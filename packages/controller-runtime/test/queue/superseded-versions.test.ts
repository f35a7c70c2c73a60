import { describe, expect, it } from 'vitest';
import { SupersededVersions } from '../../src/queue/superseded-versions.ts';

describe('SupersededVersions', () => {
  it('knows nothing is stale before any write', () => {
    const superseded = new SupersededVersions();
    expect([superseded.isStale('shop/a', '1'), superseded.isStale('shop/a', undefined)]).toEqual([
      false,
      false,
    ]);
  });

  it('marks the version a write replaced as stale, and only for that key', () => {
    const superseded = new SupersededVersions();
    superseded.wrote('shop/a', '1', '2');
    expect(superseded.isStale('shop/a', '1')).toBe(true);
    expect(superseded.isStale('shop/b', '1')).toBe(false);
    // Staleness is not consumed by asking: the same stale cache entry may be reconciled again.
    expect(superseded.isStale('shop/a', '1')).toBe(true);
  });

  it('marks nothing stale for a write that kept the version (a no-op) or answered none', () => {
    const superseded = new SupersededVersions();
    superseded.wrote('shop/a', '1', '1');
    superseded.wrote('shop/b', '1', undefined);
    expect([superseded.isStale('shop/a', '1'), superseded.isStale('shop/b', '1')]).toEqual([false, false]);
  });

  it('marks the version a write found gone as stale', () => {
    const superseded = new SupersededVersions();
    superseded.wroteGone('shop/a', '1');
    expect([superseded.isStale('shop/a', '1'), superseded.isStale('shop/b', '1')]).toEqual([true, false]);
  });

  it('remembers every version replaced by successive writes until a current one is seen', () => {
    const superseded = new SupersededVersions();
    superseded.wrote('shop/a', '1', '2');
    superseded.wrote('shop/a', '2', '3');
    expect([superseded.isStale('shop/a', '1'), superseded.isStale('shop/a', '2')]).toEqual([true, true]);
  });

  it('stops tracking the key once the cache shows a version that is not superseded', () => {
    const superseded = new SupersededVersions();
    superseded.wrote('shop/a', '1', '2');
    expect(superseded.isStale('shop/a', '2')).toBe(false);
    // The cache has moved past the write, so the older version no longer counts either.
    expect(superseded.isStale('shop/a', '1')).toBe(false);
  });

  it('does not end the tracking for an object without a resource version', () => {
    const superseded = new SupersededVersions();
    superseded.wrote('shop/a', '1', '2');
    expect(superseded.isStale('shop/a', undefined)).toBe(false);
    expect(superseded.isStale('shop/a', '1')).toBe(true);
  });

  it('ignores writes that kept the version or answered none', () => {
    const superseded = new SupersededVersions();
    superseded.wrote('shop/a', '1', '1');
    superseded.wrote('shop/a', '3', undefined);
    expect(['1', '2', '3'].map((version) => superseded.isStale('shop/a', version))).toEqual([
      false,
      false,
      false,
    ]);
  });

  it('takes a version lower than the one the last write returned for stale, though no write replaced it', () => {
    // The cache holds 7: an earlier write's version whose answer was lost, replaced by the write 5 → 9.
    const superseded = new SupersededVersions();
    superseded.wrote('shop/a', '5', '9');
    expect(['5', '7', '8'].map((version) => superseded.isStale('shop/a', version))).toEqual([
      true,
      true,
      true,
    ]);
    expect(superseded.isStale('shop/a', '9')).toBe(false);
    expect(superseded.isStale('shop/a', '7')).toBe(false);
  });

  it('compares as integers, not as text', () => {
    const superseded = new SupersededVersions();
    superseded.wrote('shop/a', '98', '100');
    expect(superseded.isStale('shop/a', '99')).toBe(true);
  });

  it('judges by the newest version its writes returned, whatever their order', () => {
    const superseded = new SupersededVersions();
    superseded.wrote('shop/a', '5', '9');
    // A write whose answer came late, from an older version.
    superseded.wrote('shop/a', '4', '6');
    expect(superseded.isStale('shop/a', '8')).toBe(true);
  });

  it('moves to the version each newer write returned', () => {
    const superseded = new SupersededVersions();
    superseded.wrote('shop/a', '5', '9');
    superseded.wrote('shop/a', '9', '12');
    expect(superseded.isStale('shop/a', '10')).toBe(true);
  });

  it('takes a version newer than the last write for current, and ends the tracking', () => {
    const superseded = new SupersededVersions();
    superseded.wrote('shop/a', '5', '9');
    expect(superseded.isStale('shop/a', '12')).toBe(false);
    expect(superseded.isStale('shop/a', '5')).toBe(false);
  });

  it('compares versions that are not integers for equality only', () => {
    const superseded = new SupersededVersions();
    superseded.wrote('shop/a', 'x1', 'x3');
    expect(superseded.isStale('shop/a', 'x1')).toBe(true);
    expect(superseded.isStale('shop/a', 'x2')).toBe(false);
  });

  it('takes a lower version for stale after a write from an unknown version', () => {
    const superseded = new SupersededVersions();
    superseded.wrote('shop/a', undefined, '2');
    expect([superseded.isStale('shop/a', '1'), superseded.isStale('shop/a', '2')]).toEqual([true, false]);
  });

  it('ignoring a no-op write keeps the versions already superseded', () => {
    const superseded = new SupersededVersions();
    superseded.wrote('shop/a', '1', '2');
    superseded.wrote('shop/a', '2', '2');
    expect([superseded.isStale('shop/a', '1'), superseded.isStale('shop/a', '2')]).toEqual([true, false]);
  });

  it('forgets a key, leaving the others tracked', () => {
    const superseded = new SupersededVersions();
    superseded.wrote('shop/a', '1', '2');
    superseded.wrote('shop/b', '7', '8');
    superseded.forget('shop/a');
    expect(superseded.isStale('shop/a', '1')).toBe(false);
    expect(superseded.isStale('shop/b', '7')).toBe(true);
    superseded.forget('shop/unknown');
    expect(superseded.isStale('shop/b', '7')).toBe(true);
  });
});
