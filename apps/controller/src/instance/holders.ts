/**
 * The registrations whose children an instance has (docs/spec/registration.md §6.8): the value of the
 * `app.kubernetes.io/name` label (L(registration name), children-and-status.md §4.2) of the cached
 * children the instance controls.
 */
import { INSTANCE_LABEL, labelValue, NAME_LABEL } from '@scoby/formfactor';
import type { KubeObject } from '@scoby/kube-objects';
import type { ChildStore } from './children/write-children.ts';

export function instanceHolders(instance: KubeObject, children: Pick<ChildStore, 'list'>): string[] {
  const uid = instance.metadata.uid;
  const held = children
    .list(instance.metadata.namespace ?? '', { [INSTANCE_LABEL]: labelValue(instance.metadata.name ?? '') })
    .filter((child) =>
      (child.metadata.ownerReferences ?? []).some((owner) => owner.controller === true && owner.uid === uid),
    )
    .map((child) => child.metadata.labels?.[NAME_LABEL])
    .filter((name): name is string => name !== undefined);
  return [...new Set(held)];
}
