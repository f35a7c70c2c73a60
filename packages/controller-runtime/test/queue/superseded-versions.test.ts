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

  it('ignores writes that kept the version or whose versions are unknown', () => {
    const superseded = new SupersededVersions();
    superseded.wrote('shop/a', '1', '1');
    superseded.wrote('shop/a', undefined, '2');
    superseded.wrote('shop/a', '3', undefined);
    expect(['1', '2', '3'].map((version) => superseded.isStale('shop/a', version))).toEqual([
      false,
      false,
      false,
    ]);
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
