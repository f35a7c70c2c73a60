/**
 * What Scoby needs to know about a registered CRD (docs/spec/children-and-status.md §7): the version to serve
 * instances through and which status fields the chosen version's schema lets it write.
 */
import { compareVersionPriority, type KubeObject } from '@scoby/kube-objects';

type Schema = Record<string, unknown>;

export interface StatusFeatures {
  /** False when the version has no status subresource: no status is ever written. */
  subresource: boolean;
  /** Condition fields the item schema declares; empty = conditions not written. */
  conditionFields: string[];
  observedGeneration: boolean;
  address: boolean;
  /** The schema under `properties.status`, for pruning the desired status like the API server. */
  schema: Schema | undefined;
}

export interface CrdInfo {
  name: string;
  group: string;
  kind: string;
  plural: string;
  namespaced: boolean;
  /** The chosen served version, or undefined when none is served. */
  version: string | undefined;
  status: StatusFeatures;
}

interface CrdVersion {
  name: string;
  served?: boolean;
  deprecated?: boolean;
  subresources?: { status?: unknown };
  schema?: { openAPIV3Schema?: Schema };
}

const CONDITION_FIELDS = ['type', 'status', 'reason', 'message', 'lastTransitionTime'];

function asSchema(value: unknown): Schema | undefined {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Schema) : undefined;
}

function preserves(schema: Schema | undefined): boolean {
  return schema?.['x-kubernetes-preserve-unknown-fields'] === true;
}

function property(schema: Schema | undefined, name: string): Schema | undefined {
  return asSchema(asSchema(schema?.properties)?.[name]);
}

/** §7.1: served versions, non-deprecated first, highest priority. */
export function chooseVersion(versions: readonly CrdVersion[]): CrdVersion | undefined {
  const served = versions.filter((version) => version.served !== false && version.served !== undefined);
  const current = served.filter((version) => version.deprecated !== true);
  const pool = current.length > 0 ? current : served;
  return [...pool].sort((a, b) => compareVersionPriority(a.name, b.name))[0];
}

function conditionFields(status: Schema | undefined): string[] {
  if (preserves(status)) return [...CONDITION_FIELDS];
  const conditions = property(status, 'conditions');
  if (conditions?.type !== 'array') return [];
  const items = asSchema(conditions.items);
  if (items?.type !== 'object') return [];
  if (preserves(items)) return [...CONDITION_FIELDS];
  const isString = (name: string) => property(items, name)?.type === 'string';
  if (!isString('type') || !isString('status')) return [];
  return CONDITION_FIELDS.filter((name) => property(items, name) !== undefined);
}

/** §7.2, evaluated on the chosen version. */
export function statusFeatures(version: CrdVersion | undefined): StatusFeatures {
  const subresource = version?.subresources?.status !== undefined && version.subresources.status !== null;
  const status = property(version?.schema?.openAPIV3Schema, 'status');
  if (!subresource) {
    return { subresource, conditionFields: [], observedGeneration: false, address: false, schema: status };
  }
  const everything = preserves(status);
  const address = property(status, 'address');
  return {
    subresource,
    conditionFields: conditionFields(status),
    observedGeneration: everything || property(status, 'observedGeneration')?.type === 'integer',
    address:
      everything ||
      (address?.type === 'object' && (preserves(address) || property(address, 'url')?.type === 'string')),
    schema: status,
  };
}

export function inspectCrd(crd: KubeObject): CrdInfo {
  const spec = (crd.spec ?? {}) as {
    group?: string;
    scope?: string;
    names?: { kind?: string; plural?: string };
    versions?: CrdVersion[];
  };
  const version = chooseVersion(spec.versions ?? []);
  return {
    name: crd.metadata.name ?? '',
    group: spec.group ?? '',
    kind: spec.names?.kind ?? '',
    plural: spec.names?.plural ?? '',
    namespaced: spec.scope === 'Namespaced',
    version: version?.name,
    status: statusFeatures(version),
  };
}
