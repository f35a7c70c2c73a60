/** Reading the parts of objects that scenarios assert on. */
import type { KubeObject } from '@scoby/kube-objects';

export interface ConditionView {
  type: string;
  status: string;
  reason: string;
  message: string;
}

/** Conditions without lastTransitionTime (a wall-clock value), in stored order. */
export function conditionsOf(object: KubeObject | undefined): ConditionView[] {
  const conditions = (object?.status as { conditions?: unknown } | undefined)?.conditions;
  if (!Array.isArray(conditions)) return [];
  return conditions.map((entry: Record<string, unknown>) => ({
    type: String(entry.type),
    status: String(entry.status),
    reason: String(entry.reason),
    message: String(entry.message),
  }));
}

export function conditionOf(object: KubeObject | undefined, type: string): ConditionView | undefined {
  return conditionsOf(object).find((condition) => condition.type === type);
}

/** The pod template's spec of a Deployment, StatefulSet or Knative Service. */
export function podSpecOf(object: KubeObject | undefined): Record<string, unknown> | undefined {
  return (object?.spec as { template?: { spec?: Record<string, unknown> } } | undefined)?.template?.spec;
}

/** The `adapter` container of a workload. */
export function adapterOf(object: KubeObject | undefined): Record<string, unknown> | undefined {
  const containers = podSpecOf(object)?.containers;
  return Array.isArray(containers)
    ? (containers as Record<string, unknown>[]).find((container) => container.name === 'adapter')
    : undefined;
}

export function statusOf(object: KubeObject | undefined): Record<string, unknown> {
  return (object?.status as Record<string, unknown> | undefined) ?? {};
}
