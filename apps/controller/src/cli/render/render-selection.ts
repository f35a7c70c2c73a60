/**
 * Whether the registration selects the rendered instance (docs/spec/registration.md §6.8): the same
 * matching as the controller, on the instance's labels and, for a namespaceSelector, on the labels of
 * its Namespace when one is among `--objects`. Older registrations of the CRD are not known offline.
 */
import type { KubeObject } from '@scoby/kube-objects';
import { matchesLabelSelector, type NormalizedRegistrationSpec } from '@scoby/registration';
import type { Warning } from '../../instance/plan/warnings.ts';
import type { RenderFailure } from './render-failure.ts';

export const NOT_SELECTED = 'NotSelected';

export type RenderSelection = { ok: true; warnings: Warning[] } | { ok: false; failure: RenderFailure };

export function renderSelection(
  spec: Pick<NormalizedRegistrationSpec, 'selector' | 'namespaceSelector'>,
  registrationName: string,
  instance: KubeObject,
  namespaces: readonly KubeObject[],
): RenderSelection {
  const namespaceName = instance.metadata.namespace ?? '';
  const subject = `instance ${namespaceName}/${instance.metadata.name ?? ''} is not selected by CRDRegistration "${registrationName}"`;
  if (!matchesLabelSelector(spec.selector, instance.metadata.labels ?? {}))
    return {
      ok: false,
      failure: { reason: NOT_SELECTED, message: `${subject}: spec.selector does not match its labels` },
    };
  if (spec.namespaceSelector === undefined) return { ok: true, warnings: [] };
  const namespace = namespaces.find(
    (object) =>
      object.apiVersion === 'v1' && object.kind === 'Namespace' && object.metadata.name === namespaceName,
  );
  if (!namespace)
    return {
      ok: true,
      warnings: [
        {
          reason: 'NamespaceSelectorNotEvaluated',
          message: `spec.namespaceSelector: Namespace "${namespaceName}" is not among --objects, so its labels are not known`,
        },
      ],
    };
  if (!matchesLabelSelector(spec.namespaceSelector, namespace.metadata.labels ?? {}))
    return {
      ok: false,
      failure: {
        reason: NOT_SELECTED,
        message: `${subject}: spec.namespaceSelector does not match the labels of Namespace "${namespaceName}"`,
      },
    };
  return { ok: true, warnings: [] };
}
