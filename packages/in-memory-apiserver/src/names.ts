import type { ResourceType } from './resource-type.ts';

const DNS1123_LABEL = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/;
const DNS1123_SUBDOMAIN = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/;
const DNS1035_LABEL = /^[a-z]([-a-z0-9]*[a-z0-9])?$/;

const LABEL_MESSAGE =
  "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')";
const DNS1035_MESSAGE =
  "a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic character, and end with an alphanumeric character (e.g. 'my-name',  or 'abc-123', regex used for validation is '[a-z]([-a-z0-9]*[a-z0-9])?')";
const SUBDOMAIN_MESSAGE =
  "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')";

function pattern(name: string, maxLength: number, regex: RegExp, message: string): string[] {
  return [
    ...(name.length > maxLength ? [`must be no more than ${maxLength} characters`] : []),
    ...(regex.test(name) ? [] : [message]),
  ];
}

/** Why `value` is no RFC 1123 label (volume and container names). */
export function dnsLabelErrors(value: string): string[] {
  return pattern(value, 63, DNS1123_LABEL, LABEL_MESSAGE);
}

/** Why `value` is no RFC 1123 subdomain (names of the objects a pod refers to). */
export function dnsSubdomainErrors(value: string): string[] {
  return pattern(value, 253, DNS1123_SUBDOMAIN, SUBDOMAIN_MESSAGE);
}

/** RBAC objects only need to be usable as a path segment (they allow `system:` names). */
function pathSegment(name: string): string[] {
  if (name === '.' || name === '..') return [`may not be '${name}'`];
  return ['/', '%']
    .filter((forbidden) => name.includes(forbidden))
    .map((forbidden) => `may not contain '${forbidden}'`);
}

/**
 * Why `name` is no valid metadata.name of the resource, with the real server's messages. A generateName
 * `prefix` may end in '-' (kube-apiserver checks it with its last dash masked).
 */
export function nameErrors(type: ResourceType, name: string, prefix: boolean): string[] {
  const checked = prefix && name.length > 1 && name.endsWith('-') ? `${name.slice(0, -1)}a` : name;
  if (type.group === '' && type.plural === 'namespaces')
    return pattern(checked, 63, DNS1123_LABEL, LABEL_MESSAGE);
  if (type.group === '' && type.plural === 'services')
    return pattern(checked, 63, DNS1035_LABEL, DNS1035_MESSAGE);
  if (type.group === 'rbac.authorization.k8s.io') return pathSegment(checked);
  return pattern(checked, 253, DNS1123_SUBDOMAIN, SUBDOMAIN_MESSAGE);
}

const SUFFIX_ALPHABET = 'bcdfghjklmnpqrstvwxz2456789';

/** generateName + 5 random characters from the alphabet the real server uses. */
export function generateName(prefix: string): string {
  let suffix = '';
  for (let i = 0; i < 5; i++) suffix += SUFFIX_ALPHABET[Math.floor(Math.random() * SUFFIX_ALPHABET.length)];
  return `${prefix.slice(0, 58)}${suffix}`;
}
