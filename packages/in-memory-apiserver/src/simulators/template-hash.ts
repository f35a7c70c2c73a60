import { createHash } from 'node:crypto';

const ALPHABET = 'bcdfghjklmnpqrstvwxz2456789';

/** A short, stable hash of a pod template, in the style of pod-template-hash / controller-revision-hash. */
export function templateHash(template: unknown, length = 10): string {
  const digest = createHash('sha256')
    .update(JSON.stringify(template ?? null))
    .digest();
  let hash = '';
  for (let i = 0; i < length; i++) hash += ALPHABET[(digest[i] ?? 0) % ALPHABET.length];
  return hash;
}
