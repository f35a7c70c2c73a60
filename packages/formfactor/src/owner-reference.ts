import type { OwnerReference } from '@scoby/kube-objects';
import type { InstanceIdentity } from './contract.ts';

/** The controller owner reference every child carries (docs/spec/children-and-status.md §4.3). */
export function ownerReference(instance: InstanceIdentity): OwnerReference {
  return {
    apiVersion: instance.apiVersion,
    kind: instance.kind,
    name: instance.name,
    uid: instance.uid,
    controller: true,
    blockOwnerDeletion: true,
  };
}
