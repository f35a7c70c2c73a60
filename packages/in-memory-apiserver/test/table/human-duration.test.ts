import { describe, expect, it } from 'vitest';
import { ageOf, humanDuration } from '../../src/table/human-duration.ts';

const SECOND = 1000;
const MINUTE = 60 * SECOND;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

describe('humanDuration (duration.HumanDuration)', () => {
  it.each([
    [-2 * SECOND, '<invalid>'],
    [-1 * SECOND, '0s'],
    [0, '0s'],
    [119 * SECOND, '119s'],
    [2 * MINUTE, '2m'],
    [2 * MINUTE + 5 * SECOND, '2m5s'],
    [10 * MINUTE + 5 * SECOND, '10m'],
    [179 * MINUTE, '179m'],
    [3 * HOUR, '3h'],
    [3 * HOUR + 20 * MINUTE, '3h20m'],
    [8 * HOUR + 20 * MINUTE, '8h'],
    [47 * HOUR, '47h'],
    [2 * DAY + 3 * HOUR, '2d3h'],
    [3 * DAY, '3d'],
    [8 * DAY + 3 * HOUR, '8d'],
    [800 * DAY, '2y70d'],
    [730 * DAY, '2y'],
    [9 * 365 * DAY, '9y'],
  ])('%d ms is %s', (milliseconds, text) => {
    expect(humanDuration(milliseconds)).toBe(text);
  });

  it('gives the age of a timestamp, <unknown> without one', () => {
    const now = new Date('2024-01-01T01:00:00Z');
    expect(ageOf('2024-01-01T00:59:30Z', now)).toBe('30s');
    expect(ageOf(undefined, now)).toBe('<unknown>');
    expect(ageOf('', now)).toBe('<unknown>');
  });
});
