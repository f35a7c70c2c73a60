/**
 * One instance reconcile's own: its key, the configuration it started with (a reconfiguration while
 * it runs is the next reconcile's), its cancellation (no write is sent once the signal fired) and
 * the way it waits on a hook without holding a process-wide slot (docs/spec/children-and-status.md §9.1).
 */
import { formatObjectKey, type ObjectKey, type ReconcileContext } from '@scoby/controller-runtime';
import type { InstanceConfig } from './instance-config.ts';
import type { InstanceTarget } from './plan/instance-target.ts';

/** What a reconcile takes of the runtime's context. */
export type InstanceReconcileContext = Pick<ReconcileContext, 'signal' | 'withoutSharedSlot'>;

export interface Run {
  key: ObjectKey;
  /** The key of the reconciler's memory of the instance. */
  slot: string;
  /** `namespace/name`, as log lines name the instance. */
  name: string;
  config: InstanceConfig;
  target: InstanceTarget;
  signal: AbortSignal;
  waitOutside: ReconcileContext['withoutSharedSlot'];
}

export function startRun(
  key: ObjectKey,
  context: InstanceReconcileContext,
  config: InstanceConfig,
  target: InstanceTarget,
): Run {
  return {
    key,
    slot: formatObjectKey(key),
    name: `${key.namespace}/${key.name}`,
    config,
    target,
    signal: context.signal,
    waitOutside: (wait) => context.withoutSharedSlot(wait),
  };
}
