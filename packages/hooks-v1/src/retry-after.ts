/** Retry-After (RFC 9110 §10.2.3) as honoured on 429 and 503 answers (docs/spec/hooks-v1.md §6.4). */

export const MAX_RETRY_AFTER_MS = 1000 * 1000;

const DELTA_SECONDS = /^\d+$/;
/** ANSI C asctime(), the one HTTP-date form without a zone: it is GMT by definition. */
const ASCTIME = /^[A-Za-z]{3} [A-Za-z]{3} [ \d]\d \d\d:\d\d:\d\d \d{4}$/;

/**
 * The delay in milliseconds, clamped to 0..1000 s, or undefined when the header is absent or is
 * neither delta-seconds nor an HTTP-date (an invalid header falls back to the normal backoff).
 */
export function parseRetryAfter(header: string | undefined, nowMs: number): number | undefined {
  const value = header?.trim();
  if (value === undefined || value === '') return undefined;
  const delayMs = DELTA_SECONDS.test(value) ? Number(value) * 1000 : httpDateDelay(value, nowMs);
  return delayMs === undefined ? undefined : Math.min(Math.max(delayMs, 0), MAX_RETRY_AFTER_MS);
}

function httpDateDelay(value: string, nowMs: number): number | undefined {
  // A bare number such as "1.5" or "-3" would parse as a year; only dates with letters qualify.
  if (!/[a-z]/i.test(value)) return undefined;
  const at = Date.parse(ASCTIME.test(value) ? `${value} GMT` : value);
  return Number.isNaN(at) ? undefined : at - nowMs;
}

export function honoursRetryAfter(status: number): boolean {
  return status === 429 || status === 503;
}
