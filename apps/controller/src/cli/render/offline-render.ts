/**
 * `scoby render`'s core: one instance reconcile without a cluster (docs/spec/children-and-status.md §1 steps
 * 5–11), built from the controller's own functions (desiredState computes children and status for
 * both), so the output is what the controller would write for the instance as the API server stores
 * it: its children, and the status of its write after creating them (or, with live children given,
 * after applying them).
 */
import type { RenderLookups } from '@scoby/env';
import type { FormFactorPlugin, FormFactorRegistry } from '@scoby/formfactor';
import type { KubeObject } from '@scoby/kube-objects';
import {
  validateRegistration,
  type CRDRegistration,
  type NormalizedRegistrationSpec,
} from '@scoby/registration';
import { statusPathAllowed } from '../../crd/status-paths.ts';
import { instanceConditionSet } from '../../instance/condition-set.ts';
import { desiredState } from '../../instance/desired-state.ts';
import type { ConditionSet } from '../../instance/hook-request.ts';
import { renderInstance } from '../../instance/render-instance.ts';
import { startWorkingStatus, type Status } from '../../instance/status/instance-status.ts';
import { admitInstance, instanceNamespace } from './instance-admission.ts';
import { callPreReconcile, type HookAccess, type Warning } from './offline-hook.ts';
import { observedChildren } from './observed-children.ts';
import type { RenderFailure } from './render-failure.ts';
import { renderTargetCrd, type RenderTargetCrd } from './render-target.ts';
import { renderSelection } from './render-selection.ts';
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
  /** Namespace objects given (`--objects`): a namespaceSelector is judged on their labels. */
  namespaces?: readonly KubeObject[];
}

export type OfflineRender =
  | {
      ok: true;
      output: RenderOutput;
      /** The instance as stored (namespace, generation, the CRD's pruning and defaults) with `output.status`. */
      instance: KubeObject;
    }
  | { ok: false; failure: RenderFailure };

/** Everything of one instance reconcile up to the pre-reconcile call (§1 steps 5–8). */
export interface PreparedReconcile {
  spec: NormalizedRegistrationSpec;
  plugin: FormFactorPlugin;
  registrationName: string;
  instanceApiVersion: string;
  features: RenderTargetCrd['features'];
  /** The instance as the API server stores it. */
  instance: KubeObject;
  conditionSet: ConditionSet;
  /** Conditions initialised, statusConfiguration.add applied: what a pre-reconcile hook receives. */
  working: Status;
  /** The children the form factor built. */
  children: Record<string, KubeObject>;
  warnings: Warning[];
}

export type OfflineInput = Omit<OfflineRenderInput, 'hooks'>;

export async function prepareReconcile(
  input: OfflineInput,
): Promise<{ ok: true; prepared: PreparedReconcile } | { ok: false; failure: RenderFailure }> {
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
  const selection = renderSelection(spec, registrationName, instance, input.namespaces ?? []);
  if (!selection.ok) return selection;

  const started = startWorkingStatus(instance.status, conditionSet.conditionTypes, input.now);
  const rendered = await renderInstance(
    instance,
    started,
    {
      registrationName,
      spec,
      plugin,
      instanceApiVersion,
      statusPathAllowed: (segments) => statusPathAllowed(features.schema, segments),
    },
    input.lookups,
  );
  const warnings: Warning[] = [
    ...selection.warnings,
    ...rendered.warnings.map((message) => ({ reason: 'EnvNameCollision', message })),
  ];
  if (!rendered.ok)
    return { ok: false, failure: { reason: 'RenderFailed', message: rendered.errors.join('; ') } };
  return {
    ok: true,
    prepared: {
      spec,
      plugin,
      registrationName,
      instanceApiVersion,
      features,
      instance,
      conditionSet,
      working: rendered.status,
      children: rendered.children,
      warnings,
    },
  };
}

/**
 * The rest of the reconcile (§1 steps 9–11) with the status and children the hook left (or the
 * prepared ones without a hook).
 */
/** The status, children and warnings the pre-reconcile hook left (or the prepared ones without one). */
export interface AfterHook {
  working: Status;
  children: Record<string, KubeObject>;
  warnings: Warning[];
  /** The message of a hook failure that failurePolicy Ignore let the reconcile go on without. */
  hookFailureIgnored?: string;
}

export function completeReconcile(
  prepared: PreparedReconcile,
  afterHook: AfterHook,
  input: Pick<OfflineInput, 'observed' | 'clusterDomain' | 'now'>,
): OfflineRender {
  const { instance } = prepared;
  const warnings = [...afterHook.warnings];
  const state = desiredState({
    instance,
    target: {
      registrationName: prepared.registrationName,
      plugin: prepared.plugin,
      formFactorBlock: prepared.spec.formFactor.config,
      instanceApiVersion: prepared.instanceApiVersion,
      conditionTypes: prepared.conditionSet.conditionTypes,
      features: prepared.features,
      clusterDomain: input.clusterDomain,
    },
    working: afterHook.working,
    children: afterHook.children,
    ...(afterHook.hookFailureIgnored === undefined
      ? {}
      : { hookFailureIgnored: afterHook.hookFailureIgnored }),
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

export async function renderOffline(input: OfflineRenderInput): Promise<OfflineRender> {
  const preparation = await prepareReconcile(input);
  if (!preparation.ok) return preparation;
  const { prepared } = preparation;
  let afterHook: AfterHook = {
    working: prepared.working,
    children: prepared.children,
    warnings: prepared.warnings,
  };
  const hook = prepared.spec.hook;
  if (input.hooks && hook?.capabilities.includes('pre-reconcile')) {
    const outcome = await callPreReconcile(input.hooks, hook, {
      plugin: prepared.plugin,
      instance: prepared.instance,
      working: prepared.working,
      children: prepared.children,
      conditionSet: prepared.conditionSet,
      now: input.now,
    });
    if (!outcome.ok) return outcome;
    afterHook = {
      working: outcome.status,
      children: outcome.children,
      warnings: [...prepared.warnings, ...outcome.warnings],
      ...(outcome.hookFailureIgnored === undefined ? {} : { hookFailureIgnored: outcome.hookFailureIgnored }),
    };
  }
  return completeReconcile(prepared, afterHook, input);
}
