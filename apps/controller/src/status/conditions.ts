/**
 * Condition bookkeeping shared by registration and instance status (docs/spec/registration.md §5,
 * docs/spec/children-and-status.md §8.2–§8.6): initialisation, lastTransitionTime, message limits.
 */
import { compareByteOrder, type Condition, type KubeObject } from '@scoby/kube-objects';

export type ConditionStatus = Condition['status'];

/** The part of a condition a computation decides; time is filled by `settleConditions`. */
export interface ConditionValue {
  status: ConditionStatus;
  reason: string;
  message: string;
}

const MAX_MESSAGE = 1024;

/** RFC 3339 UTC with whole seconds (toISOString always ends in `.sssZ`; a regex here was a hot spot). */
export function formatTime(date: Date): string {
  return `${date.toISOString().slice(0, -5)}Z`;
}

/** Messages over 1024 characters are cut to 1021 followed by `...` (§8.5). */
export function limitMessage(message: string): string {
  return message.length > MAX_MESSAGE ? `${message.slice(0, MAX_MESSAGE - 3)}...` : message;
}

const UNKNOWN: ConditionValue = { status: 'Unknown', reason: 'UNKNOWN', message: '' };

/**
 * §8.2: keep only well-formed entries of the expected types (first occurrence wins), add the missing
 * ones as Unknown, sort by type.
 */
export function initializeConditions(stored: unknown, types: readonly string[], now: string): Condition[] {
  const byType = new Map<string, Condition>();
  if (Array.isArray(stored)) {
    for (const entry of stored) {
      if (typeof entry !== 'object' || entry === null || Array.isArray(entry)) continue;
      const record = entry as Record<string, unknown>;
      if (typeof record.type !== 'string' || !types.includes(record.type) || byType.has(record.type))
        continue;
      byType.set(record.type, record as unknown as Condition);
    }
  }
  for (const type of types) {
    if (!byType.has(type)) byType.set(type, { type, ...UNKNOWN, lastTransitionTime: now });
  }
  return [...byType.values()].sort((a, b) => compareByteOrder(a.type, b.type));
}

/** Sets computed values on the conditions of the given types, leaving the others as they are. */
export function setConditionValues(
  conditions: readonly Condition[],
  values: Readonly<Record<string, ConditionValue>>,
): Condition[] {
  return conditions.map((condition) => {
    const value = values[condition.type];
    return value ? { ...condition, ...value } : condition;
  });
}

/**
 * Final shape of the conditions to store: all five fields, messages limited, and lastTransitionTime
 * kept from the stored condition of the same type when its status is unchanged, else `now` (§8.6;
 * a time supplied by anyone else, e.g. a hook, is ignored).
 */
export function settleConditions(
  conditions: readonly Condition[],
  stored: unknown,
  now: string,
): Condition[] {
  const storedByType = new Map<string, Record<string, unknown>>();
  if (Array.isArray(stored)) {
    for (const entry of stored) {
      if (
        typeof entry === 'object' &&
        entry !== null &&
        typeof entry.type === 'string' &&
        !storedByType.has(entry.type)
      ) {
        storedByType.set(entry.type, entry as Record<string, unknown>);
      }
    }
  }
  return conditions.map((condition) => {
    const before = storedByType.get(condition.type);
    const keep = before?.status === condition.status && typeof before.lastTransitionTime === 'string';
    return {
      type: condition.type,
      status: condition.status,
      reason: condition.reason,
      message: limitMessage(condition.message),
      lastTransitionTime: keep ? (before.lastTransitionTime as string) : now,
    };
  });
}

/**
 * The child each condition type reports on, where that is plain: the built-in form factors name a
 * child's condition `<Kind>Ready` (DeploymentReady, ServiceReady), so one child of that kind is it.
 */
export function conditionSubjects(
  children: readonly KubeObject[],
  types: readonly string[],
): Record<string, string> {
  const subjects: Record<string, string> = {};
  for (const type of types) {
    const matching = children.filter((child) => `${child.kind}Ready` === type);
    const [only] = matching;
    if (matching.length === 1 && only) {
      subjects[type] = `${only.kind} ${only.metadata.namespace ?? ''}/${only.metadata.name ?? ''}`;
    }
  }
  return subjects;
}

/** `DeploymentReady=False for Deployment shop/mailer: MinimumReplicasUnavailable: <its message>`. */
export function conditionPart(condition: Condition, subject: string | undefined): string {
  const about = subject === undefined ? '' : ` for ${subject}`;
  const detail = [condition.reason, condition.message].filter((part) => part !== '').join(': ');
  return `${condition.type}=${condition.status}${about}${detail === '' ? '' : `: ${detail}`}`;
}

/**
 * docs/spec/children-and-status.md §8.4, with Scoby's reasons; `Ready=False` says in its message which
 * conditions are False and why, naming their child where `subjects` knows it.
 */
export function readyFrom(
  conditions: readonly Condition[],
  subjects: Readonly<Record<string, string>> = {},
): ConditionValue {
  const others = conditions.filter((condition) => condition.type !== 'Ready');
  const blocking = others.filter((condition) => condition.status === 'False');
  if (blocking.length > 0) {
    const message = blocking
      .map((condition) => conditionPart(condition, subjects[condition.type]))
      .join('; ');
    return { status: 'False', reason: 'CONDITIONSNOTOK', message };
  }
  if (others.some((condition) => condition.status !== 'True')) return { ...UNKNOWN };
  return { status: 'True', reason: 'CONDITIONSOK', message: '' };
}

/** Whether the object's stored status holds `Ready=True` (§8.4); no status, or no Ready, is not. */
export function isReady(object: { status?: unknown }): boolean {
  const conditions = (object.status as { conditions?: unknown } | undefined)?.conditions;
  return (
    Array.isArray(conditions) &&
    conditions.some(
      (condition: { type?: unknown; status?: unknown } | null) =>
        condition?.type === 'Ready' && condition.status === 'True',
    )
  );
}
