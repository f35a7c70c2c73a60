/**
 * `scoby render`'s core: one instance reconcile without a cluster (docs/spec/children-and-status.md §1 steps
 * 5–11). The instance's plan (instance/plan/) is the controller's own; this is its other shell: the
 * registration, CRD and instance read from files and admitted as the API server and the registration
 * controller would, the hook called with `--hooks`, and the children's write simulated (created, or
 * as the live ones of `--observed` are). So the output is what the controller would write for the
 * instance as the API server stores it: its children, and the status of its write after them.
 */
import type { RenderLookups } from '@scoby/env';
import type { FormFactorRegistry } from '@scoby/formfactor';
import type { KubeObject } from '@scoby/kube-objects';
import { validateRegistration, type CRDRegistration } from '@scoby/registration';
import { instanceConditionSet } from '../../instance/condition-set.ts';
import { planAfterHook, type AfterHook } from '../../instance/plan/after-hook.ts';
import { planBeforeHook, type PreparedPlan } from '../../instance/plan/before-hook.ts';
import type { PhaseAnswer, PlannedHookRequest } from '../../instance/hook-request.ts';
import type { InstanceTarget } from '../../instance/plan/instance-target.ts';
import type { Stop } from '../../instance/plan/stop.ts';
import type { Warning } from '../../instance/plan/warnings.ts';
import type { Status } from '../../instance/status/instance-status.ts';
import { admitInstance, instanceNamespace } from './instance-admission.ts';
import { callHook, type HookAccess } from './offline-hook.ts';
import { observedChildren } from './observed-children.ts';
import type { RenderFailure } from './render-failure.ts';
import { renderTargetCrd } from './render-target.ts';
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
  | {
      ok: false;
      failure: RenderFailure;
      /** The warnings met before a failure the controller records, whose Events it sends first. */
      warnings?: Warning[];
    };

export type OfflineInput = Omit<OfflineRenderInput, 'hooks'>;

/** The instance's plan up to the pre-reconcile call, and the warnings met on the way. */
export interface PreparedRender {
  plan: PreparedPlan;
  /** The hook's calls while reconciling (before-hook.ts): none without a hook that has such a phase. */
  hookRequests: PlannedHookRequest[];
  warnings: Warning[];
}

/** The registration as the registration controller would resolve it, for the instance as stored. */
function admitRender(
  input: OfflineInput,
):
  | { ok: true; target: InstanceTarget; instance: KubeObject; warnings: Warning[] }
  | { ok: false; failure: RenderFailure } {
  const validation = validateRegistration(input.registration, input.formFactors);
  if (!validation.ok)
    return { ok: false, failure: { reason: validation.reason, message: validation.message } };
  const { spec } = validation;
  const resolved = input.formFactors.resolve(
    (input.registration as CRDRegistration).spec.workload.formFactor,
  );
  if (!resolved.ok) throw new Error('a validated registration must resolve its form factor');
  const targetCrd = renderTargetCrd(spec.crd, input.instance, input.crd);
  if (!targetCrd.ok) return targetCrd;
  const namespace = instanceNamespace(input.instance, input.namespace);
  const admission = admitInstance(input.instance, namespace, input.crd);
  if (!admission.ok) return admission;
  const { instance } = admission;
  const registrationName = input.registration.metadata.name ?? '';
  const selection = renderSelection(spec, registrationName, instance, input.namespaces ?? []);
  if (!selection.ok) return selection;
  const target: InstanceTarget = {
    registrationName,
    spec,
    plugin: resolved.formFactor.plugin,
    ...targetCrd.target,
    ...instanceConditionSet(resolved.formFactor.conditionTypes, spec),
    clusterDomain: input.clusterDomain,
  };
  return { ok: true, target, instance, warnings: selection.warnings };
}

/** A stop of the plan, as render reports it: the failure, the status the controller writes for it, the warnings before. */
function stopFailure(stop: Stop, now: string, warnings: Warning[]): OfflineRender & { ok: false } {
  return { ok: false, failure: { ...stop.failure, status: stop.statusAt(now) }, warnings };
}

export async function prepareRender(
  input: OfflineInput,
): Promise<{ ok: true; prepared: PreparedRender } | (OfflineRender & { ok: false })> {
  const admitted = admitRender(input);
  if (!admitted.ok) return admitted;
  const before = await planBeforeHook(admitted.target, admitted.instance, input.now, input.lookups);
  const warnings = [...admitted.warnings, ...before.warnings.warnings];
  if (before.kind === 'stop') return stopFailure(before.stop, input.now, warnings);
  return {
    ok: true,
    prepared: {
      plan: before.prepared,
      hookRequests: before.hookRequests,
      warnings,
    },
  };
}

/** The rest of the reconcile (§1 steps 9–11) after the plan's second stage. */
export function completeRender(
  prepared: PreparedRender,
  after: AfterHook,
  input: Pick<OfflineInput, 'observed' | 'now'>,
): OfflineRender {
  const warnings = [...prepared.warnings, ...after.warnings.warnings];
  if (after.kind === 'stop') return stopFailure(after.stop, input.now, warnings);
  const { desired } = after;
  const { children, identity } = desired;
  const observed = observedChildren(children, input.observed ?? [], identity);
  if (!observed.ok) return stopFailure(desired.applyFailed(observed.errors), input.now, warnings);
  const status = desired.statusFor(observed.observed, input.now);
  const written = writtenChildren(children, identity.uid);
  warnings.push(...written.warnings);
  const { instance } = prepared.plan;
  return {
    ok: true,
    output: { children: written.children, status, warnings },
    instance: status === null ? instance : { ...instance, status },
  };
}

export async function renderOffline(input: OfflineRenderInput): Promise<OfflineRender> {
  const preparation = await prepareRender(input);
  if (!preparation.ok) return preparation;
  const { prepared } = preparation;
  let answers: PhaseAnswer[] = [];
  if (input.hooks) {
    const called = await callHook(input.hooks, prepared.plan.target, prepared.hookRequests);
    if (!called.ok) return called;
    answers = called.answers;
  }
  return completeRender(prepared, planAfterHook(prepared.plan, answers), input);
}
