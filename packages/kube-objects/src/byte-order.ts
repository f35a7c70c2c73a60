/**
 * Byte order (spec README, docs/spec/env.md §1): the order of UTF-8 encodings, which is code point order.
 * JavaScript compares UTF-16 code units, which agrees with code point order except that surrogates
 * (encoding U+10000 and above) sort below U+E000–U+FFFF; only that case needs a correction.
 */
export function compareByteOrder(a: string, b: string): number {
  if (a === b) return 0;
  const length = a.length < b.length ? a.length : b.length;
  for (let i = 0; i < length; i++) {
    const x = a.charCodeAt(i);
    const y = b.charCodeAt(i);
    if (x !== y) return x >= 0xd800 && y >= 0xd800 ? codePointRank(x) - codePointRank(y) : x - y;
  }
  return a.length - b.length;
}

/** Moves surrogates (U+D800–U+DFFF) above U+E000–U+FFFF, keeping the order within each group. */
function codePointRank(unit: number): number {
  return unit < 0xe000 ? unit + 0x2000 : unit - 0x800;
}

const SURROGATE = /[\ud800-\udfff]/;

/**
 * Whether code unit order may differ from byte order for these strings. Without surrogates UTF-16 code
 * unit order is code point order, so hot paths may sort with the engine's native string comparison.
 */
export function hasSurrogates(strings: readonly string[]): boolean {
  // One scan of the joined strings is much cheaper than a test per string.
  return SURROGATE.test(strings.join(''));
}
