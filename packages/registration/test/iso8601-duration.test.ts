import { describe, expect, it } from 'vitest';
import { parseIsoDurationMs } from '../src/iso8601-duration.ts';

const DAY = 86_400_000;

describe('parseIsoDurationMs (docs/spec/registration.md §4.1)', () => {
  it.each([
    ['PT15S', 15_000],
    ['PT1M30S', 90_000],
    ['PT0.5S', 500],
    ['PT0,5S', 500],
    ['PT1H', 3_600_000],
    ['PT1.5H', 5_400_000],
    ['P1D', DAY],
    ['P1W', 7 * DAY],
    ['P1M', 30 * DAY],
    ['P1Y', 365 * DAY],
    ['P0.5D', DAY / 2],
    ['P1Y2M3W4DT5H6M7S', 365 * DAY + 60 * DAY + 21 * DAY + 4 * DAY + 5 * 3_600_000 + 6 * 60_000 + 7_000],
    ['PT0S', 0],
  ])('%s = %d ms', (text, ms) => {
    expect(parseIsoDurationMs(text)).toBe(ms);
  });

  it.each([
    '15s',
    'P',
    'PT',
    '-PT5S',
    'pt5s',
    'PT5',
    'P1DT',
    'PT5S ',
    'xPT5S',
    'P1S',
    'PT1D',
    'PT.5S',
    'PT1S1M',
    '',
  ])('rejects %j', (text) => {
    expect(parseIsoDurationMs(text)).toBeUndefined();
  });
});
