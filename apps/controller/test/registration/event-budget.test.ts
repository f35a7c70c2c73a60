import { describe, expect, it } from 'vitest';
import { EventBudget } from '../../src/registration/event-budget.ts';

describe('EventBudget', () => {
  it('lets `limit` Events per subject through in any window, and more once the oldest left it', () => {
    let now = 0;
    const budget = new EventBudget(2, 60_000, () => now);
    expect([budget.take('a'), budget.take('a'), budget.take('a'), budget.take('b')]).toEqual([
      true,
      true,
      false,
      true,
    ]);
    now = 59_999;
    expect(budget.take('a')).toBe(false);
    now = 60_000;
    expect([budget.take('a'), budget.take('a'), budget.take('a')]).toEqual([true, true, false]);
  });
});
