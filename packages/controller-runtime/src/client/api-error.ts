/** A failed API request with the server's Status fields, so callers can branch on code and reason. */
export class ApiError extends Error {
  readonly code: number;
  readonly reason: string;
  readonly retryAfterSeconds: number | undefined;

  constructor(code: number, reason: string, message: string, retryAfterSeconds?: number) {
    super(message);
    this.name = 'ApiError';
    this.code = code;
    this.reason = reason;
    this.retryAfterSeconds = retryAfterSeconds;
  }
}

export function isNotFound(error: unknown): boolean {
  return error instanceof ApiError && error.code === 404;
}

/** Retry-After is honoured up to this many seconds (as hooks' is, docs/spec/hooks-v1.md §6.4). */
const MAX_RETRY_AFTER_SECONDS = 1_000;

/**
 * The API server refused the request for load: 429 Too Many Requests, or 503 with a Retry-After
 * (kube-apiserver's priority and fairness, an overloaded aggregated API). The request did nothing.
 * Looks through `cause` chains, since callers wrap what they could not do.
 */
export function loadRefusal(error: unknown): ApiError | undefined {
  for (let current = error, depth = 0; current instanceof Error && depth < 8; depth++) {
    if (
      current instanceof ApiError &&
      (current.code === 429 || (current.code === 503 && current.retryAfterSeconds !== undefined))
    )
      return current;
    current = current.cause;
  }
  return undefined;
}

/** The delay the API server asked for with Retry-After, in ms (clamped to 0..1000 s); undefined when none. */
export function serverRetryAfterMs(error: unknown): number | undefined {
  const seconds = loadRefusal(error)?.retryAfterSeconds;
  if (seconds === undefined) return undefined;
  return Math.min(Math.max(seconds, 0), MAX_RETRY_AFTER_SECONDS) * 1000;
}

/** A create whose name is taken. */
export function isAlreadyExists(error: unknown): boolean {
  return error instanceof ApiError && error.code === 409 && error.reason === 'AlreadyExists';
}

export function isConflict(error: unknown): boolean {
  return error instanceof ApiError && error.code === 409;
}

/** The message a person should see: the API server's own for API errors. */
export function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
