/**
 * Which registration serves an instance (docs/spec/registration.md §6.4, §6.8). The registrations of
 * a CRD are ordered oldest first (creationTimestamp, ties by the smaller name in byte order); each
 * instance is served by the first whose selection matches it. A registration behind an older one
 * that selects every instance can never get one: it is not a candidate (`CRDAlreadyRegistered`).
 * Without selectors that is §6.4: the oldest is the only candidate. Pure.
 */
import { compareByteOrder } from '@scoby/kube-objects';
import {
  matchesLabelSelector,
  selectsSome,
  type CRDRegistration,
  type LabelSelector,
} from '@scoby/registration';

export interface RegistrationClaim {
  name: string;
  crd: string;
  creationTimestamp: string;
  selector?: LabelSelector;
  namespaceSelector?: LabelSelector;
}

/** The claims of the registrations, with their selectors as written. */
export function claimsOf(registrations: readonly CRDRegistration[]): RegistrationClaim[] {
  return registrations.map((registration) => {
    const spec = (registration.spec ?? {}) as {
      crd?: unknown;
      selector?: unknown;
      namespaceSelector?: unknown;
    };
    return {
      name: registration.metadata.name ?? '',
      crd: typeof spec.crd === 'string' ? spec.crd : '',
      creationTimestamp: registration.metadata.creationTimestamp ?? '',
      ...(isObject(spec.selector) ? { selector: spec.selector as LabelSelector } : {}),
      ...(isObject(spec.namespaceSelector)
        ? { namespaceSelector: spec.namespaceSelector as LabelSelector }
        : {}),
    };
  });
}

function isObject(value: unknown): boolean {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Whether the claim selects every instance (no selector restricts anything). */
export function selectsEverything(claim: RegistrationClaim): boolean {
  return !selectsSome(claim.selector) && !selectsSome(claim.namespaceSelector);
}

/**
 * The registrations of `crd` that can get an instance, in serving order: oldest first, up to and
 * including the first that selects every instance.
 */
export function candidates(claims: readonly RegistrationClaim[], crd: string): RegistrationClaim[] {
  const ordered = claims
    .filter((claim) => claim.crd === crd)
    .sort(
      (a, b) =>
        Date.parse(a.creationTimestamp) - Date.parse(b.creationTimestamp) || compareByteOrder(a.name, b.name),
    );
  const catchAll = ordered.findIndex(selectsEverything);
  return catchAll < 0 ? ordered : ordered.slice(0, catchAll + 1);
}

/**
 * Why `name` can get no instance of `crd`: the older registration that selects every instance (the
 * `CRDAlreadyRegistered` of §6.4), or undefined when `name` is a candidate.
 */
export function blockedBy(
  claims: readonly RegistrationClaim[],
  crd: string,
  name: string,
): string | undefined {
  const serving = candidates(claims, crd);
  if (serving.some((claim) => claim.name === name)) return undefined;
  return serving.at(-1)?.name;
}

/** The labels an instance is judged by; `namespace` undefined while Namespaces are not known. */
export interface InstanceLabels {
  instance: Readonly<Record<string, string>> | undefined;
  namespace: Readonly<Record<string, string>> | undefined;
}

/** Whether the claim's selection matches the instance. */
export function selects(claim: RegistrationClaim, labels: InstanceLabels): boolean {
  return (
    matchesLabelSelector(claim.selector, labels.instance) &&
    matchesLabelSelector(claim.namespaceSelector, labels.namespace)
  );
}

/** The registration serving the instance among the candidates (in order), or undefined when none selects it. */
export function servingRegistration(
  serving: readonly RegistrationClaim[],
  labels: InstanceLabels,
): string | undefined {
  return serving.find((claim) => selects(claim, labels))?.name;
}
