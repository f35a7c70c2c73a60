/** Reading a condition from an observed child's `status.conditions`, whatever shape the server returned. */
import { isPlainObject, type KubeObject } from '@scoby/kube-objects';

export interface ObservedCondition {
  /** The status as text: a non-string value in JSON, `""` when absent. */
  status: string;
  /** `""` when absent or not a string. */
  reason: string;
  /** `""` when absent or not a string. */
  message: string;
}

function asRecord(value: unknown): Record<string, unknown> | undefined {
  return isPlainObject(value) ? value : undefined;
}

function text(value: unknown): string {
  return typeof value === 'string' ? value : '';
}

/** The first condition of `type` in `object.status.conditions`, or undefined when none. */
export function observedCondition(
  object: KubeObject | undefined,
  type: string,
): ObservedCondition | undefined {
  const conditions = asRecord(object?.status)?.['conditions'];
  if (!Array.isArray(conditions)) return undefined;
  const found = conditions.map(asRecord).find((condition) => condition?.['type'] === type);
  if (found === undefined) return undefined;
  const status = found['status'];
  return {
    status: typeof status === 'string' ? status : (JSON.stringify(status) ?? ''),
    reason: text(found['reason']),
    message: text(found['message']),
  };
}
