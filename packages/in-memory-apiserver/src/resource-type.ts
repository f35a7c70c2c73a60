import type { JSONSchemaProps } from '@scoby/structural-schema';

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

/** `Kind.group` as the real server names a type in Invalid messages (`ConfigMap`, `Mailer.notify.example.com`). */
export function kindDotGroup(type: ResourceType): string {
  return type.group === '' ? type.kind : `${type.kind}.${type.group}`;
}
