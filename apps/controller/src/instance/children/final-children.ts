/**
 * The final children map of a reconcile (docs/spec/children-and-status.md §4.4): every child normalised with
 * the instance's namespace, the standard labels and the controller owner reference.
 */
import { ownerReference, standardLabels, type InstanceIdentity } from '@scoby/formfactor';
import type { KubeObject } from '@scoby/kube-objects';
import { normalizeChild } from './normalize.ts';

/** `instanceApiVersion` is `<group>/<chosen version>` of the registered CRD (§4.3). */
export function instanceIdentity(instance: KubeObject, instanceApiVersion: string): InstanceIdentity {
  return {
    apiVersion: instanceApiVersion,
    kind: instance.kind,
    namespace: instance.metadata.namespace ?? '',
    name: instance.metadata.name ?? '',
    uid: instance.metadata.uid ?? '',
  };
}

export function finalChildren(
  desired: Readonly<Record<string, KubeObject>>,
  registrationName: string,
  identity: InstanceIdentity,
): Record<string, KubeObject> {
  const ownership = {
    namespace: identity.namespace,
    labels: standardLabels(registrationName, identity.name),
    ownerReference: ownerReference(identity),
  };
  return Object.fromEntries(
    Object.entries(desired).map(([key, child]) => [key, normalizeChild(child, ownership)]),
  );
}
