/** Row 17 of docs/spec/registration.md §4: spec.resyncPeriod (§3.7). */
import { parseIsoDurationMs } from '../iso8601-duration.ts';
import type { CRDRegistrationSpec } from '../types.ts';
import type { Problem } from './problem.ts';
import { problem, quote, ValidationReason } from './problem.ts';

/** The shortest resync period: below it the periodic hook calls of a large registration are load. */
export const MIN_RESYNC_PERIOD_MS = 30_000;
export const MIN_RESYNC_PERIOD = 'PT30S';

const PATH = 'spec.resyncPeriod';

/** An empty resyncPeriod means "absent", as an empty hook timeout does. */
export function resyncPeriodProblems(spec: CRDRegistrationSpec): Problem[] {
  const period = spec.resyncPeriod;
  if (period === undefined || period === '') return [];
  const reason = ValidationReason.InvalidResyncPeriod;
  const milliseconds = parseIsoDurationMs(period);
  if (milliseconds === undefined) {
    return [problem(PATH, reason, `${quote(period)} is not an ISO 8601 duration (for example "PT10M")`)];
  }
  if (milliseconds < MIN_RESYNC_PERIOD_MS) {
    return [problem(PATH, reason, `${quote(period)} is shorter than the minimum ${MIN_RESYNC_PERIOD}`)];
  }
  return [];
}
