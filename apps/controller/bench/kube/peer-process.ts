/**
 * Another controller binary (Go Scoby, Metacontroller, …) as a side of the bench, run from shell
 * commands so the bench needs no change to try one:
 *
 * - BENCH_PEER_NAME: its name in the report.
 * - BENCH_PEER_SETUP (optional): run once the world is in place and before the clock starts, to apply
 *   what the peer needs (its CRDs, RBAC, a CompositeController, a registration of its own dialect).
 * - BENCH_PEER_COMMAND: the controller itself, started when the clock starts and stopped (SIGTERM to
 *   its process group) once every instance is Ready=True.
 *
 * Both run under /bin/sh in a fresh temporary directory with KUBECONFIG set to a ServiceAccount's
 * kubeconfig bound to cluster-admin (its requests are the ones counted), BENCH_N, BENCH_CONCURRENCY
 * (the workers every side gets), BENCH_NAMESPACE and BENCH_SCOBY_NAMESPACE, and the pinned release's
 * kubectl first on PATH. Their output goes to setup.log and peer.log in that directory.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, open } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { NAMESPACE, SCOBY_NAMESPACE } from '../world.ts';

export interface PeerSpec {
  name: string;
  command: string;
  setup?: string;
}

export function peerFromEnv(env: NodeJS.ProcessEnv = process.env): PeerSpec | undefined {
  const command = env.BENCH_PEER_COMMAND;
  if (!command) return undefined;
  return {
    name: env.BENCH_PEER_NAME || 'peer',
    command,
    ...(env.BENCH_PEER_SETUP ? { setup: env.BENCH_PEER_SETUP } : {}),
  };
}

export interface PeerEnvironment {
  kubeconfigPath: string;
  count: number;
  concurrency: number;
}

export interface RunningPeer {
  readonly pid: number;
  readonly logPath: string;
  /** Rejects if the peer exits before it is stopped. */
  readonly exited: Promise<never>;
  stop(): Promise<void>;
}

async function shell(
  command: string,
  cwd: string,
  logFile: string,
  environment: PeerEnvironment,
): Promise<ChildProcess> {
  // kubectl of the pinned release first on PATH, for setups that `kubectl apply`.
  const { locateBinaries } = await import('@scoby/kube-control-plane');
  const binaries = locateBinaries();
  const log = await open(join(cwd, logFile), 'w');
  const child = spawn('/bin/sh', ['-c', command], {
    cwd,
    detached: true,
    stdio: ['ignore', log.fd, log.fd],
    env: {
      ...process.env,
      ...(binaries.ok ? { PATH: `${binaries.folder}:${process.env.PATH ?? ''}` } : {}),
      KUBECONFIG: environment.kubeconfigPath,
      BENCH_N: String(environment.count),
      BENCH_CONCURRENCY: String(environment.concurrency),
      BENCH_NAMESPACE: NAMESPACE,
      BENCH_SCOBY_NAMESPACE: SCOBY_NAMESPACE,
    },
  });
  child.once('spawn', () => void log.close());
  return child;
}

function exitOf(child: ChildProcess): Promise<number | null> {
  return new Promise((resolve) => child.once('exit', (code, signal) => resolve(signal ? null : code)));
}

/** Runs BENCH_PEER_SETUP, if given; the path of its log. */
export async function runPeerSetup(
  peer: PeerSpec,
  environment: PeerEnvironment,
): Promise<string | undefined> {
  if (!peer.setup) return undefined;
  const cwd = await mkdtemp(join(tmpdir(), 'scoby-bench-peer-setup-'));
  const code = await exitOf(await shell(peer.setup, cwd, 'setup.log', environment));
  if (code !== 0) throw new Error(`BENCH_PEER_SETUP exited with ${code}; see ${join(cwd, 'setup.log')}`);
  return join(cwd, 'setup.log');
}

export async function startPeer(peer: PeerSpec, environment: PeerEnvironment): Promise<RunningPeer> {
  const cwd = await mkdtemp(join(tmpdir(), 'scoby-bench-peer-'));
  const logPath = join(cwd, 'peer.log');
  const child = await shell(peer.command, cwd, 'peer.log', environment);
  if (child.pid === undefined) throw new Error(`BENCH_PEER_COMMAND could not be started`);
  const pid = child.pid;
  let stopping = false;
  const exit = exitOf(child);
  const exited = exit.then((code) => {
    if (!stopping) throw new Error(`${peer.name} exited with ${code} before convergence; see ${logPath}`);
    return new Promise<never>(() => {});
  });
  exited.catch(() => {});
  return {
    pid,
    logPath,
    exited,
    async stop() {
      stopping = true;
      try {
        process.kill(-pid, 'SIGTERM');
      } catch {
        return; // already gone
      }
      const timer = setTimeout(() => {
        try {
          process.kill(-pid, 'SIGKILL');
        } catch {
          // gone meanwhile
        }
      }, 10_000);
      await exit;
      clearTimeout(timer);
    },
  };
}
