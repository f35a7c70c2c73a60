import type { Cause } from '@scoby/structural-schema';
import type { ResourceType } from './resource-type.ts';

const DNS1123_LABEL = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/;
const DNS1123_SUBDOMAIN = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/;
const DNS1035_LABEL = /^[a-z]([-a-z0-9]*[a-z0-9])?$/;

function invalidName(name: string, message: string): Cause[] {
  return [
    { type: 'FieldValueInvalid', field: 'metadata.name', message: `Invalid value: "${name}": ${message}` },
  ];
}

function label(name: string): Cause[] {
  if (name.length > 63) return invalidName(name, 'must be no more than 63 characters');
  if (DNS1123_LABEL.test(name)) return [];
  return invalidName(
    name,
    "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')",
  );
}

function dns1035(name: string): Cause[] {
  if (name.length > 63) return invalidName(name, 'must be no more than 63 characters');
  if (DNS1035_LABEL.test(name)) return [];
  return invalidName(
    name,
    "a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic character, and end with an alphanumeric character (e.g. 'my-name',  or 'abc-123', regex used for validation is '[a-z]([-a-z0-9]*[a-z0-9])?')",
  );
}

function subdomain(name: string): Cause[] {
  if (name.length > 253) return invalidName(name, 'must be no more than 253 characters');
  if (DNS1123_SUBDOMAIN.test(name)) return [];
  return invalidName(
    name,
    "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')",
  );
}

/** RBAC objects only need to be usable as a path segment (they allow `system:` names). */
function pathSegment(name: string): Cause[] {
  if (name === '.' || name === '..') return invalidName(name, `may not be '${name}'`);
  for (const forbidden of ['/', '%']) {
    if (name.includes(forbidden)) return invalidName(name, `may not contain '${forbidden}'`);
  }
  return [];
}

/** metadata.name rules of each resource, with the real server's messages. */
export function validateName(type: ResourceType, name: string): Cause[] {
  if (type.group === '' && type.plural === 'namespaces') return label(name);
  if (type.group === '' && type.plural === 'services') return dns1035(name);
  if (type.group === 'rbac.authorization.k8s.io') return pathSegment(name);
  return subdomain(name);
}

const SUFFIX_ALPHABET = 'bcdfghjklmnpqrstvwxz2456789';

/** generateName + 5 random characters from the alphabet the real server uses. */
export function generateName(prefix: string): string {
  let suffix = '';
  for (let i = 0; i < 5; i++) suffix += SUFFIX_ALPHABET[Math.floor(Math.random() * SUFFIX_ALPHABET.length)];
  return `${prefix.slice(0, 58)}${suffix}`;
}
