import { describe, expect, it } from 'vitest';
import { LOW_PRIORITY, NORMAL_PRIORITY, ReadyKeys } from '../../src/queue/ready-keys.ts';

function drain(keys: ReadyKeys): string[] {
  const taken: string[] = [];
  for (let key = keys.shift(); key !== undefined; key = keys.shift()) taken.push(key);
  return taken;
}

describe('ReadyKeys', () => {
  it('gives the higher priority first, and within a priority the key that waited longest', () => {
    const keys = new ReadyKeys();
    keys.push('listed-1', LOW_PRIORITY);
    keys.push('listed-2', LOW_PRIORITY);
    keys.push('changed-1', NORMAL_PRIORITY);
    keys.push('listed-3', LOW_PRIORITY);
    keys.push('urgent', 10);
    keys.push('changed-2', NORMAL_PRIORITY);
    expect(keys.size).toBe(6);
    expect(drain(keys)).toEqual(['urgent', 'changed-1', 'changed-2', 'listed-1', 'listed-2', 'listed-3']);
    expect(keys.size).toBe(0);
  });

  it('moves a key added again at a higher priority behind the keys of that priority, once', () => {
    const keys = new ReadyKeys();
    keys.push('a', LOW_PRIORITY);
    keys.push('b', LOW_PRIORITY);
    keys.push('c', NORMAL_PRIORITY);
    keys.push('b', NORMAL_PRIORITY);
    expect(keys.size).toBe(3);
    expect(drain(keys)).toEqual(['c', 'b', 'a']);
  });

  it('never moves a key down or back: the same or a lower priority changes nothing', () => {
    const keys = new ReadyKeys();
    keys.push('a', NORMAL_PRIORITY);
    keys.push('b', NORMAL_PRIORITY);
    keys.push('a', NORMAL_PRIORITY);
    keys.push('a', LOW_PRIORITY);
    expect(drain(keys)).toEqual(['a', 'b']);
  });

  it('puts a key taken and added again at the back, not at the place it left when it moved up', () => {
    const keys = new ReadyKeys();
    keys.push('a', LOW_PRIORITY);
    keys.push('b', LOW_PRIORITY);
    keys.push('a', NORMAL_PRIORITY);
    expect(keys.shift()).toBe('a');
    keys.push('a', LOW_PRIORITY);
    expect(drain(keys)).toEqual(['b', 'a']);
  });

  it('keeps its order over many keys taken while others arrive', () => {
    const keys = new ReadyKeys();
    const taken: string[] = [];
    for (let index = 0; index < 5_000; index++) {
      keys.push(`low-${index}`, LOW_PRIORITY);
      if (index % 2 === 0) taken.push(keys.shift()!);
    }
    taken.push(...drain(keys));
    expect(taken).toEqual(Array.from({ length: 5_000 }, (_, index) => `low-${index}`));
  });

  it('forgets every key on clear', () => {
    const keys = new ReadyKeys();
    keys.push('a', LOW_PRIORITY);
    keys.push('b', NORMAL_PRIORITY);
    keys.clear();
    expect(keys.size).toBe(0);
    expect(keys.shift()).toBeUndefined();
    keys.push('a', LOW_PRIORITY);
    expect(drain(keys)).toEqual(['a']);
  });
});
