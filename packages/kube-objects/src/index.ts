/**
 * Plain shapes of the Kubernetes objects Scoby reads and writes, for the pure packages that must not
 * depend on the Kubernetes client. Only the fields Scoby touches are typed; everything else passes
 * through as unknown JSON.
 */

export type JsonValue = string | number | boolean | null | JsonValue[] | { [key: string]: JsonValue };
export type JsonObject = { [key: string]: JsonValue };

export interface OwnerReference {
  apiVersion: string;
  kind: string;
  name: string;
  uid: string;
  controller?: boolean;
  blockOwnerDeletion?: boolean;
}

export interface ObjectMeta {
  name?: string;
  generateName?: string;
  namespace?: string;
  uid?: string;
  resourceVersion?: string;
  generation?: number;
  creationTimestamp?: string;
  deletionTimestamp?: string;
  deletionGracePeriodSeconds?: number;
  labels?: Record<string, string>;
  annotations?: Record<string, string>;
  ownerReferences?: OwnerReference[];
  finalizers?: string[];
  managedFields?: unknown[];
  [key: string]: unknown;
}

/** Any Kubernetes object: apiVersion, kind, metadata, and free-form content. */
export interface KubeObject {
  apiVersion: string;
  kind: string;
  metadata: ObjectMeta;
  spec?: unknown;
  status?: unknown;
  [key: string]: unknown;
}

export interface ConfigMapKeySelector {
  name: string;
  key: string;
  optional?: boolean;
}
export type SecretKeySelector = ConfigMapKeySelector;

export interface ObjectFieldSelector {
  fieldPath: string;
  apiVersion?: string;
}

/** core/v1 EnvVar: exactly one of value / valueFrom. */
export interface EnvVar {
  name: string;
  value?: string;
  valueFrom?: {
    configMapKeyRef?: ConfigMapKeySelector;
    secretKeyRef?: SecretKeySelector;
    fieldRef?: ObjectFieldSelector;
  };
}

export interface KeyToPath {
  key: string;
  path: string;
  mode?: number;
}

/** core/v1 Volume, limited to the two sources Scoby renders. */
export interface Volume {
  name: string;
  configMap?: { name: string; items?: KeyToPath[]; defaultMode?: number; optional?: boolean };
  secret?: { secretName: string; items?: KeyToPath[]; defaultMode?: number; optional?: boolean };
}

export interface VolumeMount {
  name: string;
  mountPath: string;
}

/** A condition as Scoby stores it in status: all five fields always present. */
export interface Condition {
  type: string;
  status: 'True' | 'False' | 'Unknown';
  reason: string;
  message: string;
  lastTransitionTime: string;
}

/** What rendering (the env package) hands to a form factor for the adapter container. */
export interface RenderedContainer {
  env: EnvVar[];
  volumes: Volume[];
  volumeMounts: VolumeMount[];
}

/** apiVersion "group/version" or "version" (core) split into its parts. */
export function splitApiVersion(apiVersion: string): { group: string; version: string } {
  const slash = apiVersion.indexOf('/');
  return slash < 0
    ? { group: '', version: apiVersion }
    : { group: apiVersion.slice(0, slash), version: apiVersion.slice(slash + 1) };
}

export { compareByteOrder, hasSurrogates } from './byte-order.ts';
export { compactJson } from './compact-json.ts';
export { isPlainObject, jsonTypeName } from './json.ts';
export { serviceUrl } from './service-url.ts';
export { compareVersionPriority } from './version-priority.ts';
export { setLongTimeout, MAX_TIMER_DELAY_MS } from './long-timeout.ts';
export { compareResourceVersions } from './resource-version.ts';
