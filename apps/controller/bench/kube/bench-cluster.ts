/**
 * A fresh real control plane for one side of the bench: kwok nodes enough for every pod of N
 * Deployments, the bench world (world.ts), Scoby's RBAC as deploy/10-rbac.yaml ships it with the
 * ClusterRole an admin writes for the registered CRD, a ServiceAccount with cluster-admin for a peer
 * controller, and the FlowSchemas that count the measured side's requests (measured-requests.ts).
 */
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { KubeConfig } from '@kubernetes/client-node';
import type { ControlPlane } from '@scoby/kube-control-plane';
import type { KubeObject } from '@scoby/kube-objects';
import { DynamicClient } from '@scoby/controller-runtime';
import { readObjects } from '../../src/cli/documents.ts';
import { applyObjects } from '../../src/cli/run/apply-objects.ts';
import { registeredKindRole } from '../../test/real-cluster/support/grants.ts';
import { SCOBY_NAMESPACE, createWorld } from '../world.ts';
import { measuringFlowSchemas, type MeasuredSubject } from './measured-requests.ts';

const DEPLOY_DIR = fileURLToPath(new URL('../../../../deploy/', import.meta.url));
export const CONTROLLER_ACCOUNT: MeasuredSubject = { namespace: SCOBY_NAMESPACE, name: 'scoby-controller' };
export const PEER_ACCOUNT: MeasuredSubject = { namespace: SCOBY_NAMESPACE, name: 'bench-peer' };
/** The registration's replicas (world.ts); kwok's fake nodes take 110 pods each. */
const PODS_PER_INSTANCE = 2;
const PODS_PER_NODE = 100;

export interface BenchCluster {
  plane: ControlPlane;
  /** The harness's client (admin, system:masters: never counted). */
  admin: DynamicClient;
  adminKubeConfig: KubeConfig;
  /** Scoby's ServiceAccount with exactly the permissions it ships with (the controller and the floor). */
  controllerKubeConfig: KubeConfig;
  /** A kubeconfig file of a ServiceAccount bound to cluster-admin, for a peer controller. */
  peerKubeconfigPath: string;
  stop(): Promise<void>;
}

function kubeConfigOf(yaml: string): KubeConfig {
  const kubeConfig = new KubeConfig();
  kubeConfig.loadFromString(yaml);
  return kubeConfig;
}

export async function rbacManifests(): Promise<KubeObject[]> {
  const reading = await readObjects('10-rbac.yaml', DEPLOY_DIR);
  if (!reading.ok) throw new Error(reading.message);
  return reading.objects;
}

function peerClusterAdmin(): KubeObject {
  return {
    apiVersion: 'rbac.authorization.k8s.io/v1',
    kind: 'ClusterRoleBinding',
    metadata: { name: 'bench-peer-cluster-admin' },
    roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'cluster-admin' },
    subjects: [{ kind: 'ServiceAccount', ...PEER_ACCOUNT }],
  } as KubeObject;
}

export async function startBenchCluster(options: {
  count: number;
  concurrency: number;
  /** kube-controller-manager's and kube-scheduler's client rate limit. */
  kubeApiQps: number;
  registration?: KubeObject;
  log(line: string): void;
}): Promise<BenchCluster> {
  const nodes = Math.ceil((options.count * PODS_PER_INSTANCE) / PODS_PER_NODE) + 1;
  // Imported when needed, as `scoby run --embedded` does (the module boundary rule asks for it).
  const { startControlPlane } = await import('@scoby/kube-control-plane');
  const plane = await startControlPlane({
    nodes,
    kubeApiQps: options.kubeApiQps,
    log: options.log,
    startTimeoutMs: 300_000,
  });
  const adminKubeConfig = kubeConfigOf(plane.kubeconfigYaml);
  const admin = new DynamicClient(adminKubeConfig);
  const stop = async () => {
    admin.close();
    await plane.stop();
  };
  try {
    await createWorld(admin, options.count, options.concurrency * 4, options.registration);
    await applyObjects(admin, [
      ...(await rbacManifests()),
      registeredKindRole('notify.example.com', 'mailers'),
      peerClusterAdmin(),
      ...measuringFlowSchemas([CONTROLLER_ACCOUNT, PEER_ACCOUNT]),
    ]);
    const controllerKubeConfig = kubeConfigOf(
      await plane.serviceAccountKubeconfig(CONTROLLER_ACCOUNT.namespace, CONTROLLER_ACCOUNT.name),
    );
    const peerKubeconfigPath = join(await mkdtemp(join(tmpdir(), 'scoby-bench-peer-')), 'kubeconfig');
    await writeFile(
      peerKubeconfigPath,
      await plane.serviceAccountKubeconfig(PEER_ACCOUNT.namespace, PEER_ACCOUNT.name),
      { mode: 0o600 },
    );
    await waitForAggregatedRole(admin);
    return { plane, admin, adminKubeConfig, controllerKubeConfig, peerKubeconfigPath, stop };
  } catch (error) {
    await stop();
    throw error;
  }
}

/**
 * kube-controller-manager copies the registered kind's rules into Scoby's aggregated ClusterRole a
 * moment after it is created; a controller started before would find the registration forbidden.
 */
export async function waitForAggregatedRole(admin: DynamicClient): Promise<void> {
  const roles = {
    group: 'rbac.authorization.k8s.io',
    version: 'v1',
    resource: 'clusterroles',
    namespaced: false,
  };
  for (let attempt = 0; attempt < 300; attempt++) {
    const role = await admin.get(roles, undefined, 'scoby-controller-crdregistrations');
    if (((role.rules as unknown[] | undefined) ?? []).length > 0) return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error('scoby-controller-crdregistrations was not aggregated within 30 s');
}
