/**
 * Which version and status features `scoby render` renders for: those of the CRD given with --crd
 * (docs/spec/children-and-status.md §7), or, without one, the instance's own apiVersion with every status
 * feature on.
 */
import { crdClusterScopedMessage } from '@scoby/registration';
import { splitApiVersion, type KubeObject } from '@scoby/kube-objects';
import { inspectCrd, statusFeatures } from '../../crd/inspect.ts';
import type { InstanceTarget } from '../../instance/plan/instance-target.ts';
import type { RenderFailure } from './render-failure.ts';

/** The CRD's part of the instance's target: the version the children's owner references name, and its status features. */
export type RenderTargetCrd = Pick<InstanceTarget, 'instanceApiVersion' | 'features'>;

const EVERY_FEATURE = statusFeatures({
  name: 'any',
  served: true,
  subresources: { status: {} },
  schema: {
    openAPIV3Schema: {
      type: 'object',
      properties: { status: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true } },
    },
  },
});

export function renderTargetCrd(
  crdName: string,
  instance: KubeObject,
  crd: KubeObject | undefined,
): { ok: true; target: RenderTargetCrd } | { ok: false; failure: RenderFailure } {
  const fail = (message: string) => ({ ok: false as const, failure: { reason: 'InvalidInput', message } });
  const { group } = splitApiVersion(instance.apiVersion);
  if (crd === undefined) {
    if (!crdName.endsWith(`.${group}`)) {
      return fail(
        `instance ${instance.apiVersion} ${instance.kind} is not of the registration's CRD "${crdName}"`,
      );
    }
    return { ok: true, target: { instanceApiVersion: instance.apiVersion, features: EVERY_FEATURE } };
  }
  if (crd.kind !== 'CustomResourceDefinition')
    return fail(`--crd: expected a CustomResourceDefinition, got ${crd.kind}`);
  const info = inspectCrd(crd);
  if (info.name !== crdName)
    return fail(`--crd: CRD "${info.name}" is not the registration's CRD "${crdName}"`);
  if (info.version === undefined)
    return { ok: false, failure: { reason: 'CRDERROR', message: `CRD "${info.name}" serves no version` } };
  if (!info.namespaced)
    return {
      ok: false,
      failure: { reason: 'UnsupportedCRDScope', message: crdClusterScopedMessage(info.name) },
    };
  if (info.group !== group || info.kind !== instance.kind) {
    return fail(
      `instance ${instance.apiVersion} ${instance.kind} is not of the registration's CRD "${crdName}"`,
    );
  }
  return { ok: true, target: { instanceApiVersion: `${info.group}/${info.version}`, features: info.status } };
}
