/**
 * Core v1 and events.k8s.io/v1 Events are one object in two shapes (kube-apiserver converts between
 * them, pkg/apis/events/v1/conversion.go): the field pairs below, everything else shared.
 */
import type { KubeObject } from '@scoby/kube-objects';

/** [core v1 field, events.k8s.io/v1 field] */
const RENAMED: readonly [string, string][] = [
  ['involvedObject', 'regarding'],
  ['message', 'note'],
  ['source', 'deprecatedSource'],
  ['firstTimestamp', 'deprecatedFirstTimestamp'],
  ['lastTimestamp', 'deprecatedLastTimestamp'],
  ['count', 'deprecatedCount'],
  ['reportingComponent', 'reportingController'],
];

function renamed(
  object: Record<string, unknown>,
  pairs: readonly [string, string][],
): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(object)) {
    const pair = pairs.find(([from]) => from === key);
    out[pair === undefined ? key : pair[1]] = value;
  }
  return out;
}

/** An Event in its core v1 shape, whichever API it was written through. */
export function coreEventOf(object: KubeObject): Record<string, unknown> {
  if (!object.apiVersion?.startsWith('events.k8s.io/')) return object as Record<string, unknown>;
  const swapped = RENAMED.map(([core, events]): [string, string] => [events, core]);
  return { ...renamed(object as Record<string, unknown>, swapped), apiVersion: 'v1' };
}

/** An Event in its events.k8s.io/v1 shape. */
export function eventsV1EventOf(object: KubeObject): Record<string, unknown> {
  if (object.apiVersion?.startsWith('events.k8s.io/')) return object as Record<string, unknown>;
  return { ...renamed(object as Record<string, unknown>, RENAMED), apiVersion: 'events.k8s.io/v1' };
}
