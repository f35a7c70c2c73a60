import { describe, expect, it } from 'vitest';
import { realClock } from '../../src/time/clock.ts';

describe('the real clock', () => {
  it('waits out delays longer than Node’s 32-bit timer limit instead of firing at once', async () => {
    let fired = false;
    const handle = realClock.setTimeout(() => (fired = true), 30 * 24 * 3600 * 1000);
    await new Promise((resolve) => setTimeout(resolve, 50));
    realClock.clearTimeout(handle);
    expect(fired).toBe(false);
  });

  it('fires short delays and can cancel them', async () => {
    const fired: string[] = [];
    realClock.setTimeout(() => fired.push('kept'), 5);
    realClock.clearTimeout(realClock.setTimeout(() => fired.push('cancelled'), 5));
    await new Promise((resolve) => setTimeout(resolve, 40));
    expect(fired).toEqual(['kept']);
  });
});
