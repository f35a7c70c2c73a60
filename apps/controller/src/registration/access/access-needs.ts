/**
 * What a registration's controller does on the cluster, as RBAC sees it: the verbs on the registered
 * resource, its status and every child kind. Checked before the controller starts, so a missing grant
 * is a precise condition on the registration instead of 403s in the log (docs/migration.md).
 */

/** Which ClusterRole grants a resource: the one Scoby ships, or one a cluster admin labels for it. */
export type Grantor = 'scoby-controller' | 'registered';

export interface ResourceNeed {
  group: string;
  /** Plural, e.g. `deployments`. */
  resource: string;
  subresource?: string;
  verbs: readonly string[];
  grantor: Grantor;
}

export interface ChildResource {
  group: string;
  resource: string;
}

export interface RegistrationAccessInput {
  instance: { group: string; resource: string; statusSubresource: boolean };
  /** Kinds of the registration's form factor: read, created, applied and pruned. */
  workloadKinds: readonly ChildResource[];
  /** Kinds of every other served form factor: watched and pruned (docs/spec/children-and-status.md §6). */
  otherKinds: readonly ChildResource[];
}

/** Instances are read through informers and a get on conflict; finalizers and status are merge patches. */
const INSTANCE_VERBS = ['get', 'list', 'watch', 'patch'];
const STATUS_VERBS = ['patch'];
/** A missing child is created with POST, a changed one applied (PATCH), an unwanted one deleted. */
const WORKLOAD_VERBS = ['get', 'list', 'watch', 'create', 'patch', 'delete'];
const PRUNED_VERBS = ['list', 'watch', 'delete'];

/** The child kinds deploy/10-rbac.yaml grants in the `scoby-controller` ClusterRole. */
const SHIPPED_GRANTS = new Set(['apps/deployments', '/services', 'serving.knative.dev/services']);

function childGrantor(kind: ChildResource): Grantor {
  return SHIPPED_GRANTS.has(`${kind.group}/${kind.resource}`) ? 'scoby-controller' : 'registered';
}

export function registrationAccessNeeds(input: RegistrationAccessInput): ResourceNeed[] {
  const { instance } = input;
  const needs: ResourceNeed[] = [
    { group: instance.group, resource: instance.resource, verbs: INSTANCE_VERBS, grantor: 'registered' },
  ];
  if (instance.statusSubresource) {
    needs.push({
      group: instance.group,
      resource: instance.resource,
      subresource: 'status',
      verbs: STATUS_VERBS,
      grantor: 'registered',
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
  return needs;
}
