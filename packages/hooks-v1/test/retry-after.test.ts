import { describe, expect, it } from 'vitest';
import { MAX_RETRY_AFTER_MS, parseRetryAfter } from '../src/index.ts';

const now = Date.parse('2025-03-02T10:00:00Z');

describe('parseRetryAfter', () => {
  it.each([
    ['30', 30_000],
    [' 30 ', 30_000],
    ['0', 0],
    ['1000', 1_000_000],
    ['1001', MAX_RETRY_AFTER_MS],
    ['999999999999', MAX_RETRY_AFTER_MS],
  ])('reads delta-seconds %j as %d ms, clamped to 1000 s', (header, expected) => {
    expect(parseRetryAfter(header, now)).toBe(expected);
  });

  it.each([
    ['Sun, 02 Mar 2025 10:00:45 GMT', 45_000],
    ['Sunday, 02-Mar-25 10:00:45 GMT', 45_000],
    ['Sun Mar  2 10:00:45 2025', 45_000],
    ['Sun, 02 Mar 2025 09:59:00 GMT', 0],
    ['Sun, 02 Mar 2025 11:00:00 GMT', MAX_RETRY_AFTER_MS],
  ])('reads the HTTP-date %j as %d ms from now, clamped to 0..1000 s', (header, expected) => {
    expect(parseRetryAfter(header, now)).toBe(expected);
  });

  it.each([[undefined], [''], ['  '], ['1.5'], ['-3'], ['soon'], ['30s'], ['Sun, 99 Foo 2025']])(
    'ignores %j',
    (header) => {
      expect(parseRetryAfter(header, now)).toBeUndefined();
    },
  );
});
