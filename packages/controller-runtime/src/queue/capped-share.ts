import type { Slots } from './concurrency-limit.ts';

/**
 * One queue's part of a shared limit: at most `cap` of the shared slots at once, so a registration
 * whose reconciles all hang (a hook that never answers) leaves the other slots to the others.
 */
export class CappedShare implements Slots {
  readonly cap: number;
  readonly #shared: Slots;
  #inUse = 0;
  readonly #capWaiters: Array<() => void> = [];

  constructor(shared: Slots, cap: number) {
    if (!Number.isInteger(cap) || cap < 1) {
      throw new RangeError(`concurrency cap must be a positive integer, got ${cap}`);
    }
    this.#shared = shared;
    this.cap = cap;
  }

  get inUse(): number {
    return this.#inUse;
  }

  tryAcquire(): boolean {
    if (this.#inUse >= this.cap || !this.#shared.tryAcquire()) return false;
    this.#inUse += 1;
    return true;
  }

  release(): void {
    this.#inUse -= 1;
    // Shared waiters first: they queued for the shared slot before this queue got below its cap.
    this.#shared.release();
    while (this.#inUse < this.cap && this.#capWaiters.length > 0) {
      this.#capWaiters.shift()?.();
    }
  }

  /** Waits on whichever bound stopped the last tryAcquire: this queue's cap or the shared limit. */
  whenAvailable(wake: () => void): void {
    if (this.#inUse >= this.cap) this.#capWaiters.push(wake);
    else this.#shared.whenAvailable(wake);
  }
}
