/** `$ref`s between the named parts of OpenAPI documents (`#/definitions/…`, `#/components/schemas/…`). */

type JsonObject = Record<string, unknown>;

/** Every `$ref` inside a value. */
export function collectRefs(value: unknown, into: Set<string>): void {
  if (Array.isArray(value)) {
    for (const item of value) collectRefs(item, into);
  } else if (value !== null && typeof value === 'object') {
    for (const [key, inner] of Object.entries(value)) {
      if (key === '$ref' && typeof inner === 'string') into.add(inner);
      else collectRefs(inner, into);
    }
  }
}

function sortedKeys(object: JsonObject): JsonObject {
  return Object.fromEntries(Object.entries(object).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
}

/**
 * The entries of each pool (`definitions`, `components/schemas`, …) that `roots` reach through refs
 * `#/<pool>/<name>`, transitively, each pool in name order.
 */
export function reachable(roots: unknown, pools: Record<string, JsonObject>): Record<string, JsonObject> {
  const kept: Record<string, JsonObject> = Object.fromEntries(Object.keys(pools).map((pool) => [pool, {}]));
  const pending = new Set<string>();
  collectRefs(roots, pending);
  const seen = new Set<string>();
  for (const ref of pending) {
    if (seen.has(ref)) continue;
    seen.add(ref);
    for (const [pool, entries] of Object.entries(pools)) {
      const prefix = `#/${pool}/`;
      if (!ref.startsWith(prefix)) continue;
      const name = ref.slice(prefix.length);
      const entry = entries[name];
      if (entry === undefined) throw new Error(`dangling reference ${ref}`);
      kept[pool]![name] = entry;
      collectRefs(entry, pending);
    }
  }
  for (const pool of Object.keys(kept)) kept[pool] = sortedKeys(kept[pool]!);
  return kept;
}
