import { createHash } from 'node:crypto';

/** The first 8 lowercase hex digits of SHA-256 over the UTF-8 bytes of `text`. */
export function shortHash(text: string): string {
  return createHash('sha256').update(text, 'utf8').digest('hex').slice(0, 8);
}
