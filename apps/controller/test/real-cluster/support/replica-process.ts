/**
 * One Scoby controller process as the chart starts it in a pod (the rendered container's args and
 * env), against a kubeconfig of the caller's: its JSON log read as it comes, its ops server on
 * 127.0.0.1 at a port of the kernel's choice, its PID watched by a reaper. It runs `scoby run` from
 * the sources (bin/scoby.js) or the bundle the image runs (dist/scoby.mjs, `npm run bundle`).
 *
 * Departures from a pod, and why: the ops server listens on 127.0.0.1 at a port of the kernel's choice
 * (replicas share the host's network), and KUBECONFIG names the replica's kubeconfig (a pod reads its
 * token from the mounted ServiceAccount volume).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import type { Reaper } from '@scoby/kube-control-plane';
import { containerEnvironment, type ChartContainer } from './chart-container.ts';

const SOURCES = fileURLToPath(new URL('../../../bin/scoby.js', import.meta.url));
/** What the image runs (the Dockerfile's ENTRYPOINT). */
export const BUNDLE = fileURLToPath(new URL('../../../dist/scoby.mjs', import.meta.url));
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

export interface ReplicaProcess {
  /** replica-0, replica-1, ...: its ServiceAccount's name. */
  name: string;
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

export interface ReplicaProcessOptions {
  /** Replaces the chart's LOG_LEVEL (the chart says info). */
  logLevel?: string;
  /** `scoby run` from the sources (default), or the bundle the image runs. */
  program?: 'sources' | 'bundle';
}

function waitForLog(
  replica: Pick<ReplicaProcess, 'name' | 'logs' | 'otherOutput'>,
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

/** Starts the process and resolves once its log says `scoby controller started`. */
export async function startReplicaProcess(
  name: string,
  container: ChartContainer,
  kubeconfigPath: string,
  reaper: Reaper,
  options: ReplicaProcessOptions = {},
): Promise<ReplicaProcess> {
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
  const program = options.program === 'bundle' ? BUNDLE : SOURCES;
  const child = spawn(process.execPath, [program, ...args], {
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
