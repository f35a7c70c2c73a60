/**
 * A real cluster for controller tests: the in-memory API server over HTTP, the Scoby CRD installed,
 * and the controller running against it through client-node, as in production.
 */
import { startApiServer, type ApiServerOptions, type InMemoryApiServer } from '@scoby/in-memory-apiserver';
import type { FormFactorPlugin } from '@scoby/formfactor';
import type { KubeObject } from '@scoby/kube-objects';
import { crdManifest } from '@scoby/registration';
import type { KubeConfig } from '@kubernetes/client-node';
import pino from 'pino';
import { DynamicClient, type ResourceRef } from '@scoby/controller-runtime';
import { startProcess, type ProcessOptions, type RunningProcess } from '../../src/process/manager.ts';

/** One object, by what a test knows of it. */
export interface ObjectTarget {
  apiVersion: string;
  kind: string;
  namespace?: string;
  name: string;
}

/** What a test does to a cluster as its user (an admin): any server, any kind. */
export interface ClusterVerbs {
  client: DynamicClient;
  /** Creates the object, or replaces the one there (from a fresh read again if a controller wrote it meanwhile). */
  apply(object: KubeObject): Promise<KubeObject>;
  /** PUT of an existing object (its resourceVersion guards the write). */
  update(object: KubeObject): Promise<KubeObject>;
  /**
   * Reads the object, changes a copy and PUTs it guarded by the resourceVersion read. A controller
   * writes the objects a test edits (their status, their finalizers) at any time, so a 409 starts
   * again from a fresh read, as client-go's retry.RetryOnConflict does.
   */
  edit(
    target: ObjectTarget,
    change: (object: KubeObject) => KubeObject | void | Promise<KubeObject | void>,
  ): Promise<KubeObject>;
  get(
    apiVersion: string,
    kind: string,
    namespace: string | undefined,
    name: string,
  ): Promise<KubeObject | undefined>;
  list(apiVersion: string, kind: string, namespace?: string): Promise<KubeObject[]>;
  remove(object: KubeObject): Promise<void>;
  events(namespace: string, objectName?: string): Promise<KubeObject[]>;
  waitFor<T>(
    description: string,
    probe: () => Promise<T | undefined | false>,
    timeoutMs?: number,
  ): Promise<T>;
  stop(): Promise<void>;
}

export interface TestCluster extends ClusterVerbs {
  server: InMemoryApiServer;
  controller: RunningProcess;
}

export interface ClusterOptions {
  server?: ApiServerOptions;
  plugins?: FormFactorPlugin[];
  /** The in-process hooks the operator allowed (docs/spec/hooks-v1.md §10). */
  hookModules?: ProcessOptions['hookModules'];
  scobyNamespace?: string;
  workingNamespaces?: string[];
  concurrency?: number;
  /** Lease-based leader election (Lease in the Scoby namespace); off when absent. */
  leaderElection?: { leaseName: string; leaseDurationMs: number; mode?: 'leader' | 'active-active' };
  /** The controller's user (bearer token): the request log and black holes tell controllers apart by it. */
  user?: string;
  /** Timeouts and bounds of the controller process. */
  limits?: Pick<
    ProcessOptions,
    | 'requestTimeoutMs'
    | 'watchSilenceMs'
    | 'reconcileTimeoutMs'
    | 'stallAfterMs'
    | 'resyncPeriodDivisor'
    | 'syncWarnAfterMs'
  >;
  logger?: ProcessOptions['logger'];
}

export async function startTestCluster(options: ClusterOptions = {}): Promise<TestCluster> {
  const cluster = await startTestServer(options);
  const controller = startClusterController(cluster.server, options);
  return {
    ...cluster,
    controller,
    async stop() {
      await controller.stop();
      await cluster.stop();
    },
  };
}

/** The cluster without its controller, for tests that write before a controller starts (startClusterController). */
export async function startTestServer(
  options: Pick<ClusterOptions, 'server' | 'scobyNamespace'> = {},
): Promise<Omit<TestCluster, 'controller'>> {
  const server = await startApiServer(options.server);
  const verbs = clusterVerbs(new DynamicClient(server.kubeConfig()));
  const cluster = {
    ...verbs,
    server,
    async stop() {
      await verbs.stop();
      await server.stop();
    },
  };
  await cluster.apply(crdManifest());
  await cluster.apply({
    apiVersion: 'v1',
    kind: 'Namespace',
    metadata: { name: options.scobyNamespace ?? 'scoby-system' },
  });
  return cluster;
}

/**
 * Twice client-go's retry.DefaultRetry (five attempts, 10 ms apart): a test would rather wait than
 * fail on contention it did not cause, as with four replicas writing statuses.
 */
const CONFLICT_ATTEMPTS = 10;
const CONFLICT_PAUSE_MS = 10;

