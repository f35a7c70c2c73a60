/**
 * A container's resources as kube-apiserver v1.34 validates them (ValidateContainerResourceRequirements):
 * standard names for containers (cpu, memory, ephemeral-storage, hugepages-*) or fully qualified
 * extended resources, quantities not negative (whole numbers for extended resources), requests not above
 * their limits, and extended resources, which cannot be overcommitted, requested only with an equal limit.
 * Quantities are decoded (canonical form) before validation, see pod-quantities.ts.
 */
import { isJsonObject, type Cause } from '@scoby/structural-schema';
import { invalidValue, requiredValue } from './field-errors.ts';
import { parseQuantity } from './quantity.ts';

const STANDARD = new Set(['cpu', 'memory', 'ephemeral-storage']);
const QUALIFIED_NAME = /^([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]$/;
const DNS1123_SUBDOMAIN = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/;

function isHugePages(name: string): boolean {
  return name.startsWith('hugepages-');
}

/** Native resources have no domain or a kubernetes.io one; the others are extended. */
function isNative(name: string): boolean {
  return !name.includes('/') || name.includes('kubernetes.io/');
}

function overcommitAllowed(name: string): boolean {
  return isNative(name) && !isHugePages(name);
}

function nameCauses(name: string, field: string): Cause[] {
  const causes: Cause[] = [];
  const slash = name.indexOf('/');
  const [prefix, local] = slash < 0 ? ['', name] : [name.slice(0, slash), name.slice(slash + 1)];
  const qualified =
    local.length > 0 &&
    local.length <= 63 &&
    QUALIFIED_NAME.test(local) &&
    (slash < 0 || (prefix.length > 0 && DNS1123_SUBDOMAIN.test(prefix)));
  if (!qualified) return [invalidValue(field, name, 'must be a qualified name')];
  if (slash < 0) {
    if (!STANDARD.has(name) && !isHugePages(name))
      causes.push(
        invalidValue(field, name, 'must be a standard resource type or fully qualified'),
        invalidValue(field, name, 'must be a standard resource for containers'),
      );
  } else if (!isNative(name) && (name.startsWith('requests.') || !QUALIFIED_NAME.test(local))) {
    causes.push(invalidValue(field, name, "doesn't follow extended resource name standard"));
  }
  return causes;
}

function quantityCauses(name: string, text: string, field: string): Cause[] {
  const parsed = parseQuantity(text);
  if (!parsed.ok) return [];
  if (parsed.value.milli < 0n) return [invalidValue(field, text, 'must be greater than or equal to 0')];
  if (!isNative(name) && parsed.value.milli % 1000n !== 0n)
    return [invalidValue(field, text, 'must be an integer')];
  return [];
}

function milliOf(text: unknown): bigint | undefined {
  if (typeof text !== 'string') return undefined;
  const parsed = parseQuantity(text);
  return parsed.ok ? parsed.value.milli : undefined;
}

/** Causes of `resources` of a container at `path` (e.g. `spec.template.spec.containers[0].resources`). */
export function resourceCauses(resources: unknown, path: string): Cause[] {
  if (!isJsonObject(resources)) return [];
  const limits = isJsonObject(resources.limits) ? resources.limits : {};
  const requests = isJsonObject(resources.requests) ? resources.requests : {};
  const causes: Cause[] = [];
  for (const [name, value] of Object.entries(limits)) {
    const field = `${path}.limits[${name}]`;
    causes.push(...nameCauses(name, field), ...quantityCauses(name, String(value), field));
  }
  for (const [name, value] of Object.entries(requests)) {
    const field = `${path}.requests[${name}]`;
    causes.push(...nameCauses(name, field), ...quantityCauses(name, String(value), field));
    const request = milliOf(value);
    const limit = milliOf(limits[name]);
    if (limit !== undefined && request !== undefined) {
      if (request !== limit && !overcommitAllowed(name))
        causes.push(
          invalidValue(
            `${path}.requests`,
            String(value),
            `must be equal to ${name} limit of ${String(limits[name])}`,
          ),
        );
      else if (request > limit)
        causes.push(
          invalidValue(
            `${path}.requests`,
            String(value),
            `must be less than or equal to ${name} limit of ${String(limits[name])}`,
          ),
        );
    } else if (limits[name] === undefined && !overcommitAllowed(name)) {
      causes.push(requiredValue(`${path}.limits`, 'Limit must be set for non overcommitable resources'));
    }
  }
  return causes;
}
