import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { MAX_TIMER_DELAY_MS, setLongTimeout } from '../src/long-timeout.ts';

const THIRTY_DAYS_MS = 30 * 24 * 3600 * 1000;

describe('setLongTimeout', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('fires a 30-day timer after 30 days, not after the 1 ms of an overflowing setTimeout', () => {
    const fired = vi.fn();
    setLongTimeout(fired, THIRTY_DAYS_MS);
    vi.advanceTimersByTime(MAX_TIMER_DELAY_MS);
    expect(fired).not.toHaveBeenCalled();
    vi.advanceTimersByTime(THIRTY_DAYS_MS - MAX_TIMER_DELAY_MS - 1);
    expect(fired).not.toHaveBeenCalled();
    vi.advanceTimersByTime(1);
    expect(fired).toHaveBeenCalledTimes(1);
    vi.advanceTimersByTime(THIRTY_DAYS_MS);
    expect(fired).toHaveBeenCalledTimes(1);
  });

  it('fires a short timer like setTimeout', () => {
    const fired = vi.fn();
    setLongTimeout(fired, 250);
    vi.advanceTimersByTime(249);
    expect(fired).not.toHaveBeenCalled();
    vi.advanceTimersByTime(1);
    expect(fired).toHaveBeenCalledTimes(1);
  });

  it('can be cancelled in any link of the chain', () => {
    const fired = vi.fn();
    const cancel = setLongTimeout(fired, 3 * MAX_TIMER_DELAY_MS);
    vi.advanceTimersByTime(MAX_TIMER_DELAY_MS + 5);
    cancel();
    vi.advanceTimersByTime(3 * MAX_TIMER_DELAY_MS);
    expect(fired).not.toHaveBeenCalled();
    expect(vi.getTimerCount()).toBe(0);
  });
});
