/**
 * The client-side rate limit of API requests, client-go's token bucket (`--kube-api-qps`,
 * `--kube-api-burst`): up to `burst` requests at once, refilled at `qps` per second. Watches are not
 * limited (they are long-lived, as in client-go).
 */
export interface ApiRateLimit {
  /** Requests per second on average; 0 or less: no limit. */
  qps: number;
  /** Requests allowed at once after a quiet spell. */
  burst: number;
}

/**
 * Scoby's default: above what its reconciles send at their fastest (the in-memory benchmark converges
 * 10,000 instances at about 2,400 requests/s; on the real control plane about 80/s), so it does not
 * slow a healthy API server, as client-go's 5/10 paced Go Scoby's convergence; it caps a runaway
 * retry loop.
 */
export const DEFAULT_API_RATE_LIMIT: ApiRateLimit = { qps: 5_000, burst: 10_000 };

export class TokenBucket {
  readonly #qps: number;
  readonly #burst: number;
  #tokens: number;
  #updatedAt: number;
  readonly #now: () => number;

  constructor(limit: ApiRateLimit, now: () => number = () => performance.now()) {
    this.#qps = limit.qps;
    this.#burst = Math.max(1, limit.burst);
    this.#tokens = this.#burst;
    this.#now = now;
    this.#updatedAt = now();
  }

  /**
   * Takes a token: 0 when one was there, else how long (ms) the caller must wait for the token it
   * now holds (reserved, as golang.org/x/time/rate's Reserve, so waiters are served in order).
   */
  reserve(): number {
    if (this.#qps <= 0) return 0;
    const now = this.#now();
    this.#tokens = Math.min(this.#burst, this.#tokens + ((now - this.#updatedAt) * this.#qps) / 1000);
    this.#updatedAt = now;
    this.#tokens -= 1;
    return this.#tokens >= 0 ? 0 : (-this.#tokens * 1000) / this.#qps;
  }
}
