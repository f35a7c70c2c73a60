/**
 * A bench helper process (the API server, the controller) forked with tsx and driven over IPC:
 * every request names the kind of reply it waits for.
 */
import { fork, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';

export interface Reply {
  kind: string;
}

export interface BenchChild<Request, Answer extends Reply> {
  /** The first reply of kind `ready`. */
  ready: Extract<Answer, { kind: 'ready' }>;
  ask<K extends Answer['kind']>(request: Request, kind: K): Promise<Extract<Answer, { kind: K }>>;
  /** Sends `request` and resolves once the process has exited. */
  exit(request: Request): Promise<void>;
  /** Sends the process `signal` (no request, no goodbye) and resolves once it has exited. */
  kill(signal: NodeJS.Signals): Promise<void>;
}

/**
 * `nodeArgs`, e.g. "--cpu-prof --cpu-prof-dir=/tmp/prof", profiles the process. `compiled`: a
 * JavaScript script run by plain node, without tsx and the TypeScript sources.
 */
export async function forkBenchChild<Request, Answer extends Reply>(
  script: URL,
  nodeArgs: string | undefined,
  { compiled = false }: { compiled?: boolean } = {},
): Promise<BenchChild<Request, Answer>> {
  const child = fork(fileURLToPath(script), {
    execArgv: [
      ...(compiled ? [] : ['--import', 'tsx', '--conditions=@scoby/source']),
      ...(nodeArgs?.split(' ').filter(Boolean) ?? []),
    ],
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const ready = await nextReply<Answer, 'ready'>(child, 'ready');
  return {
    ready,
    ask: async (request, kind) => {
      const answer = nextReply<Answer, typeof kind>(child, kind);
      child.send(request as object);
      return answer;
    },
    exit: (request) =>
      new Promise((resolve) => {
        child.once('exit', () => resolve());
        child.send(request as object);
      }),
    kill: (signal) =>
      new Promise((resolve) => {
        child.once('exit', () => resolve());
        child.kill(signal);
      }),
  };
}

function nextReply<Answer extends Reply, K extends Answer['kind']>(
  child: ChildProcess,
  kind: K,
): Promise<Extract<Answer, { kind: K }>> {
  return new Promise((resolve, reject) => {
    const onMessage = (message: Answer) => {
      if (message.kind !== kind) return;
      child.off('message', onMessage);
      child.off('exit', onExit);
      resolve(message as Extract<Answer, { kind: K }>);
    };
    const onExit = (code: number | null) =>
      reject(new Error(`bench process ${child.spawnfile} exited with code ${code}`));
    child.on('message', onMessage);
    child.once('exit', onExit);
  });
}

/** Peak RSS and CPU time (user + system) of a process so far. */
export interface ProcessUsage {
  maxRssKiB: number;
  cpuSeconds: number;
}

export function ownUsage(): ProcessUsage {
  const usage = process.resourceUsage();
  return { maxRssKiB: usage.maxRSS, cpuSeconds: (usage.userCPUTime + usage.systemCPUTime) / 1e6 };
}
