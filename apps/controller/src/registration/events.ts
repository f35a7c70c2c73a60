/**
 * What a registration's condition changes tell its users: a Normal Event when its
 * controller started, a Warning Event when it stopped being Ready for a reason someone must fix
 * (an invalid spec, a missing CRD, a hook or permission problem). Derived from the status the
 * controller wrote, so only a change yields an Event and a steady state writes none.
 */
import type { KubeObject } from '@scoby/kube-objects';

export interface RegistrationEvent {
  type: 'Normal' | 'Warning';
  reason: string;
  message: string;
}

interface ConditionView {
  status?: unknown;
  reason?: unknown;
  message?: unknown;
}

function condition(object: KubeObject | undefined, type: string): ConditionView | undefined {
  const conditions = (object?.status as { conditions?: unknown } | undefined)?.conditions;
  if (!Array.isArray(conditions)) return undefined;
  return conditions.find(
    (entry): entry is ConditionView => typeof entry === 'object' && entry !== null && entry.type === type,
  );
}

/** The Events for one status change of a registration, from `before` (undefined: first seen) to `after`. */
export function registrationEvents(before: KubeObject | undefined, after: KubeObject): RegistrationEvent[] {
  if (before === undefined) return [];
  const events: RegistrationEvent[] = [];
  const wasStarted = condition(before, 'ControllerReady')?.status === 'True';
  if (!wasStarted && condition(after, 'ControllerReady')?.status === 'True') {
    const crd = String((after.spec as { crd?: unknown } | undefined)?.crd ?? '');
    events.push({ type: 'Normal', reason: 'ControllerStarted', message: `started the controller of ${crd}` });
  }
  const ready = condition(after, 'Ready');
  const previous = condition(before, 'Ready');
  const changed =
    previous?.status !== ready?.status ||
    previous?.reason !== ready?.reason ||
    previous?.message !== ready?.message;
  if (ready?.status === 'False' && changed) {
    events.push({ type: 'Warning', reason: String(ready.reason), message: String(ready.message ?? '') });
  }
  return events;
}