/** The verbs over a client; `stop` closes the client. */
export function clusterVerbs(client: DynamicClient): ClusterVerbs {
  const resource = async (apiVersion: string, kind: string): Promise<ResourceRef> => {
    const ref = await client.resourceFor(apiVersion, kind);
    if (!ref) throw new Error(`no resource for ${apiVersion} ${kind}`);
    return ref;
  };
  const put = (ref: ResourceRef, object: KubeObject): Promise<KubeObject> =>
    client.request('PUT', `${pathOf(ref, object.metadata.namespace)}/${object.metadata.name}`, {
      body: object,
    });
  const edit: ClusterVerbs['edit'] = async (target, change) => {
    const ref = await resource(target.apiVersion, target.kind);
    for (let attempt = 1; ; attempt++) {
      const copy = structuredClone(await client.get(ref, target.namespace, target.name));
      try {
        return await put(ref, (await change(copy)) ?? copy);
      } catch (error) {
        if ((error as { code?: number }).code !== 409 || attempt === CONFLICT_ATTEMPTS) throw error;
        await new Promise((resolve) => setTimeout(resolve, CONFLICT_PAUSE_MS));
      }
    }
  };
  return {
    client,
    async apply(object) {
      const ref = await resource(object.apiVersion, object.kind);
      try {
        return await client.create(ref, object);
      } catch (error) {
        if ((error as { code?: number }).code !== 409) throw error;
      }
      const { apiVersion, kind, metadata } = object;
      const target = { apiVersion, kind, namespace: metadata.namespace, name: metadata.name ?? '' };
      return edit(target, (current) => ({
        ...object,
        metadata: { ...object.metadata, resourceVersion: current.metadata.resourceVersion },
      }));
    },
    async update(object) {
      return put(await resource(object.apiVersion, object.kind), object);
    },
    edit,
    async get(apiVersion, kind, namespace, name) {
      try {
        return await client.get(await resource(apiVersion, kind), namespace, name);
      } catch (error) {
        if ((error as { code?: number }).code === 404) return undefined;
        throw error;
      }
    },
    async list(apiVersion, kind, namespace) {
      return (await client.list(await resource(apiVersion, kind), namespace)).items;
    },
    async remove(object) {
      await client.delete(
        await resource(object.apiVersion, object.kind),
        object.metadata.namespace,
        object.metadata.name ?? '',
      );
    },
    async events(namespace, objectName) {
      const items = (
        await client.list({ group: '', version: 'v1', resource: 'events', namespaced: true }, namespace)
      ).items;
      return objectName === undefined
        ? items
        : items.filter(
            (event) => (event.involvedObject as { name?: string } | undefined)?.name === objectName,
          );
    },
    async waitFor(description, probe, timeoutMs = 10_000) {
      const deadline = Date.now() + timeoutMs;
      let last: unknown;
      for (;;) {
        try {
          const value = await probe();
          if (value !== undefined && value !== false) return value as never;
        } catch (error) {
          last = error;
        }
        if (Date.now() > deadline) {
          throw new Error(`timed out waiting for ${description}${last ? `: ${String(last)}` : ''}`);
        }
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    },
    async stop() {
      client.close();
    },
  };
}

/**
 * A controller process against the cluster's API server, configured from the same options as the
 * cluster's own; `kubeConfig` reaches it another way (through a proxy) as the same user.
 */
export function startClusterController(
  server: InMemoryApiServer,
  options: ClusterOptions = {},
  kubeConfig: KubeConfig = server.kubeConfig(options.user),
): RunningProcess {
  const scobyNamespace = options.scobyNamespace ?? 'scoby-system';
  const election = options.leaderElection;
  return startProcess({
    kubeConfig,
    scobyNamespace,
    workingNamespaces: options.workingNamespaces,
    clusterDomain: 'cluster.local',
    concurrency: options.concurrency ?? 4,
    plugins: options.plugins ?? [],
    ...(options.hookModules === undefined ? {} : { hookModules: options.hookModules }),
    leaderElection: election
      ? {
          enabled: true,
          mode: election.mode ?? 'leader',
          namespace: scobyNamespace,
          leaseName: election.leaseName,
        }
      : { enabled: false },
    ...(election ? { leaseDurationMs: election.leaseDurationMs } : {}),
    ...options.limits,
    logger: options.logger ?? pino({ level: process.env.LOG_LEVEL ?? 'silent' }),
  });
}

function pathOf(ref: ResourceRef, namespace?: string): string {
  const base = ref.group === '' ? `/api/${ref.version}` : `/apis/${ref.group}/${ref.version}`;
  return `${base}${ref.namespaced && namespace ? `/namespaces/${namespace}` : ''}/${ref.resource}`;
}

/** A namespaced CRD with a status subresource whose status preserves unknown fields. */
export function crdFor(options: {
  group: string;
  kind: string;
  plural: string;
  versions?: string[];
  status?: 'preserve' | 'none' | Record<string, unknown>;
  scope?: 'Namespaced' | 'Cluster';
}): KubeObject {
  const status = options.status ?? 'preserve';
  const statusSchema =
    status === 'preserve'
      ? { type: 'object', 'x-kubernetes-preserve-unknown-fields': true }
      : status === 'none'
        ? undefined
        : status;
  return {
    apiVersion: 'apiextensions.k8s.io/v1',
    kind: 'CustomResourceDefinition',
    metadata: { name: `${options.plural}.${options.group}` },
    spec: {
      group: options.group,
      scope: options.scope ?? 'Namespaced',
      names: {
        kind: options.kind,
        plural: options.plural,
        singular: options.kind.toLowerCase(),
        listKind: `${options.kind}List`,
      },
      versions: (options.versions ?? ['v1']).map((name, index) => ({
        name,
        served: true,
        storage: index === 0,
        ...(statusSchema ? { subresources: { status: {} } } : {}),
        schema: {
          openAPIV3Schema: {
            type: 'object',
            properties: {
              spec: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true },
              ...(statusSchema ? { status: statusSchema } : {}),
            },
          },
        },
      })),
    },
  };
}
