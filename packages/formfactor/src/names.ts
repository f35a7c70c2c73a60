/** Child names and label values (docs/spec/children-and-status.md §4.1, §4.2): always valid, at most 63 characters. */
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

const MAX_SUBDOMAIN_LENGTH = 253;
const DNS_SUBDOMAIN = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/;

/**
 * The name of a child whose kind takes DNS-1123 subdomains (Deployments, StatefulSets, ConfigMaps):
 * Go Scoby's `<registration>-<instance>` as it is, dots included, whenever such a kind accepts it, so
 * the children Go Scoby created are adopted under the same name; otherwise `childName`.
 */
export function subdomainChildName(registrationName: string, instanceName: string): string {
  const base = `${registrationName}-${instanceName}`;
  return base.length <= MAX_SUBDOMAIN_LENGTH && DNS_SUBDOMAIN.test(base)
    ? base
    : childName(registrationName, instanceName);
}

/** L(v) of §4.2: `v`, or when longer than 63 characters a shortened prefix and a hash. */
export function labelValue(value: string): string {
  if (characterCount(value) <= MAX_LENGTH) return value;
  const prefix = firstCharacters(value, KEPT_PREFIX_LENGTH).replace(/[-_.]+$/, '');
  return `${prefix}-${shortHash(value)}`;
}
