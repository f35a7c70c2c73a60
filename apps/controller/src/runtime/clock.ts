/**
 * Time as the runtime sees it. Everything that waits or timestamps takes a Clock so tests can
 * drive time by hand instead of sleeping.
 */
export type TimerHandle = unknown;

export interface Clock {
  /** Wall-clock time, epoch milliseconds: for timestamps others read. */
  now(): number;
  /** Milliseconds from an arbitrary origin that never jumps: for measuring how long something took. */
  monotonic(): number;
  setTimeout(callback: () => void, delayMs: number): TimerHandle;
  clearTimeout(handle: TimerHandle): void;
}

export const realClock: Clock = {
  now: () => Date.now(),
  monotonic: () => performance.now(),
  setTimeout: (callback, delayMs) => setTimeout(callback, delayMs),
  clearTimeout: (handle) => clearTimeout(handle as ReturnType<typeof setTimeout>),
};
