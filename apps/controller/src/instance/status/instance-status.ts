/**
 * The instance status a reconcile desires (docs/spec/children-and-status.md §8): a working copy initialised
 * from the stored status, changed by statusConfiguration.add and the hook, completed with Scoby's
 * own conditions, observedGeneration and address.
 */
import { compareByteOrder, type Condition } from '@scoby/kube-objects';
import type { StatusFeatures } from '../../crd/inspect.ts';
import {
  initializeConditions,
  readyFrom,
  setConditionValues,
  settleConditions,
  type ConditionValue,
} from '../../status/conditions.ts';
import { kstatusConditions } from '../../status/kstatus.ts';
import { hookFailureIgnoredCondition } from '../hook-failure-policy.ts';
import { instanceKstatus } from './instance-kstatus.ts';

export type Status = Record<string, unknown>;

export type AddressOutcome = { kind: 'url'; url: string } | { kind: 'none' } | { kind: 'unmanaged' };

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** §8.2 on a copy of the stored status. */
export function startWorkingStatus(stored: unknown, conditionTypes: readonly string[], now: string): Status {
  const working: Status = isObject(stored) ? structuredClone(stored) : {};
  working.conditions = initializeConditions(working.conditions, conditionTypes, now);
  return working;
}

const STATUSES = new Set(['True', 'False', 'Unknown']);

function hookCondition(type: string, entry: Record<string, unknown>): Condition {
  return {
    type,
    status: STATUSES.has(entry.status as string) ? (entry.status as Condition['status']) : 'Unknown',
    reason: typeof entry.reason === 'string' && entry.reason !== '' ? entry.reason : 'UNKNOWN',
    message: typeof entry.message === 'string' ? entry.message : '',
    lastTransitionTime: '',
  };
}

export interface HookStatusOutcome {
  status: Status;
  /** conditionsFromHook types the hook sent more than once, in type order. */
  repeatedTypes: string[];
}

/**
 * §8.10: the hook's status replaces the working status, except conditions: hook-declared types come
 * from the hook (when it sent them), every other type keeps Scoby's entry.
 */
export function applyHookStatus(
  working: Status,
  hookStatus: Status,
  hookConditionTypes: readonly string[],
  conditionTypes: readonly string[],
  now: string,
): HookStatusOutcome {
  const before = (working.conditions ?? []) as Condition[];
  const sent = Array.isArray(hookStatus.conditions) ? hookStatus.conditions.filter(isObject) : [];
  const repeatedTypes: string[] = [];
  const merged = before.map((condition) => {
    if (!hookConditionTypes.includes(condition.type)) return condition;
    const entries = sent.filter((candidate) => candidate.type === condition.type);
    if (entries.length > 1) repeatedTypes.push(condition.type);
    // The last entry, whatever Scoby sent: a choice that depended on it flipped at every reconcile
    // between two entries of the hook's own (docs/spec/children-and-status.md §8.10).
    const entry = entries.at(-1);
    return entry
      ? { ...hookCondition(condition.type, entry), lastTransitionTime: condition.lastTransitionTime }
      : condition;
  });
  const next = structuredClone(hookStatus);
  next.conditions = initializeConditions(merged, conditionTypes, now);
  return { status: next, repeatedTypes: repeatedTypes.sort() };
}

/**
 * §8.5: while a pre-reconcile call fails (no answer, an error answer, one Scoby cannot take), the
 * hook's conditions are Unknown with the failure rather than its last judgement.
 */
export function withHookConditionsFailed(
  working: Status,
  hookConditionTypes: readonly string[],
  message: string,
): Status {
  if (hookConditionTypes.length === 0) return working;
  const conditions = ((working.conditions ?? []) as Condition[]).map((condition) =>
    hookConditionTypes.includes(condition.type)
      ? { ...condition, ...hookFailedCondition(message) }
      : condition,
  );
  return { ...working, conditions };
}

function hookFailedCondition(message: string): ConditionValue {
  return { status: 'Unknown', reason: 'HookFailed', message };
}

