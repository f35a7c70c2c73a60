/**
 * Whether two answers to the same request have the same effect (docs/spec/hooks-v1.md §3: no
 * dependence on key order; §4: idempotence), and the reordered request that tests the first.
 */
import { isDeepStrictEqual } from 'node:util';
import type { Effect } from './judge-answer.ts';
import { isJsonObject } from './error-answer.ts';

/** The first path where `a` and `b` differ (`status.conditions[1].reason`), or undefined. */
export function firstDifference(a: unknown, b: unknown, path = ''): string | undefined {
  if (isDeepStrictEqual(a, b)) return undefined;
  if (Array.isArray(a) && Array.isArray(b) && a.length === b.length) {
    for (const [index, item] of a.entries()) {
      const found = firstDifference(item, b[index], `${path}[${index}]`);
      if (found !== undefined) return found;
    }
  }
  if (isJsonObject(a) && isJsonObject(b)) {
    for (const key of [...new Set([...Object.keys(a), ...Object.keys(b)])].sort()) {
      const found = firstDifference(a[key], b[key], path === '' ? key : `${path}.${key}`);
      if (found !== undefined) return found;
    }
  }
  return path === '' ? '(the whole answer)' : path;
}

/** A description of how `second` differs from `first`, or undefined when they are the same. */
export function effectDifference(first: Effect, second: Effect): string | undefined {
  if (first.proceed !== second.proceed) {
    const say = (effect: Effect) => (effect.proceed ? 'a success' : `an error (${effect.message})`);
    return `the first answer was ${say(first)}, the second ${say(second)}`;
  }
  const path = firstDifference(first, second);
  return path === undefined ? undefined : `the answers differ at ${path}`;
}

/** The same JSON with the keys of every object in reverse order. */
export function reverseKeyOrder(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(reverseKeyOrder);
  if (!isJsonObject(value)) return value;
  return Object.fromEntries(
    Object.keys(value)
      .reverse()
      .map((key) => [key, reverseKeyOrder(value[key])]),
  );
}
