/**
 * `scoby render`'s core: one instance reconcile without a cluster (children-and-status.md §1 steps
 * 5–11), built from the controller's own functions, so the output is what the controller would write
 * for an instance whose children have not been observed yet.
 */
import type { RenderLookups } from '@scoby/env';
import type { FormFactorRegistry } from '@scoby/formfactor';
import type { KubeObject } from '@scoby/kube-objects';
import { validateRegistration, type CRDRegistration } from '@scoby/registration';
import { statusPathAllowed } from '../../crd/status-paths.ts';
import { instanceConditionSet } from '../../instance/condition-set.ts';
import { desiredStatus } from '../../instance/desired-status.ts';
import { finalChildren, instanceIdentity } from '../../instance/final-children.ts';
import { renderInstance } from '../../instance/render-instance.ts';
import { startWorkingStatus, type Status } from '../../status/instance-status.ts';
import { callPreReconcile, type HookAccess, type Warning } from './offline-hook.ts';
import type { RenderFailure } from './render-failure.ts';
import { renderTargetCrd } from './render-target.ts';

export interface RenderOutput {
  children: Record<string, KubeObject>;
  /** The status the controller would write; null when the CRD has no status subresource. */
  status: Status | null;
  warnings: Warning[];
}

export interface OfflineRenderInput {
  registration: KubeObject;
  instance: KubeObject;
  crd?: KubeObject;
  formFactors: FormFactorRegistry;
  lookups: RenderLookups;
  clusterDomain: string;
  /** RFC 3339 time for lastTransitionTime. */
  now: string;
  /** Call the pre-reconcile hook; absent: render without it. */
  hooks?: HookAccess;
}

export type OfflineRender = { ok: true; output: RenderOutput } | { ok: false; failure: RenderFailure };

export async function renderOffline(input: OfflineRenderInput): Promise<OfflineRender> {
  const validation = validateRegistration(input.registration, input.formFactors);
  if (!validation.ok)
    return { ok: false, failure: { reason: validation.reason, message: validation.message } };
  const { spec } = validation;
  const resolved = input.formFactors.resolve(
    (input.registration as CRDRegistration).spec.workload.formFactor,
  );
  if (!resolved.ok) throw new Error('a validated registration must resolve its form factor');
  const { plugin } = resolved.formFactor;
  const targetCrd = renderTargetCrd(spec.crd, input.instance, input.crd);
  if (!targetCrd.ok) return targetCrd;
  const { instanceApiVersion, features } = targetCrd.target;
  const conditionSet = instanceConditionSet(resolved.formFactor.conditionTypes, spec);
  const registrationName = input.registration.metadata.name ?? '';

  let working = startWorkingStatus(undefined, conditionSet.conditionTypes, input.now);
  const rendered = await renderInstance(
    input.instance,
    working,
    {
      registrationName,
      spec,
      plugin,
      instanceApiVersion,
      statusPathAllowed: (segments) => statusPathAllowed(features.schema, segments),
    },
    input.lookups,
  );
  const warnings: Warning[] = rendered.warnings.map((message) => ({ reason: 'EnvNameCollision', message }));
  if (!rendered.ok)
    return { ok: false, failure: { reason: 'RenderFailed', message: rendered.errors.join('; ') } };
  working = rendered.status;
  let desired = rendered.children;

  if (input.hooks && spec.hook?.capabilities.includes('pre-reconcile')) {
    const outcome = await callPreReconcile(input.hooks, spec.hook, {
      plugin,
      instance: input.instance,
      working,
      children: desired,
      conditionSet,
      now: input.now,
    });
    if (!outcome.ok) return outcome;
    warnings.push(...outcome.warnings);
    working = outcome.status;
    desired = outcome.children;
  }

  const children = finalChildren(
    desired,
    registrationName,
    instanceIdentity(input.instance, instanceApiVersion),
  );
  const verdict = plugin.status({
    block: spec.formFactor.config,
    children,
    observed: {},
    clusterDomain: input.clusterDomain,
  });
  const status = features.subresource
    ? desiredStatus(working, {
        formFactor: verdict,
        generation: input.instance.metadata.generation,
        features,
        stored: undefined,
        now: input.now,
      })
    : null;
  return { ok: true, output: { children, status, warnings } };
}
