/**
 * A bound on one kind of Event per registration: at most `limit` in any `windowMs` (docs/spec/registration.md
 * §6.8). Relabelling a thousand instances at once says so in a few Events; status.instances has the count.
 */
export class EventBudget {
  readonly #limit: number;
  readonly #windowMs: number;
  readonly #now: () => number;
  readonly #sent = new Map<string, number[]>();

  constructor(limit: number, windowMs: number, now: () => number) {
    this.#limit = limit;
    this.#windowMs = windowMs;
    this.#now = now;
  }

  /** Whether an Event for `subject` may be sent now; counts it when it may. */
  take(subject: string): boolean {
    const now = this.#now();
    const recent = (this.#sent.get(subject) ?? []).filter((at) => now - at < this.#windowMs);
    if (recent.length >= this.#limit) {
      this.#sent.set(subject, recent);
      return false;
    }
    recent.push(now);
    this.#sent.set(subject, recent);
    return true;
  }
}
