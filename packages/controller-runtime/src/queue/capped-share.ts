import type { LendingSlots, Slots } from './concurrency-limit.ts';

/**
 * One queue's part of a shared limit: at most `cap` runs at once, each holding one of the shared
 * slots except while it lends it (waiting on a hook), so a registration whose reconciles all hang
 * on a hook that never answers holds none of the slots the others need.
 */
export class CappedShare implements LendingSlots {
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
    this.#wakeCapWaiters();
  }

  lend(): void {
    this.#shared.release();
  }

  tryReclaim(): boolean {
    return this.#shared.tryAcquire();
  }

  whenReclaimable(wake: () => void): void {
    this.#shared.whenAvailable(wake);
  }

  releaseLent(): void {
    this.#inUse -= 1;
    this.#wakeCapWaiters();
  }

  #wakeCapWaiters(): void {
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
