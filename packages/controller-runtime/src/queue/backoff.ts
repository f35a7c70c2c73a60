/** Exponential backoff: the n-th consecutive failure (n ≥ 1) waits base · 2^(n-1), at most cap. */
export interface BackoffPolicy {
  baseMs: number;
  capMs: number;
}

export function backoffDelay(policy: BackoffPolicy, failures: number): number {
  if (failures < 1) return 0;
  // Past 2^60 the double overflows integer precision long before any realistic cap matters.
  const exponent = Math.min(failures - 1, 60);
  return Math.min(policy.capMs, policy.baseMs * 2 ** exponent);
}

/** Per-key failure counter over a backoff policy, as client-go's ItemExponentialFailureRateLimiter. */
export class KeyedBackoff {
  readonly #policy: BackoffPolicy;
  readonly #failures = new Map<string, number>();

  constructor(policy: BackoffPolicy) {
    this.#policy = policy;
  }

  /** Records one more failure of `key` and returns how long to wait before retrying it. */
  next(key: string): number {
    const failures = (this.#failures.get(key) ?? 0) + 1;
    this.#failures.set(key, failures);
    return backoffDelay(this.#policy, failures);
  }

  failures(key: string): number {
    return this.#failures.get(key) ?? 0;
  }

  reset(key: string): void {
    this.#failures.delete(key);
  }
}
