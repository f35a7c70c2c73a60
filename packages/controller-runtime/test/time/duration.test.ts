import { describe, expect, it } from 'vitest';
import { parseDuration } from '../../src/time/duration.ts';

describe('parseDuration', () => {
  it('reads Go-style durations into milliseconds', () => {
    expect(['10h', '30m', '1h30m', '90s', '500ms', '1.5h', '0', '2m3s4ms'].map(parseDuration)).toEqual([
      36_000_000, 1_800_000, 5_400_000, 90_000, 500, 5_400_000, 0, 123_004,
    ]);
  });

  it('rejects anything else', () => {
    expect(['', '10', 'h', '10d', '1h 30m', '-5s', 'abc'].map(parseDuration)).toEqual([
      undefined,
      undefined,
      undefined,
      undefined,
      undefined,
      undefined,
      undefined,
    ]);
  });
});
