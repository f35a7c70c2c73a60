/** Byte order of UTF-8 encodings (spec README, Conventions): the order every list of names uses. */
export function compareByteOrder(a: string, b: string): number {
  return Buffer.compare(Buffer.from(a, 'utf8'), Buffer.from(b, 'utf8'));
}
