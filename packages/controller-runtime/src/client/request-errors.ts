/** Failures of a request that the client decided, not the API server. */

/** The API server did not answer in time; the request was abandoned (its connection closed). */
export class RequestTimeoutError extends Error {
  readonly method: string;
  readonly path: string;
  readonly timeoutMs: number;

  constructor(method: string, path: string, timeoutMs: number) {
    super(`${method} ${path} timed out: no answer from the API server within ${timeoutMs} ms`);
    this.name = 'RequestTimeoutError';
    this.method = method;
    this.path = path;
    this.timeoutMs = timeoutMs;
  }
}

/** A write this process must not make (e.g. it is no longer the leader); it was not sent, or was cut off. */
export class WriteRefusedError extends Error {
  readonly method: string;
  readonly path: string;

  constructor(method: string, path: string, reason: string) {
    super(`${method} ${path} refused: ${reason}`);
    this.name = 'WriteRefusedError';
    this.method = method;
    this.path = path;
  }
}

/**
 * The caller's signal fired (a reconcile past its deadline, or stopped with its controller): the
 * request was not sent, or was cut off before its answer. Named AbortError as fetch's is.
 */
export class RequestAbortedError extends Error {
  readonly method: string;
  readonly path: string;

  constructor(method: string, path: string, reason: unknown) {
    super(`${method} ${path} aborted: ${reason instanceof Error ? reason.message : String(reason)}`, {
      cause: reason,
    });
    this.name = 'AbortError';
    this.method = method;
    this.path = path;
  }
}

/** True for a request cut by its caller's signal, or any AbortError (fetch's, a DOMException). */
export function isAbortError(error: unknown): boolean {
  return error instanceof Error && error.name === 'AbortError';
}

/** A reused keep-alive connection was reset before any answer: the server had closed it as idle. */
export class StaleConnectionError extends Error {
  constructor(cause: Error) {
    super(`a reused connection was reset: ${cause.message}`, { cause });
    this.name = 'StaleConnectionError';
  }
}
