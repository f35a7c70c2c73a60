import { describe, expect, it } from 'vitest';
import { backoffDelay, KeyedBackoff } from '../../src/queue/backoff.ts';
import { DEFAULT_BACKOFF } from '../../src/queue/work-queue.ts';

describe('backoffDelay', () => {
  it('starts at 5 ms and doubles up to 1000 s by default', () => {
    const delays = Array.from({ length: 20 }, (_, i) => backoffDelay(DEFAULT_BACKOFF, i + 1));
    expect(delays).toEqual([
      5, 10, 20, 40, 80, 160, 320, 640, 1280, 2560, 5120, 10240, 20480, 40960, 81920, 163840, 327680, 655360,
      1_000_000, 1_000_000,
    ]);
  });

  it('is zero before any failure and stays at the cap for huge failure counts', () => {
    expect(backoffDelay(DEFAULT_BACKOFF, 0)).toBe(0);
    expect(backoffDelay(DEFAULT_BACKOFF, 5000)).toBe(1_000_000);
  });
});

describe('KeyedBackoff', () => {
  it('counts failures per key and starts over after reset', () => {
    const backoff = new KeyedBackoff({ baseMs: 100, capMs: 30_000 });
    expect([backoff.next('a'), backoff.next('a'), backoff.next('b'), backoff.next('a')]).toEqual([
      100, 200, 100, 400,
    ]);
    expect(backoff.failures('a')).toBe(3);
    backoff.reset('a');
    expect(backoff.failures('a')).toBe(0);
    expect(backoff.next('a')).toBe(100);
    expect(backoff.failures('b')).toBe(1);
  });
});
