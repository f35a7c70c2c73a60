/**
 * The requests of the differential harness: what is sent (method, path, query, body) as a template the
 * runner completes per server (the resourceVersion and uid each server gave an object), and the class it
 * belongs to (verb × resource × mistake), which accepted differences and coverage are keyed by.
 */

export const RESOURCES = [
  'configmaps',
  'secrets',
  'deployments',
  'services',
  'events',
  'leases',
  'widgets',
  'crdregistrations',
] as const;
export type Resource = (typeof RESOURCES)[number];

/** Resources with a status subresource (the verbs update-status and patch-status). */
export const WITH_STATUS: readonly Resource[] = ['deployments', 'services', 'widgets', 'crdregistrations'];

/** Cluster-scoped resources: their objects are named `<namespace>-<name>` and labelled with the sequence. */
export const CLUSTER_SCOPED: readonly Resource[] = ['crdregistrations'];

export const VERBS = [
  'create',
  'get',
  'list',
  'update',
  'patch-merge',
  'patch-json',
  'patch-strategic',
  'patch-apply',
  'update-status',
  'patch-status',
  'get-scale',
  'update-scale',
  'patch-scale',
  'delete',
] as const;
export type Verb = (typeof VERBS)[number];

/** The client mistakes a body or query may carry ('none': a valid request). */
export const MISTAKES = [
  'none',
  'dry-run',
  'resource-version-on-create',
  'uid-on-create',
  'stale-resource-version',
  'missing-resource-version',
  'wrong-kind',
  'wrong-api-version',
  'generate-name',
  'finalizers',
  'deletion-timestamp',
  'managed-fields',
  'missing-owner',
  'oversized',
  'deeply-nested',
  'unknown-field',
  'invalid-value',
  'uid-precondition',
  'resource-version-precondition',
  'propagation-policy',
  'force-apply',
  'label-selector',
  'field-selector',
  'immutable-field',
  'type-change',
] as const;
export type Mistake = (typeof MISTAKES)[number];

/** Placeholders in paths, queries and bodies, resolved per server from what it answered before. */
export const CURRENT_RV = '$CURRENT_RV';
export const STALE_RV = '$STALE_RV';
export const CURRENT_UID = '$CURRENT_UID';
/** The sequence's namespace (an Event's involvedObject.namespace, a cluster-scoped object's name). */
export const SEQUENCE = '$SEQ';

export interface Step {
  verb: Verb;
  resource: Resource;
  mistake: Mistake;
  /** The object's name (also for lists: the object the step is about). */
  name: string;
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  /** Path below the namespace: `configmaps`, `configmaps/a`, `deployments/a/scale`. */
  path: string;
  query: Record<string, string>;
  contentType?: string;
  /** JSON text with placeholders. */
  body?: string;
  /** The body is written as Node writes a DELETE's: after the headers, with no Content-Length. */
  lengthUnknown?: boolean;
}

/** The key of a step's request class: `create:configmaps:resource-version-on-create`. */
export function requestClass(step: Pick<Step, 'verb' | 'resource' | 'mistake'>): string {
  return `${step.verb}:${step.resource}:${step.mistake}`;
}

/** The API prefix of a resource. */
export function apiPrefix(resource: Resource): string {
  const { apiVersion } = kindOf(resource);
  return apiVersion === 'v1' ? '/api/v1' : `/apis/${apiVersion}`;
}

export function kindOf(resource: Resource): { apiVersion: string; kind: string } {
  switch (resource) {
    case 'configmaps':
      return { apiVersion: 'v1', kind: 'ConfigMap' };
    case 'secrets':
      return { apiVersion: 'v1', kind: 'Secret' };
    case 'deployments':
      return { apiVersion: 'apps/v1', kind: 'Deployment' };
    case 'services':
      return { apiVersion: 'v1', kind: 'Service' };
    case 'events':
      return { apiVersion: 'v1', kind: 'Event' };
    case 'leases':
      return { apiVersion: 'coordination.k8s.io/v1', kind: 'Lease' };
    case 'widgets':
      return { apiVersion: 'differential.example.com/v1', kind: 'Widget' };
    case 'crdregistrations':
      return { apiVersion: 'scoby.triggermesh.io/v1alpha1', kind: 'CRDRegistration' };
  }
}

/** The name an object of the step has on the servers (cluster-scoped ones carry the sequence's namespace). */
export function objectName(resource: Resource, name: string): string {
  return CLUSTER_SCOPED.includes(resource) ? `${SEQUENCE}-${name}` : name;
}

/** A step as one line: `PATCH deployments/a?fieldManager=x (application/merge-patch+json) {…}`. */
export function describeStep(step: Step): string {
  const query = new URLSearchParams(step.query).toString();
  const body =
    step.body === undefined ? '' : ` ${step.body.length > 400 ? `${step.body.slice(0, 400)}…` : step.body}`;
  return `[${requestClass(step)}] ${step.method} ${step.path}${query ? `?${query}` : ''}${step.contentType ? ` (${step.contentType})` : ''}${body}`;
}
