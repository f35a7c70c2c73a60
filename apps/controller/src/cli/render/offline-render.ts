/**
 * `scoby render`'s core: one instance reconcile without a cluster (docs/spec/children-and-status.md §1 steps
 * 5–11), built from the controller's own functions (desiredState computes children and status for
 * both), so the output is what the controller would write for the instance as the API server stores
 * it: its children, and the status of its write after creating them (or, with live children given,
 * after applying them).
 */
import type { RenderLookups } from '@scoby/env';
import type { FormFactorRegistry } from '@scoby/formfactor';
import type { KubeObject } from '@scoby/kube-objects';
import { validateRegistration, type CRDRegistration } from '@scoby/registration';
import { statusPathAllowed } from '../../crd/status-paths.ts';
import { instanceConditionSet } from '../../instance/condition-set.ts';
import { desiredState } from '../../instance/desired-state.ts';
import { renderInstance } from '../../instance/render-instance.ts';
import { startWorkingStatus, type Status } from '../../instance/status/instance-status.ts';
import { admitInstance, instanceNamespace } from './instance-admission.ts';
import { callPreReconcile, type HookAccess, type Warning } from './offline-hook.ts';
import { observedChildren } from './observed-children.ts';
import type { RenderFailure } from './render-failure.ts';
import { renderTargetCrd } from './render-target.ts';
import { writtenChildren } from './written-children.ts';

export interface RenderOutput {
  /** As the controller writes them (see written-children.ts). */
  children: Record<string, KubeObject>;
  /** The status the controller would write; null when the CRD has no status subresource. */
  status: Status | null;
  warnings: Warning[];
}

export interface OfflineRenderInput {
  registration: KubeObject;
  instance: KubeObject;
  /** Where an instance without metadata.namespace is created; default: its own namespace, else `default`. */
  namespace?: string;
  crd?: KubeObject;
  /** Live children (e.g. from kubectl get): the status is computed for them; absent ones are created. */
  observed?: readonly KubeObject[];
  formFactors: FormFactorRegistry;
  lookups: RenderLookups;
  clusterDomain: string;
  /** RFC 3339 time for lastTransitionTime. */
  now: string;
  /** Call the pre-reconcile hook; absent: render without it. */
  hooks?: HookAccess;
}

export type OfflineRender =
  | {
      ok: true;
      output: RenderOutput;
      /** The instance as stored (namespace, generation, the CRD's pruning and defaults) with `output.status`. */
      instance: KubeObject;
    }
  | { ok: false; failure: RenderFailure };

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
  const namespace = instanceNamespace(input.instance, input.namespace);
  const admission = admitInstance(input.instance, namespace, input.crd);
  if (!admission.ok) return admission;
  const { instance } = admission;
  const conditionSet = instanceConditionSet(resolved.formFactor.conditionTypes, spec);
  const registrationName = input.registration.metadata.name ?? '';

  let working = startWorkingStatus(instance.status, conditionSet.conditionTypes, input.now);
  const rendered = await renderInstance(
    instance,
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
  let hookFailureIgnored: string | undefined;

  if (input.hooks && spec.hook?.capabilities.includes('pre-reconcile')) {
    const outcome = await callPreReconcile(input.hooks, spec.hook, {
      plugin,
      instance,
      working,
      children: desired,
      conditionSet,
      now: input.now,
    });
    if (!outcome.ok) return outcome;
    warnings.push(...outcome.warnings);
    working = outcome.status;
    desired = outcome.children;
    hookFailureIgnored = outcome.hookFailureIgnored;
  }

  const state = desiredState({
    instance,
    target: {
      registrationName,
      plugin,
      formFactorBlock: spec.formFactor.config,
      instanceApiVersion,
      conditionTypes: conditionSet.conditionTypes,
      features,
      clusterDomain: input.clusterDomain,
    },
    working,
    children: desired,
    ...(hookFailureIgnored === undefined ? {} : { hookFailureIgnored }),
  });
  const { children, identity } = state;
  const observed = observedChildren(children, input.observed ?? [], identity);
  if (!observed.ok) return observed;
  const status = state.statusFor(observed.observed, input.now);
  const written = writtenChildren(children, identity.uid);
  warnings.push(...written.warnings);
  return {
    ok: true,
    output: { children: written.children, status, warnings },
    instance: status === null ? instance : { ...instance, status },
  };
}
