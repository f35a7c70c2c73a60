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
  const retryAfter = Number(retryAfterHeader);
  return new ApiError(
    code,
    status.reason ?? '',
    status.message ?? (text.trim() || `HTTP ${code}`),
    Number.isFinite(retryAfter) ? retryAfter : undefined,
  );
}
