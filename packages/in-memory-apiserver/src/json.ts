// A JSON-only comparison: node's isDeepStrictEqual, built for every kind of value, was a
// measurable share of the server's CPU in the controller benchmark.
export { deepEqual } from '@scoby/structural-schema';

export type JsonMap = Record<string, unknown>;

export function isJsonMap(value: unknown): value is JsonMap {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** A copy without the given top-level keys. */
export function omit(map: JsonMap, keys: readonly string[]): JsonMap {
  const copy = { ...map };
  for (const key of keys) delete copy[key];
  return copy;
}
