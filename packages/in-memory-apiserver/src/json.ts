import { isDeepStrictEqual } from 'node:util';

export type JsonMap = Record<string, unknown>;

export function isJsonMap(value: unknown): value is JsonMap {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export function deepEqual(a: unknown, b: unknown): boolean {
  return isDeepStrictEqual(a, b);
}

/** A copy without the given top-level keys. */
export function omit(map: JsonMap, keys: readonly string[]): JsonMap {
  const copy = { ...map };
  for (const key of keys) delete copy[key];
  return copy;
}
