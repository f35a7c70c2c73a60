import { createHash } from 'node:crypto';
import type { JSONSchemaProps } from '@scoby/structural-schema';
import type { CrdSpec, ScaleSubresource } from './crd-spec.ts';

/** The verbs of the Kubernetes API a request or an authorization rule names. */
export type Verb = 'get' | 'list' | 'watch' | 'create' | 'update' | 'patch' | 'delete' | 'deletecollection';

/** Everything the server needs to know to serve one kind of object under /api or /apis. */
export interface ResourceType {
  readonly group: string;
  /** Served versions, the storage (preferred) version first. */
  readonly versions: readonly string[];
  readonly plural: string;
  readonly singular: string;
  readonly kind: string;
  readonly listKind: string;
  readonly namespaced: boolean;
  readonly shortNames: readonly string[];
  readonly categories: readonly string[];
  readonly statusSubresource: boolean;
  /** Built-in types accept strategic merge patches; custom resources do not. */
  readonly builtin: boolean;
  /** Whether metadata.generation is maintained (types with a spec). */
  readonly tracksGeneration: boolean;
  /** openAPIV3Schema per served version, for custom resources. */
  readonly schemas: ReadonlyMap<string, JSONSchemaProps>;
  /** The verbs the resource takes, in the order discovery lists them (namespaces take no deletecollection). */
  readonly verbs: readonly Verb[];
  /** Where kube-apiserver keeps these objects in etcd (`configmaps`, `services/specs`, `<group>/<plural>`): its storage errors name the key. */
  readonly etcdPrefix: string;
  /** Discovery's storageVersionHash, see {@link storageVersionHash}. */
  readonly storageVersionHash: string;
  /** Whether a PUT without metadata.resourceVersion is taken (not for Leases, CRDs and custom resources). */
  readonly allowUnconditionalUpdate: boolean;
  /** Whether a PUT of a missing object creates it (Events, Leases and Services, as their registry strategies allow). */
  readonly allowCreateOnUpdate?: boolean;
  /** Whether deletion propagation is unsupported (Events): a propagationPolicy adds no finalizer. */
  readonly propagationUnsupported?: boolean;
  /** Whether a DELETE that removes the object answers with the object instead of a Status (Services). */
  readonly returnDeletedObject?: boolean;
  /** The scale subresource, when served: where the replicas and the selector are. */
  readonly scale?: ScaleSubresource;
  /** The spec of the CRD a custom resource type is made from (its per-version details: columns, subresources). */
  readonly customResource?: CrdSpec;
}

/** The verbs of built-in resources, in discovery order. */
export const BUILTIN_VERBS: readonly Verb[] = [
  'create',
  'delete',
  'deletecollection',
  'get',
  'list',
  'patch',
  'update',
  'watch',
];

/** The verbs of custom resources, in the order kube-apiserver lists them. */
export const CUSTOM_RESOURCE_VERBS: readonly Verb[] = [
  'delete',
  'deletecollection',
  'get',
  'list',
  'patch',
  'create',
  'update',
  'watch',
];

/**
 * kube-apiserver's storageVersionHash: the first 8 bytes of the SHA-256 of `group/version/kind` of the
 * version objects are stored at, base64. Clients compare it to notice a storage version change.
 */
export function storageVersionHash(group: string, version: string, kind: string): string {
  return createHash('sha256')
    .update(`${group}/${version}/${kind}`)
    .digest()
    .subarray(0, 8)
    .toString('base64');
}

/** Storage key of a resource: independent of the version it is served at. */
export function resourceKey(group: string, plural: string): string {
  return group === '' ? plural : `${plural}.${group}`;
}

export function keyOf(type: ResourceType): string {
  return resourceKey(type.group, type.plural);
}

export function groupVersion(group: string, version: string): string {
  return group === '' ? version : `${group}/${version}`;
}

/** The etcd key of an object, as kube-apiserver's storage errors quote it. */
export function etcdKey(type: ResourceType, namespace: string | undefined, name: string): string {
  return `/registry/${type.etcdPrefix}/${namespace === undefined ? '' : `${namespace}/`}${name}`;
}

/** `Kind.group` as the real server names a type in Invalid messages (`ConfigMap`, `Mailer.notify.example.com`). */
export function kindDotGroup(type: ResourceType): string {
  return type.group === '' ? type.kind : `${type.kind}.${type.group}`;
}
