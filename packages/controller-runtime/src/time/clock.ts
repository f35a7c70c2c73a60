/**
 * Time as the runtime sees it. Everything that waits or timestamps takes a Clock so tests can
 * drive time by hand instead of sleeping.
 */
import { setLongTimeout } from '@scoby/kube-objects';

export type TimerHandle = unknown;

export interface Clock {
  /** Wall-clock time, epoch milliseconds: for timestamps others read. */
  now(): number;
  /** Milliseconds from an arbitrary origin that never jumps: for measuring how long something took. */
  monotonic(): number;
  setTimeout(callback: () => void, delayMs: number): TimerHandle;
  clearTimeout(handle: TimerHandle): void;
}

/** Delays of any length: a resync period or refresh above about 24.8 days must not fire at once. */
export const realClock: Clock = {
  now: () => Date.now(),
  monotonic: () => performance.now(),
  setTimeout: (callback, delayMs) => setLongTimeout(callback, delayMs),
  clearTimeout: (handle) => (handle as () => void)(),
};
