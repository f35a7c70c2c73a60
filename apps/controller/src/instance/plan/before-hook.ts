/**
 * The first stage of an instance's plan (docs/spec/children-and-status.md §1 steps 5–7, and what step 8
 * sends): the working status, the rendered children with statusConfiguration.add applied, and the
 * requests of the hook phases called while reconciling (pre-reconcile), or the stop when rendering
 * failed. Pure given the lookups (the controller's
 * informer caches, or the objects `scoby render` was given).
 */
import type { RenderLookups } from '@scoby/env';
import type { InstanceIdentity } from '@scoby/formfactor';
import type { HookPhase } from '@scoby/hooks-v1/client';
import type { KubeObject } from '@scoby/kube-objects';
import { instanceIdentity } from '../children/final-children.ts';
import { hookObject, withScobyFinalizer, type PlannedHookRequest } from '../hook-request.ts';
import { startWorkingStatus, type Status } from '../status/instance-status.ts';
import { declaredPhases } from '../declared-phases.ts';
import { wantsFinalizer, type InstanceTarget } from './instance-target.ts';
import { renderInstance } from './render-instance.ts';
import { stopWith, type Stop } from './stop.ts';
import { judgedWarnings, type StageWarnings } from './warnings.ts';

/** Everything of one instance's plan up to the pre-reconcile call. */
export interface PreparedPlan {
  target: InstanceTarget;
  /** The instance as stored once step 4 (the finalizer) is done. */
  instance: KubeObject;
  identity: InstanceIdentity;
  /** RFC 3339: the reconcile's time, for the conditions it initialises and the hook's. */
  now: string;
  /** Conditions initialised, statusConfiguration.add applied: what a pre-reconcile hook receives. */
  working: Status;
  /** The children the form factor built. */
  children: Record<string, KubeObject>;
}

export type BeforeHook =
  | { kind: 'stop'; stop: Stop; warnings: StageWarnings }
  | {
      kind: 'prepared';
      prepared: PreparedPlan;
      warnings: StageWarnings;
      /**
       * One per phase the hook declares that is called while reconciling, in the phase table's order
       * (hooks-v1's phases.ts); each is sent as it is, and the answers go to planAfterHook.
       */
      hookRequests: PlannedHookRequest[];
    };

export async function planBeforeHook(
  target: InstanceTarget,
  instance: KubeObject,
  now: string,
  lookups: RenderLookups,
): Promise<BeforeHook> {
  const identity = instanceIdentity(instance, target.instanceApiVersion);
  const started = startWorkingStatus(instance.status, target.conditionTypes, now);
  const rendered = await renderInstance(instance, identity, started, target, lookups);
  const warnings = judgedWarnings('EnvNameCollision', rendered.warnings);
  if (!rendered.ok) {
    const failure = { reason: 'RenderFailed' as const, message: rendered.errors.join('; ') };
    // Rendering the same spec with the same registration fails the same way: retrying is load.
    const next = rendered.needsSpecChange ? { kind: 'park' as const } : { kind: 'retry' as const };
    return { kind: 'stop', stop: stopWith(instance, started, target.features, failure, next), warnings };
  }
  const prepared: PreparedPlan = {
    target,
    instance,
    identity,
    now,
    working: rendered.status,
    children: rendered.children,
  };
  // The hook sees the instance as step 4 left it: `scoby render` is given it as stored before.
  const seen = withScobyFinalizer(instance, wantsFinalizer(target));
  const hookRequests = declaredPhases(target.spec.hook)
    .filter(({ calledAt }) => calledAt === 'reconcile')
    .map(({ phase }) => ({
      phase: phase as HookPhase,
      object: hookObject(seen, prepared.working),
      children: prepared.children,
    }));
  return { kind: 'prepared', prepared, warnings, hookRequests };
}
