import type { Clock, TimerHandle } from '../time/clock.ts';

interface PendingTimer {
  id: number;
  at: number;
  callback: () => void;
}

/** Lets every pending promise continuation run (microtasks drain before the next macrotask). */
export function settle(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}

/** A clock that only moves when the test says so. */
export class ManualClock implements Clock {
  #now: number;
  #nextId = 1;
  #timers: PendingTimer[] = [];

  constructor(start = 0) {
    this.#now = start;
  }

  now(): number {
    return this.#now;
  }

  monotonic(): number {
    return this.#now;
  }

  setTimeout(callback: () => void, delayMs: number): TimerHandle {
    const timer = { id: this.#nextId++, at: this.#now + Math.max(0, delayMs), callback };
    this.#timers.push(timer);
    return timer.id;
  }

  clearTimeout(handle: TimerHandle): void {
    this.#timers = this.#timers.filter((timer) => timer.id !== handle);
  }

  get pendingTimers(): number {
    return this.#timers.length;
  }

  /** Moves time forward, firing due timers in order and letting promises settle after each. */
  async advance(ms: number): Promise<void> {
    const target = this.#now + ms;
    for (;;) {
      await settle();
      const due = this.#timers
        .filter((timer) => timer.at <= target)
        .sort((a, b) => a.at - b.at || a.id - b.id)[0];
      if (due === undefined) break;
      this.#timers = this.#timers.filter((timer) => timer !== due);
      this.#now = due.at;
      due.callback();
    }
    this.#now = target;
    await settle();
  }
}
