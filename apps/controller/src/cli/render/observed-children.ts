/**
 * The children the controller's status write looks at (docs/spec/children-and-status.md §1 step 10): each child
 * as it came back from its write. A child it has not observed before comes back as it was created,
 * with no status yet; a live child given with --observed comes back as it is on the cluster (an
 * apply leaves its status alone). A live child the instance does not control fails the write, as
 * on the cluster.
 */
import type { KubeObject } from '@scoby/kube-objects';
import { isControlledBy } from '../../instance/children/update-detection.ts';
import { notControlledMessage, type ChildOwner } from '../../instance/children/write-children.ts';

function sameObject(a: KubeObject, b: KubeObject): boolean {
  return (
    a.apiVersion === b.apiVersion &&
    a.kind === b.kind &&
    (a.metadata.namespace ?? '') === (b.metadata.namespace ?? '') &&
    a.metadata.name === b.metadata.name
  );
}

function asCreated(child: KubeObject): KubeObject {
  const { status: _status, ...created } = child;
  return created;
}

/** `owner.uid` is empty when the instance file has none: ownership cannot be checked. */
export function observedChildren(
  children: Readonly<Record<string, KubeObject>>,
  live: readonly KubeObject[],
  owner: ChildOwner,
): { ok: true; observed: Record<string, KubeObject> } | { ok: false; errors: string[] } {
  const observed: Record<string, KubeObject> = {};
  const errors: string[] = [];
  for (const [key, child] of Object.entries(children)) {
    const found = live.find((candidate) => sameObject(candidate, child));
    if (found === undefined) observed[key] = asCreated(child);
    else if (owner.uid !== '' && !isControlledBy(found, owner.uid))
      errors.push(notControlledMessage(child, owner));
    else observed[key] = found;
  }
  if (errors.length > 0) return { ok: false, errors };
  return { ok: true, observed };
}
