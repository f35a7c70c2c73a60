/**
 * Several Scoby controller processes against the real control plane, each as the chart starts it
 * (the rendered container's args and env, `scoby run` from the sources), each with a ServiceAccount
 * of its own in the audited namespace (replica-identities.ts) and its own TCP fault proxy in front of
 * the API server, so a test can cut one replica off (`proxy.partition()`) and count every replica's
 * requests from the API server's audit log (`auditLog()`).
 *
 * The process itself: replica-process.ts.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { KubeConfig } from '@kubernetes/client-node';
import {
  readAuditLog,
  Reaper,
  startFaultProxy,
  type AuditEntry,
  type FaultProxy,
  WRITE_VERBS,
} from '@scoby/kube-control-plane';
import { inject } from 'vitest';
import type { ClusterVerbs } from '../../support/cluster.ts';
import { renderChartContainer } from './chart-container.ts';
import {
  ensureReplicaIdentities,
  replicaKubeconfig,
  replicaToken,
  replicaUser,
} from './replica-identities.ts';
import { startReplicaProcess, type ReplicaProcess } from './replica-process.ts';

export type { Exit, LogRecord } from './replica-process.ts';

const SCOBY_NAMESPACE = 'scoby-system';

export interface Replica extends ReplicaProcess {
  /** The user the API server sees: system:serviceaccount:scoby-ha:<name>. */
  user: string;
  /** Between this replica and the API server: partition() cuts it off. */
  proxy: FaultProxy;
}

export interface Replicas {
  replicas: Replica[];
  /**
   * The audit log's events of these replicas' users since they were started (complete events, in the
   * order written): other files of the run may have used the same ServiceAccounts.
   */
  auditLog(): Promise<AuditEntry[]>;
  /** Starts one more replica, replica-<n> for the n-th, as the others were started, and adds it to `replicas`. */
  add(): Promise<Replica>;
  /** Stops the replicas still running (SIGKILL after 20 s), closes the proxies, removes the kubeconfigs. */
  stop(): Promise<void>;
}

export interface ReplicaOptions {
  /** `--set` values for the chart (e.g. leaderElection.mode=active-active). */
  chartValues?: readonly string[];
  /** Replaces the chart's LOG_LEVEL (the chart says info). */
  logLevel?: string;
}

/**
 * An audited request to change stored state, whatever the answer (a refused write reached the API
 * server too): a write verb at ResponseComplete. The access reviews a controller creates to ask what
 * it may do store nothing.
 */
export function isWriteRequest(entry: AuditEntry): boolean {
  return (
    entry.stage === 'ResponseComplete' &&
    WRITE_VERBS.has(entry.verb) &&
    entry.objectRef?.resource !== 'selfsubjectaccessreviews'
  );
}

function apiServerOf(adminKubeconfigYaml: string): { host: string; port: number; caData: string } {
  const kubeConfig = new KubeConfig();
  kubeConfig.loadFromString(adminKubeconfigYaml);
  const cluster = kubeConfig.getCurrentCluster();
  if (!cluster?.caData) throw new Error('the admin kubeconfig has no inline CA');
  const url = new URL(cluster.server);
  return { host: url.hostname, port: Number(url.port), caData: cluster.caData };
}

/**
 * `count` replicas replica-0..count-1 of the controller against the real control plane, each started
 * once its log says `scoby controller started`. Proxies and processes are stopped by `stop()`, and
 * the processes by PID also when the test runner is killed.
 */
export async function startReplicas(
  admin: ClusterVerbs,
  count: number,
  options: ReplicaOptions = {},
): Promise<Replicas> {
  const names = Array.from({ length: count }, (_, index) => `replica-${index}`);
  const users = new Set(names.map(replicaUser));
  const apiServer = apiServerOf(inject('realCluster').adminKubeconfigYaml);
  const auditLogPath = inject('realCluster').auditLogPath;
  const container = renderChartContainer(SCOBY_NAMESPACE, options.chartValues ?? []);
  await ensureReplicaIdentities(admin, names);
  const earlier = (await readAuditLog(auditLogPath)).length;
  const folder = await mkdtemp(join(tmpdir(), 'scoby-replicas-'));
  const reaper = new Reaper(join(folder, 'pids'));
  const proxies: FaultProxy[] = [];
  const replicas: Replica[] = [];
  const stop = async () => {
    await Promise.all(
      replicas.map(async (replica) => {
        const killer = setTimeout(() => replica.process.kill('SIGKILL'), 20_000);
        // Healed first: a partitioned replica's graceful stop would wait for its requests.
        replica.proxy.heal();
        await replica.stop('SIGTERM');
        clearTimeout(killer);
      }),
    );
    await Promise.all(proxies.map((proxy) => proxy.close()));
    reaper.dismiss();
    await rm(folder, { recursive: true, force: true });
  };
  const startOne = async (name: string): Promise<Replica> => {
    const proxy = await startFaultProxy({ host: apiServer.host, port: apiServer.port });
    proxies.push(proxy);
    const user = replicaUser(name);
    const kubeconfigPath = join(folder, `${name}.kubeconfig`);
    const token = await replicaToken(admin, name);
    await writeFile(kubeconfigPath, replicaKubeconfig(proxy, apiServer.caData, user, token), {
      mode: 0o600,
    });
    const replica: Replica = {
      ...(await startReplicaProcess(name, container, kubeconfigPath, reaper, {
        ...(options.logLevel === undefined ? {} : { logLevel: options.logLevel }),
      })),
      user,
      proxy,
    };
    replicas.push(replica);
    return replica;
  };
  try {
    const settled = await Promise.allSettled(names.map(startOne));
    const failed = settled.find((result) => result.status === 'rejected');
    if (failed) throw failed.reason;
    const started = settled.map((result) => (result as PromiseFulfilledResult<Replica>).value);
    return {
      replicas: started,
      async auditLog() {
        return (await readAuditLog(auditLogPath)).slice(earlier).filter((entry) => users.has(entry.user));
      },
      async add() {
        const name = `replica-${names.length}`;
        names.push(name);
        users.add(replicaUser(name));
        // The bindings name the replicas of the last call: all of them, the new one included.
        await ensureReplicaIdentities(admin, names);
        const replica = await startOne(name);
        started.push(replica);
        return replica;
      },
      stop,
    };
  } catch (error) {
    await stop();
    throw error;
  }
}
