/**
 * The children as `scoby render` prints them: as the controller sends them, with its desired-hash
 * annotation, so that an applied rendering is already up to date for the controller (§5.2). An
 * instance file without metadata.uid (a manifest not read from the cluster) cannot name its owner:
 * the API server refuses an owner reference with an empty uid, so the children are printed without
 * the controller's owner reference and hash, with a warning.
 */
import type { KubeObject } from '@scoby/kube-objects';
import { withDesiredHash } from '../../instance/children/update-detection.ts';
import type { Warning } from '../../instance/plan/warnings.ts';

export const NO_INSTANCE_UID: Warning = {
  reason: 'NoInstanceUID',
  message:
    'the instance has no metadata.uid, so its children are printed without the owner reference and ' +
    'desired-hash annotation the controller writes; render the instance as stored (kubectl get -o yaml) to include them',
};

function withoutControllerReference(child: KubeObject): KubeObject {
  const others = (child.metadata.ownerReferences ?? []).filter((reference) => reference.controller !== true);
  const metadata = { ...child.metadata };
  if (others.length > 0) metadata.ownerReferences = others;
  else delete metadata.ownerReferences;
  return { ...child, metadata };
}

export function writtenChildren(
  children: Readonly<Record<string, KubeObject>>,
  instanceUid: string,
): { children: Record<string, KubeObject>; warnings: Warning[] } {
  const write = instanceUid === '' ? withoutControllerReference : withDesiredHash;
  const written = Object.fromEntries(Object.entries(children).map(([key, child]) => [key, write(child)]));
  return { children: written, warnings: instanceUid === '' ? [NO_INSTANCE_UID] : [] };
}
