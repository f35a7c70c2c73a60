import { randomUUID } from 'node:crypto';
import type { KubeObject } from '@scoby/kube-objects';
import type { ResourceRegistry } from './registry.ts';
import { groupVersion, type ResourceType } from './resource-type.ts';
import { coreEventOf, eventsV1EventOf } from './events/event-shapes.ts';
import type { ObjectStore } from './store.ts';

/** Per object uid, per field manager: the configuration it last applied (server-side apply). */
export type AppliedConfigs = Map<string, Map<string, unknown>>;

/**
 * Per object uid, per updating manager as kube-apiserver prints it (`"name" using v1`): the fields its
 * patches changed, which applies of others conflict with.
 */
export type UpdatedFields = Map<string, Map<string, unknown>>;

/** Per object uid: the configuration a POST with a fieldManager set, owned by that manager's Update entry. */
export type CreatedConfigs = Map<string, { manager: string; config: unknown }>;

/** The state every verb works on. */
export interface Cluster {
  readonly store: ObjectStore;
  readonly registry: ResourceRegistry;
  readonly applied: AppliedConfigs;
  readonly updated: UpdatedFields;
  readonly created: CreatedConfigs;
  /** Present when the Service simulation is on: hands out cluster IPs. */
  readonly allocateClusterIp: (() => string) | undefined;
  now(): Date;
  newUid(): string;
}

export const systemClock = { now: (): Date => new Date(), newUid: (): string => randomUUID() };

/** RFC 3339 with second precision, as Kubernetes serialises metav1.Time. */
export function timestamp(date: Date): string {
  return date.toISOString().replace(/\.\d{3}Z$/, 'Z');
}

/**
 * The object as served at one version of its resource (versions of a CRD share one schema here; an
 * Event stored as a core Event is shown in the shape of the API it is read through).
 */
export function atVersion(type: ResourceType, version: string, object: KubeObject): KubeObject {
  if (type.kind === 'Event' && type.group === 'events.k8s.io') return eventsV1EventOf(object) as KubeObject;
  if (type.kind === 'Event' && type.group === '') return coreEventOf(object) as KubeObject;
  const apiVersion = groupVersion(type.group, version);
  return object.apiVersion === apiVersion ? object : { ...object, apiVersion };
}

export function storageApiVersion(type: ResourceType): string {
  return groupVersion(type.group, type.versions[0] ?? 'v1');
}
