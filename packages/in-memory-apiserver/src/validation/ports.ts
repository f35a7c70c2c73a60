/** Port numbers and names as k8s.io/apimachinery's IsValidPortNum and IsValidPortName check them. */
import type { Cause } from '@scoby/structural-schema';
import { invalidValue } from './field-errors.ts';

export function portRangeCauses(field: string, port: unknown): Cause[] {
  if (typeof port !== 'number') return [];
  return port >= 1 && port <= 65535
    ? []
    : [invalidValue(field, port, 'must be between 1 and 65535, inclusive')];
}

/** Why `name` is no IANA_SVC_NAME. */
const CHARSET = /^[-a-z0-9]+$/;
const ONE_LETTER = /[a-z]/;

export function portNameErrors(name: string): string[] {
  const errors: string[] = [];
  if (name.length > 15) errors.push('must be no more than 15 characters');
  if (!CHARSET.test(name))
    errors.push('must contain only alpha-numeric characters (a-z, 0-9), and hyphens (-)');
  if (!ONE_LETTER.test(name)) errors.push('must contain at least one letter (a-z)');
  if (name.includes('--')) errors.push('must not contain consecutive hyphens');
  if (name.startsWith('-') || name.endsWith('-')) errors.push('must not begin or end with a hyphen');
  return errors;
}
