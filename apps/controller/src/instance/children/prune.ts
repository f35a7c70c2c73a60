/**
 * Which existing objects an instance no longer wants (docs/spec/children-and-status.md §6).
 */
import { splitApiVersion, type KubeObject } from '@scoby/kube-objects';
import { isControlledBy } from './update-detection.ts';

function identity(object: KubeObject): string {
  return `${splitApiVersion(object.apiVersion).group}/${object.kind}/${object.metadata.name ?? ''}`;
}

/**
 * `candidates` are objects of managed kinds already selected by namespace and the managed-by and
 * instance labels; this keeps those controlled by the instance that the final children map lacks.
 */
export function selectPrunable(
  candidates: readonly KubeObject[],
  children: Readonly<Record<string, KubeObject>>,
  instanceUid: string,
): KubeObject[] {
  const wanted = new Set(Object.values(children).map(identity));
  return candidates.filter((object) => isControlledBy(object, instanceUid) && !wanted.has(identity(object)));
}
