/**
 * Helpers for integration tests that drive registrations and instances through a cluster's verbs:
 * object builders, condition and container accessors, waits on conditions, and request-log filters.
 */
import type { RequestLogEntry } from '@scoby/in-memory-apiserver';
import type { KubeObject } from '@scoby/kube-objects';
import type { ControllerMetrics } from '../../src/config/index.ts';
import { crdFor, type ClusterVerbs, type ObjectTarget } from './cluster.ts';

export const REGISTRATION_API = 'scoby.triggermesh.io/v1alpha1';

export interface ConditionView {
  type: string;
  status: string;
  reason: string;
  message: string;
}

export function registrationObject(name: string, spec: Record<string, unknown>): KubeObject {
  return { apiVersion: REGISTRATION_API, kind: 'CRDRegistration', metadata: { name }, spec };
}

export function namespaceObject(name: string): KubeObject {
  return { apiVersion: 'v1', kind: 'Namespace', metadata: { name } };
}

export function configMapObject(namespace: string, name: string, data: Record<string, string>): KubeObject {
  return { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name, namespace }, data };
}

/** The conditions of an object without lastTransitionTime (asserted separately where it matters). */
export function conditionsOf(object: KubeObject | undefined): ConditionView[] {
  const conditions = (object?.status as { conditions?: ConditionView[] } | undefined)?.conditions ?? [];
  return conditions.map(({ type, status, reason, message }) => ({ type, status, reason, message }));
}

export function conditionOf(object: KubeObject | undefined, type: string): ConditionView | undefined {
  return conditionsOf(object).find((condition) => condition.type === type);
}

/** Waits until the object's condition `type` has `status` (and `reason`, when given); returns the object. */
export function waitForCondition(
  cluster: ClusterVerbs,
  target: ObjectTarget,
  type: string,
  status: string,
  reason?: string,
  timeoutMs?: number,
): Promise<KubeObject> {
  return cluster.waitFor(
    `${target.kind} ${target.namespace ?? ''}/${target.name} ${type}=${status}${reason ? `/${reason}` : ''}`,
    async () => {
      const object = await cluster.get(target.apiVersion, target.kind, target.namespace, target.name);
      const condition = conditionOf(object, type);
      return condition?.status === status && (reason === undefined || condition.reason === reason)
        ? object
        : undefined;
    },
    timeoutMs,
  );
}

/**
 * Updates registration `name` with `edit`'s spec: the one it returns, or the copy it was handed and
 * changed in place.
 */
export async function editRegistration(
  cluster: ClusterVerbs,
  name: string,
  edit: (spec: Record<string, unknown>) => Record<string, unknown> | void,
): Promise<void> {
  await cluster.edit(registrationTarget(name), (current) => {
    const spec = current.spec as Record<string, unknown>;
    return { ...current, spec: edit(spec) ?? spec };
  });
}

export function registrationTarget(name: string) {
  return { apiVersion: REGISTRATION_API, kind: 'CRDRegistration', name };
}

/** The pod spec of a Deployment or Knative Service. */
export function podSpecOf(workload: KubeObject | undefined): Record<string, unknown> {
  return (
    (workload?.spec as { template?: { spec?: Record<string, unknown> } } | undefined)?.template?.spec ?? {}
  );
}

export function adapterOf(workload: KubeObject | undefined): Record<string, unknown> {
  const containers = (podSpecOf(workload).containers ?? []) as Record<string, unknown>[];
  return containers[0] ?? {};
}

/** Requests that change something (everything but GET), optionally only those whose path contains `fragment`. */
export function writesIn(
  entries: readonly RequestLogEntry[],
  fragment = '',
): { method: string; path: string }[] {
  // A SelfSubjectAccessReview is a POST that changes nothing: a question, not a write.
  return entries
    .filter(
      (entry) =>
        entry.method !== 'GET' &&
        !entry.path.startsWith('/apis/authorization.k8s.io/') &&
        entry.path.includes(fragment),
    )
    .map(({ method, path }) => ({ method, path }));
}

/** The samples of one metric in a controller's registry; none while it has recorded nothing. */
export async function metricSamples(
  metrics: ControllerMetrics,
  name: string,
): Promise<{ labels: Record<string, string | number | undefined>; value: number }[]> {
  const metric = (await metrics.registry.getMetricsAsJSON()).find((entry) => entry.name === name);
  return (metric?.values ?? []).map(({ labels, value }) => ({ labels: { ...labels }, value }));
}

/** Finished reconciles of one registration's instances (controller_runtime_reconcile_total summed over results). */
export async function reconcileCount(metrics: ControllerMetrics, registration: string): Promise<number> {
  return (await metricSamples(metrics, 'controller_runtime_reconcile_total'))
    .filter((value) => value.labels.controller === registration)
    .reduce((sum, value) => sum + value.value, 0);
}

export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** Event reason, type and message for assertions, in creation order. */
export function eventViews(
  events: readonly KubeObject[],
): { type: string; reason: string; message: string }[] {
  return events.map((event) => ({
    type: String(event.type),
    reason: String(event.reason),
    message: String(event.message),
  }));
}

/**
 * The set-up most tests start from: namespace `namespace`, a CRD `<plural>.<group>` and a registration
 * `name` running `registry.example.com/<name>:1` for it, waited for until Ready.
 */
export async function registerKind(
  cluster: ClusterVerbs,
  kind: { namespace: string; group: string; kind: string; plural: string; registration: string },
  timeoutMs?: number,
): Promise<void> {
  await cluster.apply(namespaceObject(kind.namespace));
  await cluster.apply(crdFor({ group: kind.group, kind: kind.kind, plural: kind.plural }));
  await cluster.apply(
    registrationObject(kind.registration, {
      crd: `${kind.plural}.${kind.group}`,
      workload: { fromImage: { repo: `registry.example.com/${kind.registration}:1` } },
    }),
  );
  await waitForCondition(
    cluster,
    registrationTarget(kind.registration),
    'Ready',
    'True',
    undefined,
    timeoutMs,
  );
}
