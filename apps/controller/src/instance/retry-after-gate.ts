/**
 * Retry-After from a hook (docs/spec/hooks-v1.md §6.4) or from the API server refusing a request for load
 * (docs/spec/children-and-status.md §1 step 12): the next attempt for the instance happens only after
 * the delay asked for. Reconciles triggered in between (Scoby's own HookFailed status write
 * among them) must not call the hook early; a new effective configuration (a new hook URL, a new
 * registration generation) lifts the wait, as it un-parks instances.
 */
export class RetryAfterGate {
  readonly #waits = new Map<string, { untilMs: number; revision: string }>();

  hold(key: string, revision: string, untilMs: number): void {
    this.#waits.set(key, { untilMs, revision });
  }

  /** Milliseconds the instance must still wait; 0 once it may be reconciled. */
  remainingMs(key: string, revision: string, nowMs: number): number {
    const wait = this.#waits.get(key);
    if (wait === undefined) return 0;
    if (wait.revision === revision && wait.untilMs > nowMs) return wait.untilMs - nowMs;
    this.#waits.delete(key);
    return 0;
  }

  release(key: string): void {
    this.#waits.delete(key);
  }
}
