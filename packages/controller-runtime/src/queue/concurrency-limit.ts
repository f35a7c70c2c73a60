/** Reconcile slots as a work queue takes them. */
export interface Slots {
  tryAcquire(): boolean;
  release(): void;
  /** Calls `wake` once, when a slot may have become free. */
  whenAvailable(wake: () => void): void;
}

/**
 * Slots holding a part of a limit shared with other queues, which a run may lend while it waits on
 * something outside the process (a hook) and keep its own place meanwhile.
 */
export interface LendingSlots extends Slots {
  /** Gives the shared part of one held slot back. */
  lend(): void;
  /** Takes a shared part back for a run that lent its own; false when none is free. */
  tryReclaim(): boolean;
  /** Calls `wake` once, when a shared part may have become free. */
  whenReclaimable(wake: () => void): void;
  /** Gives back a held slot whose shared part is lent. */
  releaseLent(): void;
}

export function canLend(slots: Slots): slots is LendingSlots {
  return 'lend' in slots;
}

/**
 * A counting semaphore that several work queues can share, so the whole process runs at most
 * `limit` reconciles at once no matter how many registrations it serves.
 */
export class ConcurrencyLimit implements Slots {
  readonly limit: number;
  #inUse = 0;
  readonly #waiters: Array<() => void> = [];

  constructor(limit: number) {
    if (!Number.isInteger(limit) || limit < 1) {
      throw new RangeError(`concurrency limit must be a positive integer, got ${limit}`);
    }
    this.limit = limit;
  }

  get inUse(): number {
    return this.#inUse;
  }

  tryAcquire(): boolean {
    if (this.#inUse >= this.limit) return false;
    this.#inUse += 1;
    return true;
  }

  release(): void {
    this.#inUse -= 1;
    // A woken waiter may find it has nothing left to run and not take the slot: keep offering the
    // free slots down the line until they are taken or nobody waits.
    while (this.#inUse < this.limit && this.#waiters.length > 0) {
      this.#waiters.shift()?.();
    }
  }

  /** Calls `wake` once, the next time a slot is released. Waiters are woken in arrival order. */
  whenAvailable(wake: () => void): void {
    this.#waiters.push(wake);
  }
}
