/**
 * Exponential backoff: the n-th consecutive failure (n ≥ 1) waits base · 2^(n-1), at most cap. With
 * `jitter` (a fraction in [0, 1)), each delay is drawn uniformly from [d · (1 − jitter), d]: clients
 * that failed together (every informer of every replica when the API server went away) do not come
 * back in step, and the cap stays a bound.
 */
export interface BackoffPolicy {
  baseMs: number;
  capMs: number;
  /** Default 0: the delays are exact. */
  jitter?: number;
}

/** A number in [0, 1), as Math.random; tests pass their own. */
export type Random = () => number;

export function backoffDelay(policy: BackoffPolicy, failures: number, random: Random = Math.random): number {
  if (failures < 1) return 0;
  // Past 2^60 the double overflows integer precision long before any realistic cap matters.
  const exponent = Math.min(failures - 1, 60);
  const delay = Math.min(policy.capMs, policy.baseMs * 2 ** exponent);
  const jitter = policy.jitter ?? 0;
  return jitter > 0 ? delay * (1 - jitter * random()) : delay;
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
