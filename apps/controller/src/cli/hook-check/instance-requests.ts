/**
 * The requests of one instance as the controller builds them (docs/spec/hooks-v1.md §3, §7): the
 * pre-reconcile call of its first reconcile, and the finalize call for it as stored afterwards.
 */
import type { HookCall } from '@scoby/hooks-v1/client';
import type { KubeObject } from '@scoby/kube-objects';
import { hookCall, hookObject } from '../../instance/hook-request.ts';
import type { HookTarget } from '../../instance/instance-config.ts';
import { withFinalizer } from '../render/offline-hook.ts';
import { completeReconcile, type PreparedReconcile } from '../render/offline-render.ts';
import type { Effect } from './judge-answer.ts';
import type { InstanceUnderCheck } from './run-checks.ts';

export interface RequestTime {
  clusterDomain: string;
  /** RFC 3339: lastTransitionTime and the finalize request's deletionTimestamp. */
  now: string;
}

export function instanceUnderCheck(
  name: string,
  state: PreparedReconcile,
  target: HookTarget,
  time: RequestTime,
): InstanceUnderCheck {
  const { plugin } = state;
  // The controller adds its finalizer before the first pre-reconcile call (§7).
  const instance = target.finalize ? withFinalizer(state.instance) : state.instance;
  const preReconcile = {
    call: hookCall(plugin, target, 'pre-reconcile', hookObject(instance, state.working), state.children),
    state: {
      working: state.working,
      children: state.children,
      conditionSet: state.conditionSet,
      now: time.now,
    },
  };
  const finalize = (effect: Effect | undefined): HookCall =>
    hookCall(plugin, target, 'finalize', hookObject(deleted(stored(state, effect, time), time.now)));
  return {
    name,
    ...(target.preReconcile ? { preReconcile } : {}),
    ...(target.finalize ? { finalize } : {}),
  };
}

/** The instance as stored after its first reconcile: with the status the pre-reconcile answer led to. */
function stored(state: PreparedReconcile, effect: Effect | undefined, time: RequestTime): KubeObject {
  const taken = effect?.proceed === true;
  const completed = completeReconcile(
    state,
    {
      working: (taken && effect.status) || state.working,
      children: (taken && effect.children) || state.children,
      warnings: [],
    },
    time,
  );
  return withFinalizer(completed.ok ? completed.instance : state.instance);
}

/** As a deleted instance reads while Scoby's finalizer holds it. */
function deleted(instance: KubeObject, now: string): KubeObject {
  return { ...instance, metadata: { ...instance.metadata, deletionTimestamp: now } };
}
