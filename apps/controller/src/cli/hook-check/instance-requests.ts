/**
 * The requests of one instance as the controller builds them (docs/spec/hooks-v1.md §3, §7), one per
 * phase the registration declares: a reconcile phase's call of its first reconcile, and a deletion
 * phase's call for it as stored afterwards.
 */
import type { HookPhase, HookPhaseDescriptor } from '@scoby/hooks-v1/client';
import type { KubeObject } from '@scoby/kube-objects';
import {
  hookCall,
  type HookDestination,
  hookObject,
  withScobyFinalizer,
} from '../../instance/hook-request.ts';
import { desiredState } from '../../instance/plan/desired-state.ts';
import { NO_WARNINGS } from '../../instance/plan/warnings.ts';
import { completeRender, type PreparedRender } from '../render/offline-render.ts';
import type { Effect } from './judge-answer.ts';
import type { InstanceUnderCheck } from './run-checks.ts';

export interface RequestTime {
  /** RFC 3339: lastTransitionTime and the finalize request's deletionTimestamp. */
  now: string;
}

export function instanceUnderCheck(
  name: string,
  prepared: PreparedRender,
  destination: HookDestination,
  declared: readonly HookPhaseDescriptor[],
  time: RequestTime,
): InstanceUnderCheck {
  const { plan } = prepared;
  const state = { working: plan.working, children: plan.children, conditionSet: plan.target, now: time.now };
  const calls: InstanceUnderCheck['calls'] = {};
  for (const { phase, calledAt, answersWithChanges } of declared) {
    if (calledAt === 'reconcile') {
      const request = prepared.hookRequests.find((each) => each.phase === phase);
      if (request === undefined) continue;
      const children = answersWithChanges ? request.children : undefined;
      const call = hookCall(destination, phase as HookPhase, request.object, children);
      calls[phase] = () => ({ call, state });
    } else {
      calls[phase] = (effect) => ({
        call: hookCall(
          destination,
          phase as HookPhase,
          hookObject(deleted(stored(prepared, effect, time), time.now)),
        ),
      });
    }
  }
  return { name, calls };
}

/** The instance as stored after its first reconcile: with the status the pre-reconcile answer led to. */
function stored(prepared: PreparedRender, effect: Effect | undefined, time: RequestTime): KubeObject {
  const { plan } = prepared;
  const taken = effect?.proceed === true;
  const desired = desiredState({
    instance: plan.instance,
    identity: plan.identity,
    target: plan.target,
    working: (taken && effect.status) || plan.working,
    children: (taken && effect.children) || plan.children,
  });
  const completed = completeRender(prepared, { kind: 'desired', desired, warnings: NO_WARNINGS }, time);
  // The controller adds its finalizer before the first pre-reconcile call (§7).
  return withScobyFinalizer(completed.ok ? completed.instance : plan.instance, true);
}

/** As a deleted instance reads while Scoby's finalizer holds it. */
function deleted(instance: KubeObject, now: string): KubeObject {
  return { ...instance, metadata: { ...instance.metadata, deletionTimestamp: now } };
}
