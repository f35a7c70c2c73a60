/**
 * The fault bench's cluster: the real control plane (its audit log keeps the replicas' writes of
 * children and instances with the object answered), Scoby's CRD and RBAC as deploy/10-rbac.yaml ships
 * them, the world of world.ts with its hook, Toxiproxy with one proxy per replica in front of the API
 * server, and the replicas: the bundle the image runs (dist/scoby.mjs) with the chart's args and env,
 * active-active, each as a ServiceAccount of its own bound to Scoby's roles.
 */
import { readFileSync } from 'node:fs';
import { copyFile, mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { KubeConfig } from '@kubernetes/client-node';
import {
  AuditTail,
  Reaper,
  startControlPlane,
  startToxiproxy,
  type ControlPlane,
  type ToxicProxy,
  type Toxiproxy,
} from '@scoby/kube-control-plane';
import type { KubeObject } from '@scoby/kube-objects';
import { crdManifest } from '@scoby/registration';
import { DynamicClient } from '@scoby/controller-runtime';
import { applyObjects } from '../../src/cli/run/apply-objects.ts';
import { clusterVerbs, type ClusterVerbs } from '../../test/support/cluster.ts';
import { startScriptedHook, type ScriptedHook } from '../../test/support/hooks-server.ts';
import {
  renderChartContainer,
  type ChartContainer,
} from '../../test/real-cluster/support/chart-container.ts';
import {
  ensureReplicaIdentities,
  replicaKubeconfig,
  replicaToken,
  replicaUser,
} from '../../test/real-cluster/support/replica-identities.ts';
import { startReplicaProcess, type ReplicaProcess } from '../../test/real-cluster/support/replica-process.ts';
import { rbacManifests, waitForAggregatedRole } from '../kube/bench-cluster.ts';
import { CRDS, NAMESPACE, NAMESPACES, REGISTRATIONS, SCOBY_NAMESPACE } from '../world.ts';
import { benchHook, crds, GROUP, kindRoles, registrations, WORKLOADS, type BenchHook } from './world.ts';

/** One replica: its process (replaced when it is killed and started again) and its proxy. */
export interface FaultReplica {
  name: string;
  user: string;
  proxy: ToxicProxy;
  current: ReplicaProcess;
  /** Restarts after a kill, with the same ServiceAccount and proxy. */
  starts: number;
}

export interface FaultCluster {
  plane: ControlPlane;
  admin: DynamicClient;
  verbs: ClusterVerbs;
  toxiproxy: Toxiproxy;
  hook: BenchHook;
  hookServer: ScriptedHook;
  replicas: FaultReplica[];
  audit: AuditTail;
  /** SIGKILL, as a crashed pod; resolves once it has exited. */
  killReplica(replica: FaultReplica): Promise<void>;
  /** A new process for the replica (its pod comes back). */
  startReplica(replica: FaultReplica): Promise<void>;
  /** The replicas' resident set sizes now, MiB (0 for one not running). */
  rssMiB(): number[];
  /**
   * Copies what a broken run needs explaining into `folder`, which outlives the control plane's:
   * the audit log and each replica's log (every process it ran, JSON lines).
   */
  keepEvidence(folder: string): Promise<void>;
  stop(): Promise<void>;
}

/** kwok runs 110 pods a node. */
const PODS_PER_NODE = 100;

function auditedBodies() {
  const plurals = WORKLOADS.map((each) => each.resource.resource);
  return [
    { group: 'apps', resources: ['deployments'] },
    { group: '', resources: ['services'] },
    { group: GROUP, resources: [...plurals, ...plurals.map((plural) => `${plural}/status`)] },
  ];
}

function kubeConfigOf(yaml: string): KubeConfig {
  const kubeConfig = new KubeConfig();
  kubeConfig.loadFromString(yaml);
  return kubeConfig;
}

/** Its process has neither exited nor been ended by a signal. */
export function running(replica: FaultReplica): boolean {
  const { exitCode, signalCode } = replica.current.process;
  return exitCode === null && signalCode === null;
}

export function rssOf(pid: number | undefined): number {
  if (pid === undefined) return 0;
  try {
    const line = /^VmRSS:\s+(\d+) kB$/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return line ? Number(line[1]) / 1024 : 0;
  } catch {
    return 0;
  }
}

async function createWorld(admin: DynamicClient, hookUrl: string): Promise<void> {
  const namespace = (name: string): KubeObject => ({
    apiVersion: 'v1',
    kind: 'Namespace',
    metadata: { name },
  });
  await admin.create(CRDS, crdManifest());
  for (const name of [SCOBY_NAMESPACE, NAMESPACE]) await admin.create(NAMESPACES, namespace(name));
  await applyObjects(admin, [...(await rbacManifests()), ...kindRoles()]);
  for (const crd of crds()) await admin.create(CRDS, crd);
  for (const each of WORKLOADS) {
    while ((await admin.resourceFor(each.apiVersion, each.kind)) === undefined) {
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }
  await waitForAggregatedRole(admin);
  for (const registration of registrations(hookUrl)) await admin.create(REGISTRATIONS, registration);
}

export async function startFaultCluster(options: {
  instances: number;
  replicas: number;
  random: () => number;
  /** The replicas' LOG_LEVEL; the chart's (info) when absent. */
  logLevel?: string;
  log(line: string): void;
}): Promise<FaultCluster> {
  const plane = await startControlPlane({
    nodes: Math.ceil(options.instances / PODS_PER_NODE) + 1,
    log: options.log,
    startTimeoutMs: 300_000,
    auditBodies: auditedBodies(),
  });
  const admin = new DynamicClient(kubeConfigOf(plane.kubeconfigYaml));
  const folder = await mkdtemp(join(tmpdir(), 'scoby-faults-'));
  const reaper = new Reaper(join(folder, 'pids'));
  const hook = benchHook(options.random);
  const cleanups: Array<() => Promise<void>> = [];
  const replicas: FaultReplica[] = [];
  /** The logs of replica processes killed and replaced, by replica. */
  const earlierLogs = new Map<string, string[]>();
  const stop = async () => {
    await Promise.all(
      replicas.map(async (replica) => {
        if (replica.current === undefined) return;
        const killer = setTimeout(() => replica.current.process.kill('SIGKILL'), 20_000);
        await replica.current.stop('SIGTERM');
        clearTimeout(killer);
      }),
    );
    for (const cleanup of cleanups.reverse()) await cleanup().catch(() => {});
    admin.close();
    reaper.dismiss();
    await plane.stop();
    await rm(folder, { recursive: true, force: true });
  };
  try {
    const hookServer = await startScriptedHook(hook.script);
    cleanups.push(() => hookServer.close());
    await createWorld(admin, hookServer.url);
    const toxiproxy = await startToxiproxy();
    cleanups.push(() => toxiproxy.stop());
    const verbs = clusterVerbs(admin);
    const names = Array.from({ length: options.replicas }, (_, index) => `replica-${index}`);
    await ensureReplicaIdentities(verbs, names);
    const apiServer = new URL(plane.server);
    const caData = kubeConfigOf(plane.kubeconfigYaml).getCurrentCluster()?.caData ?? '';
    const container: ChartContainer = renderChartContainer(SCOBY_NAMESPACE);
    const launch = async (replica: Pick<FaultReplica, 'name'>): Promise<ReplicaProcess> => {
      const kubeconfigPath = join(folder, `${replica.name}.kubeconfig`);
      return startReplicaProcess(replica.name, container, kubeconfigPath, reaper, {
        program: 'bundle',
        ...(options.logLevel === undefined ? {} : { logLevel: options.logLevel }),
      });
    };
    for (const name of names) {
      const proxy = await toxiproxy.createProxy(name, {
        host: apiServer.hostname,
        port: Number(apiServer.port),
      });
      const user = replicaUser(name);
      await writeFile(
        join(folder, `${name}.kubeconfig`),
        replicaKubeconfig(proxy, caData, user, await replicaToken(verbs, name)),
        { mode: 0o600 },
      );
      replicas.push({ name, user, proxy, current: undefined as unknown as ReplicaProcess, starts: 0 });
    }
    await Promise.all(replicas.map(async (replica) => (replica.current = await launch(replica))));
    return {
      plane,
      admin,
      verbs,
      toxiproxy,
      hook,
      hookServer,
      replicas,
      audit: new AuditTail(plane.auditLogPath),
      async killReplica(replica) {
        await replica.current.stop('SIGKILL');
      },
      async startReplica(replica) {
        const before = earlierLogs.get(replica.name) ?? [];
        before.push(...replica.current.logs.map((record) => JSON.stringify(record)));
        earlierLogs.set(replica.name, before);
        replica.current = await launch(replica);
        replica.starts++;
      },
      rssMiB: () =>
        replicas.map((replica) => rssOf(running(replica) ? replica.current.process.pid : undefined)),
      async keepEvidence(evidence) {
        await mkdir(evidence, { recursive: true });
        await copyFile(plane.auditLogPath, join(evidence, 'audit.log'));
        for (const replica of replicas) {
          const lines = [
            ...(earlierLogs.get(replica.name) ?? []),
            ...replica.current.logs.map((record) => JSON.stringify(record)),
          ];
          await writeFile(join(evidence, `${replica.name}.jsonl`), `${lines.join('\n')}\n`);
        }
      },
      stop,
    };
  } catch (error) {
    await stop();
    throw error;
  }
}
