/**
 * What may differ between the controller's writes and `scoby render`'s output for the same inputs,
 * and nothing else:
 *
 * - the `lastTransitionTime` of a condition that transitioned (the stored status has none of its
 *   type, or one of another status): each side stamps it with its own clock. An unchanged
 *   condition keeps the stored time on both sides, so it is compared as is.
 * - the `resourceVersion` of the instance a hook request carries: the controller sends the instance
 *   as its finalizer write left it, render the instance as it was given; its working status's new
 *   `lastTransitionTime`s, as above.
 * - the fields the API server adds to a child it stores (uid, resourceVersion, managedFields,
 *   defaults): a child render prints is compared on what it prints, and by the desired-hash
 *   annotation, the SHA-256 of the whole object the controller sent.
 */
import { DESIRED_HASH_ANNOTATION } from '../../../src/instance/children/update-detection.ts';
import type { KubeObject } from '@scoby/kube-objects';

export const NOW = '<now>';

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The first stored condition of each type, as the controller reads them (settleConditions). */
function storedConditions(stored: unknown): Map<string, Record<string, unknown>> {
  const conditions = isObject(stored) && Array.isArray(stored.conditions) ? stored.conditions : [];
  const byType = new Map<string, Record<string, unknown>>();
  for (const condition of conditions.filter(isObject)) {
    if (!byType.has(String(condition.type))) byType.set(String(condition.type), condition);
  }
  return byType;
}

/**
 * `status` with the lastTransitionTime of every condition that transitioned written as NOW;
 * `stored` is the status the reconcile started from. A condition transitions when the stored one
 * of its type is missing or has another status (settleConditions); an unchanged one keeps its
 * time, which is compared as is.
 */
export function normalisedStatus(status: unknown, stored: unknown): unknown {
  if (!isObject(status) || !Array.isArray(status.conditions)) return status;
  const before = storedConditions(stored);
  return {
    ...status,
    conditions: status.conditions.map((condition: unknown) => {
      if (!isObject(condition) || !('lastTransitionTime' in condition)) return condition;
      const kept = before.get(String(condition.type))?.status === condition.status;
      return kept ? condition : { ...condition, lastTransitionTime: NOW };
    }),
  };
}

/** The request with its instance's resourceVersion left out and its working status normalised. */
export function normalisedHookRequest(body: unknown, stored: unknown): unknown {
  if (!isObject(body) || !isObject(body.object) || !isObject(body.object.metadata)) return body;
  const { resourceVersion: _resourceVersion, ...metadata } = body.object.metadata;
  return {
    ...body,
    object: { ...body.object, metadata, status: normalisedStatus(body.object.status, stored) },
  };
}

/** `live` cut down to the fields `shape` has (arrays item by item). */
export function projectOnto(live: unknown, shape: unknown): unknown {
  if (Array.isArray(shape)) {
    return Array.isArray(live) ? shape.map((item, index) => projectOnto(live[index], item)) : live;
  }
  if (isObject(shape)) {
    if (!isObject(live)) return live;
    return Object.fromEntries(
      Object.entries(shape).map(([key, value]) => [key, projectOnto(live[key], value)]),
    );
  }
  return live;
}

export function childLabel(child: KubeObject): string {
  return `${child.apiVersion} ${child.kind} ${child.metadata.name ?? ''}`;
}

/** The differences between the children render printed and the children on the cluster. */
export function childDifferences(printed: readonly KubeObject[], live: readonly KubeObject[]): string[] {
  const differences: string[] = [];
  const liveByLabel = new Map(live.map((child) => [childLabel(child), child]));
  for (const child of printed) {
    const label = childLabel(child);
    const found = liveByLabel.get(label);
    liveByLabel.delete(label);
    if (found === undefined) {
      differences.push(`render prints ${label}, which the controller did not write`);
      continue;
    }
    const hash = (object: KubeObject) => object.metadata.annotations?.[DESIRED_HASH_ANNOTATION];
    if (hash(found) !== hash(child))
      differences.push(`${label}: desired-hash ${hash(child)} ≠ ${hash(found)}`);
    const projected = projectOnto(found, child);
    if (JSON.stringify(projected) !== JSON.stringify(child))
      differences.push(`${label}: printed ${JSON.stringify(child)}\n  live    ${JSON.stringify(projected)}`);
  }
  for (const label of liveByLabel.keys())
    differences.push(`the controller wrote ${label}, which render does not print`);
  return differences;
}
