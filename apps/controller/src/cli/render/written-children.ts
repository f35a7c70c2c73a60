/**
 * The children as `scoby render` prints them: as the controller sends them, with its desired-hash
 * annotation, so that an applied rendering is already up to date for the controller (§5.2). An
 * instance file without metadata.uid (a manifest not read from the cluster) cannot name its owner:
 * the API server refuses an owner reference with an empty uid, so the children are printed without
 * the controller's owner reference and hash. The warning comes only when that changed what is
 * printed: a rendering with no child that names the instance as its controller is complete as it is.
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
  if (instanceUid !== '')
    return {
      children: Object.fromEntries(
        Object.entries(children).map(([key, child]) => [key, withDesiredHash(child)]),
      ),
      warnings: [],
    };
  const written = Object.fromEntries(
    Object.entries(children).map(([key, child]) => [key, withoutControllerReference(child)]),
  );
  const uidMissed = Object.values(children).some((child) =>
    (child.metadata.ownerReferences ?? []).some((reference) => reference.controller === true),
  );
  return { children: written, warnings: uidMissed ? [NO_INSTANCE_UID] : [] };
}
