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
