/**
 * What Scoby sends to a hook and what it takes from a pre-reconcile answer (docs/spec/hooks-v1.md §3, §5),
 * shared by the controller's reconcile and `scoby render --hooks` so both call hooks alike.
 */
import type { FormFactorPlugin } from '@scoby/formfactor';
import type {
  HookCall,
  HookPhase,
  HookPhaseDescriptor,
  HookResult,
  HookSuccess,
} from '@scoby/hooks-v1/client';
import type { KubeObject } from '@scoby/kube-objects';
import { FINALIZER } from '@scoby/registration';
import { applyHookStatus, repeatedConditionsMessage, type Status } from './status/instance-status.ts';
import { tooDeepAnswerPart } from './hook-answer-depth.ts';
import type { HookEndpoint } from './instance-config.ts';

/** The instance as a hook sees it: without managedFields, with the given status. */
export function hookObject(instance: KubeObject, status?: Status): KubeObject {
  const { managedFields: _managedFields, ...metadata } = instance.metadata;
  return status === undefined ? { ...instance, metadata } : { ...instance, metadata, status };
}

/**
 * The instance with Scoby's finalizer present or not, other finalizers kept: as step 4 of the
 * reconcile leaves it (docs/spec/children-and-status.md §1), so as the pre-reconcile hook sees it.
 */
export function withScobyFinalizer(instance: KubeObject, present: boolean): KubeObject {
  const finalizers = instance.metadata.finalizers ?? [];
  if (finalizers.includes(FINALIZER) === present) return instance;
  const others = finalizers.filter((finalizer) => finalizer !== FINALIZER);
  const next = present ? [...others, FINALIZER] : others;
  const { finalizers: _finalizers, ...metadata } = instance.metadata;
  return { ...instance, metadata: next.length > 0 ? { ...metadata, finalizers: next } : metadata };
}

/** The request's `formFactor`: the plugin's hook name, else its name (docs/spec/hooks-v1.md §3). */
function hookFormFactor(plugin: FormFactorPlugin): string {
  return plugin.hookName ?? plugin.name;
}

/** Where one registration's hook calls go, and the form factor every request names (§3). */
export interface HookDestination {
  url: string;
  timeoutMs: number;
  formFactor: string;
  managedKinds: HookCall['managedKinds'];
}

export function hookDestination(plugin: FormFactorPlugin, endpoint: HookEndpoint): HookDestination {
  return {
    url: endpoint.url,
    timeoutMs: endpoint.timeoutMs,
    formFactor: hookFormFactor(plugin),
    managedKinds: plugin.managedKinds,
  };
}

export function hookCall(
  destination: HookDestination,
  phase: HookCall['phase'],
  object: KubeObject,
  children?: Record<string, KubeObject>,
): HookCall {
  return {
    url: destination.url,
    timeoutMs: destination.timeoutMs,
    phase,
    formFactor: destination.formFactor,
    object,
    ...(children ? { children } : {}),
    managedKinds: destination.managedKinds,
    instanceNamespace: object.metadata.namespace ?? '',
  };
}

/**
 * The requests of the deletion gates among `phases` (finalize, §7), in the phase table's order: the
 * instance as stored, without children.
 */
export function deletionGateCalls(
  destination: HookDestination,
  instance: KubeObject,
  phases: readonly HookPhaseDescriptor[],
): HookCall[] {
  return phases
    .filter(({ calledAt }) => calledAt === 'deletion')
    .map(({ phase }) => hookCall(destination, phase as HookCall['phase'], hookObject(instance)));
}

/**
 * The body of a request of a phase called while reconciling (docs/spec/hooks-v1.md §3, pre-reconcile),
 * as the plan builds it (plan/before-hook.ts); where it goes is the caller's.
 */
export interface PlannedHookRequest {
  phase: HookPhase;
  object: KubeObject;
  children: Record<string, KubeObject>;
}

/** The answer to one of them, as the plan's second stage takes it (plan/after-hook.ts). */
export interface PhaseAnswer {
  phase: HookPhase;
  result: HookResult;
}

/**
 * The plan's requests sent in turn through `send`, the controller's or `scoby render --hooks`'s way
 * of reaching the hook, and their answers in the same order: both call the hook alike. The plan
 * builds every request from the same working state before any is sent, so no phase sees another's
 * answer; a phase that must would change that here and in the plan's first stage.
 */
export async function askHook(
  destination: HookDestination,
  requests: readonly PlannedHookRequest[],
  send: (call: HookCall) => Promise<HookResult>,
): Promise<PhaseAnswer[]> {
  const answers: PhaseAnswer[] = [];
  for (const { phase, object, children } of requests) {
    answers.push({ phase, result: await send(hookCall(destination, phase, object, children)) });
  }
  return answers;
}

export interface ConditionSet {
  /** Condition types of the instance condition set, Ready included (docs/spec/children-and-status.md §8.1). */
  conditionTypes: string[];
  /** conditionsFromHook types in the set (only with a pre-reconcile hook). */
  hookConditionTypes: string[];
}

export interface AcceptedAnswer {
  ok: true;
  status: Status;
  children: Record<string, KubeObject>;
  /** The `HookObjectChangesIgnored` message, when the hook tried to change more than status. */
  ignoredChanges?: string;
  /** The `HookConditionRepeated` message, when the hook sent a conditionsFromHook type twice or more. */
  repeatedConditions?: string;
}

/** An answer Scoby cannot take: its message, as docs/spec/hooks-v1.md §6.4 words a malformed 2xx answer. */
export interface RejectedAnswer {
  ok: false;
  message: string;
}

/** A successful pre-reconcile answer applied to the working status and the children map (§5.2, §5.3). */
export function acceptHookAnswer(
  answer: HookSuccess,
  working: Status,
  children: Record<string, KubeObject>,
  conditions: ConditionSet,
  now: string,
): AcceptedAnswer | RejectedAnswer {
  const ignored = answer.objectChangesIgnored ?? [];
  const hookStatus = answer.object?.status;
  const tooDeep = tooDeepAnswerPart(hookStatus, answer.children);
  if (tooDeep !== undefined)
    return { ok: false, message: `pre-reconcile hook: invalid response: ${tooDeep}` };
  const applied = hookStatus
    ? applyHookStatus(working, hookStatus, conditions.hookConditionTypes, conditions.conditionTypes, now)
    : { status: working, repeatedTypes: [] };
  return {
    ok: true,
    status: applied.status,
    children: answer.children ?? children,
    ...(ignored.length > 0
      ? { ignoredChanges: `hook changes to ${ignored.join(', ')} are ignored; only status is applied` }
      : {}),
    ...(applied.repeatedTypes.length > 0
      ? { repeatedConditions: repeatedConditionsMessage(applied.repeatedTypes) }
      : {}),
  };
}
