/** What a hook handler throws to answer with a v1 error body (docs/spec/hooks-v1.md §6.1). */

export interface HookErrorOptions {
  /** A 4xx or 5xx status; default 500. */
  status?: number;
  /** Stop retrying: Scoby parks the instance until it or the registration changes. */
  permanent?: boolean;
  /** Let Scoby go on as if the hook had answered 2xx with an empty body. */
  continue?: boolean;
  /** Sent as `Retry-After`; Scoby honours it on 429 and 503 only. */
  retryAfterSeconds?: number;
}

export class HookError extends Error {
  readonly status: number;
  readonly permanent: boolean;
  readonly continue: boolean;
  readonly retryAfterSeconds: number | undefined;

  constructor(message: string, options: HookErrorOptions = {}) {
    super(message);
    this.name = 'HookError';
    const status = options.status ?? 500;
    if (!Number.isInteger(status) || status < 400 || status > 599) {
      throw new RangeError(`HookError status must be an integer from 400 to 599, got ${status}`);
    }
    const retryAfter = options.retryAfterSeconds;
    if (retryAfter !== undefined && !(Number.isInteger(retryAfter) && retryAfter >= 0)) {
      throw new RangeError(`HookError retryAfterSeconds must be a non-negative integer, got ${retryAfter}`);
    }
    this.status = status;
    this.permanent = options.permanent ?? false;
    this.continue = options.continue ?? false;
    this.retryAfterSeconds = retryAfter;
  }
}
