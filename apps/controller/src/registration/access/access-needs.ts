/**
 * What a registration's controller does on the cluster, as RBAC sees it: the verbs on the registered
 * resource, its status and every child kind, and no more than it uses (docs/spec/registration.md §7).
 * Checked before the controller starts, so a missing grant is a precise condition on the registration
 * instead of 403s in the log (docs/migration.md).
 */
import type { WriteVerb } from '@scoby/controller-runtime';

/** Which ClusterRole grants a resource: the one Scoby ships, or one a cluster admin labels for it. */
export type Grantor = 'scoby-controller' | 'registered';

export interface ResourceNeed {
  group: string;
  /** Plural, e.g. `deployments`. */
  resource: string;
  subresource?: string;
  verbs: readonly string[];
  grantor: Grantor;
  /** A cluster-scoped resource: asked about once, without a namespace, whatever the working namespaces. */
  clusterScoped?: boolean;
}

export interface ChildResource {
  group: string;
  resource: string;
}

export interface RegistrationAccessInput {
  instance: { group: string; resource: string; statusSubresource: boolean };
  /** The hook has the finalize capability: Scoby's finalizer must be written. */
  finalizeHook: boolean;
  /** Kinds of the registration's form factor: read, created, applied and pruned. */
  workloadKinds: readonly ChildResource[];
  /** Kinds of every other served form factor: watched and pruned (docs/spec/children-and-status.md §6). */
  otherKinds: readonly ChildResource[];
  /** Instance selection reads Namespace labels (a namespaceSelector among the CRD's registrations). */
  readsNamespaces?: boolean;
}

/** Instances are read through informers and a get on conflict. */
const INSTANCE_VERBS = ['get', 'list', 'watch'];
/** Status and finalizers: either verb writes them (a merge patch preferred), in this order. */
export const WRITE_VERBS: readonly WriteVerb[] = ['patch', 'update'];

/** What the instance controller writes with the verb chosen, and on which resource. */
export interface WriteChoice {
  write: 'status' | 'finalizers';
  /** The resource, with `verbs` the rule suggested when neither verb is granted. */
  need: ResourceNeed;
  /** False: asked about, the answer used, but the controller starts without either verb. */
  required: boolean;
}

export interface AccessPlan {
  /** Every verb of every need is required. */
  needs: ResourceNeed[];
  writes: WriteChoice[];
}
/** A missing child is created with POST, a changed one applied (PATCH), an unwanted one deleted. */
const WORKLOAD_VERBS = ['get', 'list', 'watch', 'create', 'patch', 'delete'];
const PRUNED_VERBS = ['list', 'watch', 'delete'];

/** The child kinds deploy/10-rbac.yaml grants in the `scoby-controller` ClusterRole, as `group/resource` (the built-ins' managed kinds). */
export const SHIPPED_GRANTS: ReadonlySet<string> = new Set([
  'apps/deployments',
  '/services',
  'serving.knative.dev/services',
]);

function childGrantor(kind: ChildResource): Grantor {
  return SHIPPED_GRANTS.has(`${kind.group}/${kind.resource}`) ? 'scoby-controller' : 'registered';
}

export function registrationAccessNeeds(input: RegistrationAccessInput): AccessPlan {
  const { instance } = input;
  const resource = { group: instance.group, resource: instance.resource, grantor: 'registered' } as const;
  const needs: ResourceNeed[] = [{ ...resource, verbs: INSTANCE_VERBS }];
  const writes: WriteChoice[] = [
    { write: 'finalizers', need: { ...resource, verbs: ['patch'] }, required: input.finalizeHook },
  ];
  if (instance.statusSubresource) {
    writes.unshift({
      write: 'status',
      need: { ...resource, subresource: 'status', verbs: ['patch'] },
      required: true,
    });
  }
  const workload = new Set(input.workloadKinds.map((kind) => `${kind.group}/${kind.resource}`));
  for (const kind of input.workloadKinds) {
    needs.push({ ...kind, verbs: WORKLOAD_VERBS, grantor: childGrantor(kind) });
  }
  for (const kind of input.otherKinds) {
    if (workload.has(`${kind.group}/${kind.resource}`)) continue;
    needs.push({ ...kind, verbs: PRUNED_VERBS, grantor: childGrantor(kind) });
  }
  if (input.readsNamespaces) {
    needs.push({
      group: '',
      resource: 'namespaces',
      verbs: INSTANCE_VERBS,
      grantor: 'scoby-controller',
      clusterScoped: true,
    });
  }
  return { needs, writes };
}
