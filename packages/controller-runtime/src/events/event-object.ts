import type { KubeObject } from '@scoby/kube-objects';

export type EventType = 'Normal' | 'Warning';

export interface EventSource {
  /** source.component and reportingComponent. */
  component: string;
  reportingInstance: string;
}

/** RFC 3339 UTC with whole seconds, the format of core/v1 Event timestamps. */
export function eventTimestamp(epochMs: number): string {
  return new Date(Math.floor(epochMs / 1000) * 1000).toISOString().replace('.000Z', 'Z');
}

/** Events of cluster-scoped objects live in `default`, as client-go records them. */
export function eventNamespace(object: KubeObject): string {
  return object.metadata.namespace || 'default';
}

/** The reference an Event carries to the object it is about. */
export function involvedObject(object: KubeObject): Record<string, string> {
  const { name, namespace, uid, resourceVersion } = object.metadata;
  return {
    apiVersion: object.apiVersion,
    kind: object.kind,
    name: name ?? '',
    ...(namespace ? { namespace } : {}),
    ...(uid ? { uid } : {}),
    ...(resourceVersion ? { resourceVersion } : {}),
  };
}

/** A new core/v1 Event, seen once at `now`. */
export function newEvent(
  name: string,
  object: KubeObject,
  type: EventType,
  reason: string,
  message: string,
  source: EventSource,
  now: number,
): KubeObject {
  const time = eventTimestamp(now);
  return {
    apiVersion: 'v1',
    kind: 'Event',
    metadata: { name, namespace: eventNamespace(object) },
    involvedObject: involvedObject(object),
    type,
    reason,
    message,
    source: { component: source.component },
    reportingComponent: source.component,
    reportingInstance: source.reportingInstance,
    firstTimestamp: time,
    lastTimestamp: time,
    count: 1,
  };
}
