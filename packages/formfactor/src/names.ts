/** Child names and label values (children-and-status.md §4.1, §4.2): always valid, at most 63 characters. */
import { characterCount, firstCharacters } from './characters.ts';
import { shortHash } from './hash.ts';

const MAX_LENGTH = 63;
const KEPT_PREFIX_LENGTH = 54;

/** §4.1: `<registration>-<instance>`, shortened with a hash when too long or containing dots. */
export function childName(registrationName: string, instanceName: string): string {
  const base = `${registrationName}-${instanceName}`;
  if (characterCount(base) <= MAX_LENGTH && !base.includes('.')) return base;
  const prefix = firstCharacters(base.replaceAll('.', '-'), KEPT_PREFIX_LENGTH).replace(/-+$/, '');
  return `${prefix}-${shortHash(base)}`;
}

/** L(v) of §4.2: `v`, or when longer than 63 characters a shortened prefix and a hash. */
export function labelValue(value: string): string {
  if (characterCount(value) <= MAX_LENGTH) return value;
  const prefix = firstCharacters(value, KEPT_PREFIX_LENGTH).replace(/[-_.]+$/, '');
  return `${prefix}-${shortHash(value)}`;
}
