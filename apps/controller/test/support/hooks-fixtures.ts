/** Registrations with hooks, and readers for what hook tests assert on (conditions, Events, metrics). */
import type { KubeObject } from '@scoby/kube-objects';
import pino from 'pino';
import { startProcess, type ProcessOptions, type RunningProcess } from '../../src/process/manager.ts';
import { crdFor, type ClusterVerbs, type ObjectTarget, type TestCluster } from './cluster.ts';
import { eventViews, REGISTRATION_API, registrationTarget, waitForCondition } from './scoby.ts';

export interface HookSpec {
  address?: { uri?: string; ref?: { apiVersion: string; kind: string; name: string; namespace: string } };
  /** An in-process hook instead of address (docs/spec/hooks-v1.md §10). */
  module?: string;
  capabilities: string[];
  timeout?: string;
  failurePolicy?: string;
}

/** A Deployment + Service registration (port 80 → 8080) for `crd`, with an optional hook. */
export function hookedRegistration(
  name: string,
  crd: string,
  options: {
    hook?: HookSpec;
    conditionsFromHook?: string[];
    statusAdd?: { path: string; valueFrom: { path: string } }[];
  } = {},
): KubeObject {
  const statusConfiguration = {
    ...(options.conditionsFromHook
      ? { conditionsFromHook: options.conditionsFromHook.map((type) => ({ type })) }
      : {}),
    ...(options.statusAdd ? { add: options.statusAdd } : {}),
  };
  return {
    apiVersion: REGISTRATION_API,
    kind: 'CRDRegistration',
    metadata: { name },
    spec: {
      crd,
      workload: {
        fromImage: { repo: 'registry.example.com/adapter:1.0' },
        formFactor: { deployment: { replicas: 1, service: { port: 80, targetPort: 8080 } } },
        ...(Object.keys(statusConfiguration).length > 0 ? { statusConfiguration } : {}),
      },
      ...(options.hook ? { hook: { version: 'v1', ...options.hook } } : {}),
    },
  };
}

/**
 * A CRD `<plural>.<plural>.example.com` of kind `kind`, and a registration named `plural` for it,
 * with `hook` when given.
 */
export async function registerExample(
  cluster: ClusterVerbs,
  kind: string,
  plural: string,
  hook?: HookSpec,
): Promise<void> {
  const group = `${plural}.example.com`;
  await cluster.apply(crdFor({ group, kind, plural }));
  await cluster.apply(hookedRegistration(plural, `${plural}.${group}`, hook === undefined ? {} : { hook }));
}

/** Events of one object as {type, reason, message}, in creation order. */
export async function eventsOf(cluster: ClusterVerbs, namespace: string, name: string): Promise<EventView[]> {
  return eventViews(await cluster.events(namespace, name));
}

export type EventView = ReturnType<typeof eventViews>[number];

/** A counter of Scoby's with the label `controller` (the registration), 0 before its first count. */
async function registrationCounter(
  controller: RunningProcess,
  metricName: string,
  registration: string,
): Promise<number> {
  const metric = await controller.metrics.registry.getSingleMetric(metricName)?.get();
  return metric?.values.find((value) => value.labels.controller === registration)?.value ?? 0;
}

/** The failed calls of scoby_hook_calls_total{controller}: every outcome but success. */
export async function hookFailures(controller: RunningProcess, registration: string): Promise<number> {
  const metric = await controller.metrics.registry.getSingleMetric('scoby_hook_calls_total')?.get();
  return (metric?.values ?? [])
    .filter(({ labels }) => labels.controller === registration && labels.outcome !== 'success')
    .reduce((sum, { value }) => sum + value, 0);
}

/** scoby_hook_failures_ignored_total{controller}. */
export const hookFailuresIgnored = (controller: RunningProcess, registration: string): Promise<number> =>
  registrationCounter(controller, 'scoby_hook_failures_ignored_total', registration);

/** The controller's API requests by method, from rest_client_requests_total (watches are not counted). */
export async function requestsByMethod(controller: RunningProcess): Promise<Record<string, number>> {
  const metric = await controller.metrics.registry.getSingleMetric('rest_client_requests_total')?.get();
  const requests: Record<string, number> = {};
  for (const { labels, value } of metric?.values ?? []) {
    const method = String(labels.method);
    requests[method] = (requests[method] ?? 0) + value;
  }
  return requests;
}

/** Waits for a registration whose Ready condition has the given status. */
export function registrationReady(cluster: ClusterVerbs, name: string, status = 'True'): Promise<KubeObject> {
  return waitForCondition(cluster, registrationTarget(name), 'Ready', status);
}

