/**
 * Letting an instance go without a successful finalize call: its finalizer removed and a
 * `FinalizerReleased` Event (docs/spec/hooks-v1.md §7 case 3, docs/spec/registration.md §6.6–§6.7).
 * One function for every path that does it: an instance reconcile whose hook no longer finalizes
 * (the instance live or deleted), and a registration deleted or moved to another CRD.
 */
import { hookPhases, type HookCall } from '@scoby/hooks-v1/client';
import type { KubeObject } from '@scoby/kube-objects';
import { FINALIZER } from '@scoby/registration';
import { deletionGateCalls, type HookDestination } from './hook-request.ts';
import type { EventSink } from './instance-events.ts';

/** How the caller reaches the hook and the API server. */
export interface FinalizerRelease {
  /** Where a deleted instance's best-effort calls (one finalize, §7) go; absent: no call. */
  destination: HookDestination | undefined;
  /** Sends the call; its outcome is ignored. */
  callHook(call: HookCall): Promise<unknown>;
  /** Removes Scoby's finalizer: the instance as the write left it, undefined when it is gone. */
  removeFinalizer(instance: KubeObject): Promise<KubeObject | undefined>;
  events: EventSink;
}

export async function releaseFinalizer(
  instance: KubeObject,
  release: FinalizerRelease,
): Promise<KubeObject | undefined> {
  // The hook may no longer declare a gate (that is why it is released): each of the table's is called once.
  if (instance.metadata.deletionTimestamp !== undefined && release.destination !== undefined)
    for (const call of deletionGateCalls(release.destination, instance, hookPhases()))
      await release.callHook(call);
  const updated = await release.removeFinalizer(instance);
  if (updated !== undefined)
    release.events.emit(instance, 'Normal', 'FinalizerReleased', `removed finalizer ${FINALIZER}`);
  return updated;
}
