/** Lengths in characters (code points, not UTF-16 units), as the name limits of docs/spec/children-and-status.md §4.1–§4.2 count them. */

/** The first `count` characters of `text`. */
export function firstCharacters(text: string, count: number): string {
  return Array.from(text).slice(0, count).join('');
}

export function characterCount(text: string): number {
  return Array.from(text).length;
}
