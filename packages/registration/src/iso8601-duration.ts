/**
 * ISO 8601 durations as docs/spec/registration.md §4.1 defines them. Written by hand because iso8601-duration
 * differs on purpose-relevant points: its pattern is unanchored (it accepts "-PT5S" and "xPT5S"), and it
 * rejects fractions on date components and on any component but the smallest.
 */

const NUMBER = String.raw`(\d+(?:[.,]\d+)?)`;
const DURATION = new RegExp(
  `^P(?:${NUMBER}Y)?(?:${NUMBER}M)?(?:${NUMBER}W)?(?:${NUMBER}D)?(T(?:${NUMBER}H)?(?:${NUMBER}M)?(?:${NUMBER}S)?)?$`,
);

const SECOND = 1000;
const MINUTE = 60 * SECOND;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;
/** Milliseconds per component, in pattern order; the `T` group sits between D and H. */
const DATE_UNITS = [365 * DAY, 30 * DAY, 7 * DAY, DAY];
const TIME_UNITS = [HOUR, MINUTE, SECOND];

/** The duration in whole milliseconds, or undefined when `text` is not an accepted duration. */
export function parseIsoDurationMs(text: string): number | undefined {
  const match = DURATION.exec(text);
  if (match === null) return undefined;
  const dateParts = match.slice(1, 5);
  const timeDesignator = match[5];
  const timeParts = match.slice(6, 9);
  const hasTimePart = timeParts.some((part) => part !== undefined);
  if (timeDesignator !== undefined && !hasTimePart) return undefined;
  if (!hasTimePart && dateParts.every((part) => part === undefined)) return undefined;
  const total = sumOf(dateParts, DATE_UNITS) + sumOf(timeParts, TIME_UNITS);
  return Math.round(total);
}

function sumOf(parts: (string | undefined)[], units: number[]): number {
  return parts.reduce((sum, part, index) => {
    if (part === undefined) return sum;
    return sum + Number(part.replace(',', '.')) * (units[index] ?? 0);
  }, 0);
}
