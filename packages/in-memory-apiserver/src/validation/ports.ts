/** Port names as k8s.io/apimachinery's IsValidPortName checks them (an IANA_SVC_NAME). */

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
