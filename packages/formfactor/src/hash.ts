import { createHash } from 'node:crypto';

/** The first 8 lowercase hex digits of SHA-256 over the UTF-8 bytes of `text`. */
export function shortHash(text: string): string {
  return createHash('sha256').update(text, 'utf8').digest('hex').slice(0, 8);
}

/** The first `count` characters (code points, not UTF-16 units) of `text`. */
export function firstCharacters(text: string, count: number): string {
  return Array.from(text).slice(0, count).join('');
}

export function characterCount(text: string): number {
  return Array.from(text).length;
}
