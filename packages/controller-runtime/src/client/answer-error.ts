import { ApiError } from './api-error.ts';

/** The error for a non-2xx answer: the reason and message of its Status body, or its text. */
export function answerError(code: number, text: string, retryAfterHeader: string | undefined): ApiError {
  let parsed: unknown;
  try {
    parsed = text === '' ? undefined : JSON.parse(text);
  } catch {
    parsed = undefined;
  }
  const status = (parsed ?? {}) as { reason?: string; message?: string };
  return new ApiError(
    code,
    status.reason ?? '',
    status.message ?? (text.trim() || `HTTP ${code}`),
    retryAfterSeconds(retryAfterHeader),
  );
}

/** Retry-After as delta-seconds or an HTTP-date (RFC 9110 §10.2.3); undefined when absent or unreadable. */
function retryAfterSeconds(header: string | undefined): number | undefined {
  const trimmed = header?.trim();
  if (trimmed === undefined || trimmed === '') return undefined;
  if (/^\d+$/.test(trimmed)) return Number(trimmed);
  // An HTTP-date names its weekday and month; Date.parse would take "-3" for a year.
  if (!/[a-z]/i.test(trimmed)) return undefined;
  const at = Date.parse(trimmed);
  return Number.isNaN(at) ? undefined : Math.max(0, Math.ceil((at - Date.now()) / 1000));
}
