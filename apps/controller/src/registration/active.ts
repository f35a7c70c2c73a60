/**
 * Which registration owns a CRD (docs/spec/registration.md §6.4): the oldest by creationTimestamp, ties broken
 * by the smaller name in byte order. A registration being deleted stays active until it is gone.
 */
import { compareByteOrder } from '@scoby/kube-objects';

export interface RegistrationClaim {
  name: string;
  crd: string;
  creationTimestamp: string;
}

export function activeRegistration(
  claims: readonly RegistrationClaim[],
  crd: string,
): RegistrationClaim | undefined {
  return claims
    .filter((claim) => claim.crd === crd)
    .sort(
      (a, b) =>
        Date.parse(a.creationTimestamp) - Date.parse(b.creationTimestamp) || compareByteOrder(a.name, b.name),
    )[0];
}
