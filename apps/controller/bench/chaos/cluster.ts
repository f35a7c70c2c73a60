/**
 * The cluster of a chaos run: the in-memory API server in this process (its faults and request log
 * at hand), the bench's world (Scoby's CRD, the Mailer CRD and registration, namespaces, the flags
 * ConfigMap) plus a second registered CRD, Relay, whose registration may call a hook with the
 * `pre-reconcile` and `finalize` capabilities. Every client has a user of its own, so the request log
 * tells the controllers' requests from the harness's.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startApiServer, type InMemoryApiServer } from '@scoby/in-memory-apiserver';
import type { KubeObject } from '@scoby/kube-objects';
import { DynamicClient, type RequestOptions, type ResourceRef } from '@scoby/controller-runtime';
import { crdFor } from '../../test/support/cluster.ts';
import { INSTANCE_API_VERSION, INSTANCES, REGISTRATION, createWorld, registration } from '../world.ts';

/** A registered CRD whose instances the harness creates, changes and deletes. */
export interface Workload {
  registration: string;
  apiVersion: string;
  kind: string;
  resource: ResourceRef;
}

export const MAILERS: Workload = {
  registration: REGISTRATION,
  apiVersion: INSTANCE_API_VERSION,
  kind: 'Mailer',
  resource: INSTANCES,
};

export const RELAYS: Workload = {
  registration: 'relay',
  apiVersion: 'notify.example.com/v1',
  kind: 'Relay',
  resource: { group: 'notify.example.com', version: 'v1', resource: 'relays', namespaced: true },
};

export const REGISTRATIONS: ResourceRef = {
  group: 'scoby.triggermesh.io',
  version: 'v1alpha1',
  resource: 'crdregistrations',
  namespaced: false,
};
export const CRDS: ResourceRef = {
  group: 'apiextensions.k8s.io',
  version: 'v1',
  resource: 'customresourcedefinitions',
  namespaced: false,
};

const HARNESS_USER = 'chaos-harness';
const RESET_ATTEMPTS = 3;

/**
 * The harness's client sends a request again when the connection was reset under it: Node's HTTP
 * server closes keep-alive connections idle for 5 s, and a request may leave on one just then. The
 * harness must not fail a run over it (the controller's own client gets no such help).
 */
class HarnessClient extends DynamicClient {
  override async request<T>(method: string, path: string, options: RequestOptions = {}): Promise<T> {
    for (let attempt = 1; ; attempt++) {
      try {
        return await super.request<T>(method, path, options);
      } catch (error) {
        if (attempt >= RESET_ATTEMPTS || (error as NodeJS.ErrnoException).code !== 'ECONNRESET') throw error;
      }
    }
  }
}

/** Relays run as a one-replica Deployment without a Service; the hook sees every one of them. */
export function relayRegistration(hookUrl: string): KubeObject {
  return {
    apiVersion: 'scoby.triggermesh.io/v1alpha1',
    kind: 'CRDRegistration',
    metadata: { name: RELAYS.registration },
    spec: {
      crd: `${RELAYS.resource.resource}.${RELAYS.resource.group}`,
      workload: {
        fromImage: { repo: 'registry.example.com/relay:2.0.0' },
        formFactor: { deployment: { replicas: 1 } },
        parameterConfiguration: { global: { defaultPrefix: 'RELAY_' } },
      },
      // Short, so that a hanging hook costs the run seconds, not the default 15 s per call.
      hook: {
        version: 'v1',
        address: { uri: hookUrl },
        capabilities: ['pre-reconcile', 'finalize'],
        timeout: 'PT2S',
      },
    },
  };
}

export interface ChaosCluster {
  server: InMemoryApiServer;
  /** The harness's own client (user `chaos-harness`). */
  client: DynamicClient;
  workloads: Workload[];
  /** A kubeconfig file whose requests the server logs as `user`'s. */
  kubeconfigFile(user: string): Promise<string>;
  /** Creates a CRD and waits until the API server serves its kind. */
  createCrd(crd: KubeObject): Promise<void>;
  stop(): Promise<void>;
}

/** The world with the Mailer registration; with `hookUrl`, also the Relay registration and its CRD. */
export async function startChaosCluster(options: { hookUrl?: string } = {}): Promise<ChaosCluster> {
  const server = await startApiServer({ watchHistory: 100_000, requestLogLimit: 100_000 });
  const client = new HarnessClient(server.kubeConfig(HARNESS_USER));
  const directory = await mkdtemp(join(tmpdir(), 'scoby-chaos-'));
  const createCrd = async (crd: KubeObject) => {
    await client.create(CRDS, crd);
    const { group, names, versions } = crd.spec as {
      group: string;
      names: { kind: string };
      versions: { name: string }[];
    };
    const apiVersion = `${group}/${versions[0]?.name ?? ''}`;
    while ((await client.resourceFor(apiVersion, names.kind)) === undefined) await sleep(20);
  };
  await createWorld(client, 0, 1, registration());
  const workloads = [MAILERS];
  if (options.hookUrl !== undefined) {
    const { group, resource } = RELAYS.resource;
    await createCrd(crdFor({ group, kind: RELAYS.kind, plural: resource }));
    await client.create(REGISTRATIONS, relayRegistration(options.hookUrl));
    workloads.push(RELAYS);
  }
  return {
    server,
    client,
    workloads,
    async kubeconfigFile(user) {
      const file = join(directory, `${user}.kubeconfig`);
      await writeFile(file, server.kubeConfig(user).exportConfig(), { mode: 0o600 });
      return file;
    },
    createCrd,
    async stop() {
      client.close();
      await server.stop();
      await rm(directory, { recursive: true, force: true });
    },
  };
}

export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
