/**
 * Several Scoby controller processes against the real control plane, each as the chart starts it
 * (the rendered container's args and env, `scoby run` from the sources), each with a ServiceAccount
 * of its own in the audited namespace (replica-identities.ts) and its own TCP fault proxy in front of
 * the API server, so a test can cut one replica off (`proxy.partition()`) and count every replica's
 * requests from the API server's audit log (`auditLog()`).
 *
 * Departures from a pod, and why: the ops server listens on 127.0.0.1 at a port of the kernel's choice
 * (replicas share the host's network), and KUBECONFIG names the replica's kubeconfig (a pod reads its
 * token from the mounted ServiceAccount volume).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
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
import { stringify } from 'yaml';
import type { ClusterVerbs } from '../../support/cluster.ts';
import { containerEnvironment, renderChartContainer, type ChartContainer } from './chart-container.ts';
import { ensureReplicaIdentities, replicaToken, replicaUser } from './replica-identities.ts';

const BIN = fileURLToPath(new URL('../../../bin/scoby.js', import.meta.url));
const REPOSITORY = fileURLToPath(new URL('../../../../../', import.meta.url));
const SCOBY_NAMESPACE = 'scoby-system';
/** Three processes transpiling the sources at once on two loaded cores take a while. */
const START_TIMEOUT_MS = 90_000;

/** One line of the controller's JSON log (pino). */
export interface LogRecord {
  level: number;
  time: number;
  msg: string;
  [field: string]: unknown;
}

export interface Exit {
  code: number | null;
  signal: NodeJS.Signals | null;
}

export interface Replica {
  /** replica-0, replica-1, ...: its ServiceAccount's name. */
  name: string;
  /** The user the API server sees: system:serviceaccount:scoby-ha:<name>. */
  user: string;
  /** Between this replica and the API server: partition() cuts it off. */
  proxy: FaultProxy;
  process: ChildProcess;
  /** Every JSON log line so far, in order (the array grows). */
  logs: LogRecord[];
  /** What the process wrote to stderr, and stdout lines that were not JSON. */
  otherOutput(): string;
  /** http://127.0.0.1:<port>: /metrics, /healthz, /readyz. */
  metricsUrl: string;
  exited: Promise<Exit>;
  /** The first log record (since `from`, an index into logs) that `match` accepts. */
  waitForLog(
    description: string,
    match: (record: LogRecord) => boolean,
    options?: { from?: number; timeoutMs?: number },
  ): Promise<LogRecord>;
  /** SIGTERM: the chart's graceful stop; SIGKILL: a crash. Resolves at exit. */
  stop(signal?: 'SIGTERM' | 'SIGKILL'): Promise<Exit>;
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
 * The replica's kubeconfig: the API server's CA, and the proxy as server. The proxy is 127.0.0.1 as the
 * API server is, and its serving certificate names IP 127.0.0.1, so TLS verifies through the proxy.
 */
function replicaKubeconfig(proxy: FaultProxy, caData: string, user: string, token: string): string {
  return stringify({
    apiVersion: 'v1',
    kind: 'Config',
    clusters: [
      {
        name: 'real',
        cluster: { server: `https://${proxy.host}:${proxy.port}`, 'certificate-authority-data': caData },
      },
    ],
    users: [{ name: user, user: { token } }],
    contexts: [{ name: 'real', context: { cluster: 'real', user } }],
    'current-context': 'real',
  });
}

function waitForLog(
  replica: Pick<Replica, 'name' | 'logs' | 'otherOutput'>,
  exited: { exit?: Exit },
  description: string,
  match: (record: LogRecord) => boolean,
  options: { from?: number; timeoutMs?: number } = {},
): Promise<LogRecord> {
  const timeoutMs = options.timeoutMs ?? 60_000;
  const deadline = Date.now() + timeoutMs;
  return new Promise((resolve, reject) => {
    const poll = () => {
      const found = replica.logs.slice(options.from ?? 0).find(match);
      if (found) return resolve(found);
      const tail = () =>
        `; last log lines:\n${replica.logs
          .slice(-10)
          .map((record) => JSON.stringify(record))
          .join('\n')}\n${replica.otherOutput().slice(-2000)}`;
      if (exited.exit) {
        return reject(
          new Error(
            `${replica.name} exited (${JSON.stringify(exited.exit)}) before: ${description}${tail()}`,
          ),
        );
      }
      if (Date.now() > deadline) {
        return reject(
          new Error(`${replica.name}: ${description}: not within ${timeoutMs / 1000} s${tail()}`),
        );
      }
      setTimeout(poll, 50);
    };
    poll();
  });
}

async function startReplica(
  name: string,
  container: ChartContainer,
  kubeconfigPath: string,
  proxy: FaultProxy,
  reaper: Reaper,
  options: ReplicaOptions,
): Promise<Replica> {
  const args = container.args.map((arg) =>
    arg.startsWith('--metrics-bind-address=') ? '--metrics-bind-address=127.0.0.1:0' : arg,
  );
  const env = {
    PATH: process.env.PATH ?? '',
    HOME: process.env.HOME ?? '',
    ...containerEnvironment(container.env, { name: `scoby-controller-${name}`, namespace: SCOBY_NAMESPACE }),
    ...(options.logLevel === undefined ? {} : { LOG_LEVEL: options.logLevel }),
    KUBECONFIG: kubeconfigPath,
  };
  const child = spawn(process.execPath, [BIN, ...args], {
    cwd: REPOSITORY,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  reaper.watch(child.pid);
  const logs: LogRecord[] = [];
  let other = '';
  let partial = '';
  child.stdout!.on('data', (chunk: Buffer) => {
    const lines = (partial + chunk.toString()).split('\n');
    partial = lines.pop() ?? '';
    for (const line of lines) {
      if (line.trim() === '') continue;
      try {
        logs.push(JSON.parse(line) as LogRecord);
      } catch {
        other += `${line}\n`;
      }
    }
  });
  child.stderr!.on('data', (chunk: Buffer) => (other += chunk.toString()));
  const state: { exit?: Exit } = {};
  const exited = new Promise<Exit>((resolve) =>
    child.on('close', (code, signal) => {
      state.exit = { code, signal };
      resolve(state.exit);
    }),
  );
  const view = { name, logs, otherOutput: () => other };
  const started = await waitForLog(
    view,
    state,
    'scoby controller started',
    (record) => record.msg === 'scoby controller started',
    {
      timeoutMs: START_TIMEOUT_MS,
    },
  ).catch((error: unknown) => {
    child.kill('SIGKILL');
    throw error;
  });
  return {
    ...view,
    user: replicaUser(name),
    proxy,
    process: child,
    metricsUrl: `http://127.0.0.1:${String(started.opsPort)}`,
    exited,
    waitForLog: (description, match, waitOptions) => waitForLog(view, state, description, match, waitOptions),
    async stop(signal = 'SIGTERM') {
      if (state.exit) return state.exit;
      child.kill(signal);
      return exited;
    },
  };
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
    const replica = await startReplica(name, container, kubeconfigPath, proxy, reaper, options);
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