/** Waits until `probe` accepts the instance, and returns it. */
export function instanceWhere(
  cluster: ClusterVerbs,
  apiVersion: string,
  kind: string,
  namespace: string,
  name: string,
  description: string,
  probe: (object: KubeObject) => boolean,
  timeoutMs?: number,
): Promise<KubeObject> {
  return cluster.waitFor(
    `${kind} ${namespace}/${name}: ${description}`,
    async () => {
      const object = await cluster.get(apiVersion, kind, namespace, name);
      return object && probe(object) ? object : undefined;
    },
    timeoutMs,
  );
}

/**
 * Replaces the cluster's controller by one started with `overrides` (the shared test cluster does
 * not expose every controller option). Stop the returned controller before the cluster.
 */
export async function replaceController(
  cluster: TestCluster,
  overrides: Partial<ProcessOptions>,
): Promise<RunningProcess> {
  await cluster.controller.stop();
  return startProcess({
    kubeConfig: cluster.server.kubeConfig(),
    scobyNamespace: 'scoby-system',
    clusterDomain: 'cluster.local',
    concurrency: 4,
    leaderElection: { enabled: false },
    logger: pino({ level: process.env.LOG_LEVEL ?? 'silent' }),
    ...overrides,
  });
}

export interface InstanceIdentity {
  apiVersion: string;
  kind: string;
  namespace: string;
  name: string;
  uid: string;
}

/**
 * The children map the Deployment form factor builds for a `hookedRegistration` instance
 * (docs/spec/children-and-status.md §3–§4), exactly as Scoby sends it to a pre-reconcile hook.
 */
export function expectedChildren(
  registration: string,
  instance: InstanceIdentity,
  env: Record<string, unknown>[],
): Record<string, KubeObject> {
  const selector = {
    'app.kubernetes.io/name': registration,
    'app.kubernetes.io/instance': instance.name,
    'app.kubernetes.io/component': 'workload',
  };
  const metadata = {
    name: `${registration}-${instance.name}`,
    namespace: instance.namespace,
    labels: {
      ...selector,
      'app.kubernetes.io/part-of': 'scoby-component',
      'app.kubernetes.io/managed-by': 'scoby-controller',
    },
    ownerReferences: [
      {
        apiVersion: instance.apiVersion,
        kind: instance.kind,
        name: instance.name,
        uid: instance.uid,
        controller: true,
        blockOwnerDeletion: true,
      },
    ],
  };
  return {
    deployment: {
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      metadata,
      spec: {
        replicas: 1,
        selector: { matchLabels: selector },
        template: {
          metadata: { labels: selector },
          spec: {
            containers: [
              {
                name: 'adapter',
                image: 'registry.example.com/adapter:1.0',
                env,
                terminationMessagePolicy: 'FallbackToLogsOnError',
                securityContext: { allowPrivilegeEscalation: false, readOnlyRootFilesystem: true },
              },
            ],
          },
        },
      },
    },
    service: {
      apiVersion: 'v1',
      kind: 'Service',
      metadata,
      spec: { selector, ports: [{ port: 80, targetPort: 8080, protocol: 'TCP' }] },
    },
  };
}

/**
 * The bodies Scoby sent to create (POST to the collection) or server-side apply one object, oldest
 * first; `resourcePath` is the object's path.
 */
export function writtenBodies(cluster: TestCluster, resourcePath: string): KubeObject[] {
  const slash = resourcePath.lastIndexOf('/');
  const collection = resourcePath.slice(0, slash);
  const name = resourcePath.slice(slash + 1);
  return cluster.server.requestLog
    .entries()
    .filter(
      (entry) =>
        (entry.method === 'POST' &&
          entry.path === collection &&
          (entry.body as KubeObject | undefined)?.metadata.name === name) ||
        (entry.method === 'PATCH' &&
          entry.path === resourcePath &&
          entry.contentType === 'application/apply-patch+yaml'),
    )
    .map((entry) => entry.body as KubeObject);
}

/** A JSON merge patch of an object (no resourceVersion, so racing status writes cannot make it conflict). */
export async function mergePatch(
  cluster: Pick<TestCluster, 'client'>,
  target: ObjectTarget,
  patch: Record<string, unknown>,
  subresource?: 'status',
): Promise<KubeObject> {
  const resource = await cluster.client.resourceFor(target.apiVersion, target.kind);
  if (!resource) throw new Error(`no resource for ${target.apiVersion} ${target.kind}`);
  return cluster.client.patch(
    resource,
    target.namespace,
    target.name,
    patch,
    subresource ? { subresource } : {},
  );
}

/** The change of each count from `before` to `after`, leaving out what did not change. */
export function countsSince(
  before: Record<string, number>,
  after: Record<string, number>,
): Record<string, number> {
  return Object.fromEntries(
    Object.entries(after)
      .map(([key, count]) => [key, count - (before[key] ?? 0)] as const)
      .filter(([, delta]) => delta !== 0),
  );
}