/** The Warning Event `HookConditionRepeated`'s message (docs/spec/children-and-status.md §8.10). */
export function repeatedConditionsMessage(types: readonly string[]): string {
  const names = types.join(', ');
  return `pre-reconcile hook: status.conditions repeats type ${names}; the last entry of each is used`;
}

/**
 * §8.5's reasons, and two for failures §8.5 does not name: the status write itself failed
 * (`StatusWriteFailed`, the reason of its Event in §10), or the reconcile failed unexpectedly
 * (`ReconcileFailed`), so that no failure leaves an older Ready standing.
 */
export type FailureReason =
  'RenderFailed' | 'HookFailed' | 'ApplyFailed' | 'StatusWriteFailed' | 'ReconcileFailed';

export interface IgnoredHookFailureStatus {
  message: string;
  hookConditionTypes: readonly string[];
}

export interface StatusCompletion {
  /** The form factor's verdict; absent when the reconcile failed before it ran. */
  formFactor?: { conditions: Record<string, ConditionValue>; address: AddressOutcome };
  /** The child a condition type reports on, for the message of Ready=False (conditionSubjects). */
  conditionSubjects?: Readonly<Record<string, string>>;
  /** A failed reconcile (§8.5) overrides Ready; parked or not decides Stalled or Reconciling (§8.12). */
  failure?: { reason: FailureReason; message: string; parked: boolean };
  /**
   * A pre-reconcile failure the reconcile went on without (failurePolicy Ignore): its message adds
   * HookSucceeded=False after Ready, and the hook's condition types are left out of Ready
   * (docs/spec/hooks-v1.md §6.6, children-and-status.md §8.4).
   */
  hookFailureIgnored?: IgnoredHookFailureStatus;
  generation: number | undefined;
  features: StatusFeatures;
  stored: unknown;
  now: string;
}

function withAddress(status: Status, address: AddressOutcome): Status {
  if (address.kind === 'unmanaged') return status;
  const current = isObject(status.address) ? { ...status.address } : {};
  if (address.kind === 'url') current.url = address.url;
  else delete current.url;
  const next = { ...status };
  if (Object.keys(current).length > 0) next.address = current;
  else delete next.address;
  return next;
}

/** Steps 10–11 of §1: Scoby's conditions, Ready, times, observedGeneration, address; features applied. */
export function completeStatus(working: Status, completion: StatusCompletion): Status {
  let status: Status = { ...working };
  let conditions = (status.conditions ?? []) as Condition[];
  if (completion.formFactor) {
    conditions = setConditionValues(conditions, completion.formFactor.conditions);
    if (completion.features.address) status = withAddress(status, completion.formFactor.address);
  }
  const ignored = completion.hookFailureIgnored;
  const counted = ignored
    ? conditions.filter((condition) => !ignored.hookConditionTypes.includes(condition.type))
    : conditions;
  const ready = completion.failure
    ? { status: 'False' as const, reason: completion.failure.reason, message: completion.failure.message }
    : readyFrom(counted, completion.conditionSubjects);
  conditions = setConditionValues(conditions, { Ready: ready });
  // Outside the set and after Ready, which counts neither (§8.1); judged on what Ready counted.
  const kstatus = instanceKstatus(
    ignored
      ? conditions.filter((condition) => !ignored.hookConditionTypes.includes(condition.type))
      : conditions,
    completion.failure,
    completion.conditionSubjects,
  );
  conditions = [
    ...conditions,
    ...(ignored === undefined ? [] : [hookFailureIgnoredCondition(ignored.message)]),
    ...kstatusConditions(kstatus),
  ].sort((a, b) => compareByteOrder(a.type, b.type));
  const storedConditions = isObject(completion.stored) ? completion.stored.conditions : undefined;
  const fields = completion.features.conditionFields;
  if (fields.length > 0) {
    status.conditions = settleConditions(conditions, storedConditions, completion.now).map((condition) =>
      Object.fromEntries(Object.entries(condition).filter(([key]) => fields.includes(key))),
    );
  } else {
    delete status.conditions;
  }
  if (completion.features.observedGeneration && completion.generation !== undefined) {
    status.observedGeneration = completion.generation;
  }
  return status;
}
