/**
 * setTimeout for any delay, shared by the hook client's deadlines and the controller runtime's clock. Node keeps timers in a signed 32-bit millisecond count: a longer delay
 * (above about 24.8 days, e.g. a hook timeout of P30D) fires after 1 ms instead. Longer waits are
 * chained from timers that each stay below that bound.
 */
export const MAX_TIMER_DELAY_MS = 2 ** 31 - 1;

/** Calls `callback` once after `delayMs`; the returned function cancels it. */
export function setLongTimeout(callback: () => void, delayMs: number): () => void {
  let timer: ReturnType<typeof setTimeout>;
  const wait = (remainingMs: number): void => {
    if (remainingMs > MAX_TIMER_DELAY_MS) {
      timer = setTimeout(() => wait(remainingMs - MAX_TIMER_DELAY_MS), MAX_TIMER_DELAY_MS);
    } else {
      timer = setTimeout(callback, remainingMs);
    }
  };
  wait(delayMs);
  return () => clearTimeout(timer);
}
