/**
 * Where Go's `base64.StdEncoding.Decode` fails on a string, as kube-apiserver's JSON decoder reads a
 * `[]byte` field (Secret data, ConfigMap binaryData): the byte offset its CorruptInputError names, or
 * undefined when Go decodes it. Ported from Go's decodeQuantum: padding required, `\r` and `\n` skipped,
 * not strict about trailing bits.
 */
const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
const DECODES = new Set(Array.from(ALPHABET, (character) => character.charCodeAt(0)));
const PAD = '='.charCodeAt(0);
const NEWLINE = '\n'.charCodeAt(0);
const RETURN = '\r'.charCodeAt(0);

function isNewline(byte: number | undefined): boolean {
  return byte === NEWLINE || byte === RETURN;
}

function skipNewlines(src: Uint8Array, from: number): number {
  let at = from;
  while (at < src.length && isNewline(src[at])) at++;
  return at;
}

/** One quantum from `start`: where the next begins, or the offset of the corrupt byte. */
function quantum(src: Uint8Array, start: number): { next: number } | { corruptAt: number } {
  let si = start;
  for (let j = 0; j < 4; j++) {
    if (si === src.length) return j === 0 ? { next: si } : { corruptAt: si - j };
    const byte = src[si] as number;
    si++;
    if (DECODES.has(byte)) continue;
    if (isNewline(byte)) {
      j--;
      continue;
    }
    if (byte !== PAD || j < 2) return { corruptAt: si - 1 };
    if (j === 2) {
      si = skipNewlines(src, si);
      if (si === src.length) return { corruptAt: src.length };
      if (src[si] !== PAD) return { corruptAt: si - 1 };
      si++;
    }
    si = skipNewlines(src, si);
    return si < src.length ? { corruptAt: si } : { next: si };
  }
  return { next: si };
}

/** The offset Go reports as "illegal base64 data at input byte N", undefined for valid input. */
export function goBase64CorruptOffset(text: string): number | undefined {
  const src = Buffer.from(text, 'utf8');
  let si = 0;
  while (si < src.length) {
    const step = quantum(src, si);
    if ('corruptAt' in step) return step.corruptAt;
    si = step.next;
  }
  return undefined;
}
