/**
 * Deterministic text forms shared by rendering (env.md §4 compact JSON) and update detection
 * (children-and-status.md §5.2 desired-hash).
 */

/** Byte order of UTF-8 strings, i.e. code point order (UTF-16 unit order differs for astral characters). */
export function compareByteOrder(a: string, b: string): number {
  if (a === b) return 0;
  const length = Math.min(a.length, b.length);
  for (let i = 0; i < length; i++) {
    const x = a.charCodeAt(i);
    const y = b.charCodeAt(i);
    if (x === y) continue;
    // Surrogates (U+D800–U+DFFF) encode code points above U+FFFF, which sort after U+E000–U+FFFF.
    const surrogateX = x >= 0xd800 && x <= 0xdfff;
    const surrogateY = y >= 0xd800 && y <= 0xdfff;
    if (surrogateX !== surrogateY) return surrogateX ? 1 : -1;
    return x - y;
  }
  return a.length - b.length;
}

function sortKeysDeep(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortKeysDeep);
  if (typeof value !== 'object' || value === null) return value;
  const sorted: Record<string, unknown> = {};
  for (const key of Object.keys(value).sort(compareByteOrder)) {
    sorted[key] = sortKeysDeep((value as Record<string, unknown>)[key]);
  }
  return sorted;
}

/** Compact JSON with object keys in byte order at every depth (JSON.stringify escaping rules). */
export function compactJson(value: unknown): string {
  return JSON.stringify(sortKeysDeep(value));
}
