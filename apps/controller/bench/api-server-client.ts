/** The parent's side of the API server child process. */
import { fork, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { KubeConfig } from '@kubernetes/client-node';
import type { ServerReply, ServerRequest } from './api-server-protocol.ts';

export interface ApiServerProcess {
  kubeConfig(): KubeConfig;
  clearRequestLog(): Promise<void>;
  /** `METHOD path` of every non-GET request since the last clear. */
  writes(): Promise<string[]>;
  /** Peak RSS and CPU time (user + system) of the API server process so far. */
  usage(): Promise<{ maxRssKiB: number; cpuSeconds: number }>;
  stop(): Promise<void>;
}

export async function startApiServerProcess(): Promise<ApiServerProcess> {
  const child = fork(fileURLToPath(new URL('./api-server-process.ts', import.meta.url)), {
    // BENCH_SERVER_NODE_ARGS, e.g. "--cpu-prof --cpu-prof-dir=/tmp/prof", profiles the API server.
    execArgv: ['--import', 'tsx', ...(process.env.BENCH_SERVER_NODE_ARGS?.split(' ').filter(Boolean) ?? [])],
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const ready = await nextReply(child, 'ready');
  const ask = async <K extends ServerReply['kind']>(request: ServerRequest, kind: K) => {
    const answer = nextReply(child, kind);
    child.send(request);
    return answer;
  };
  return {
    kubeConfig() {
      const config = new KubeConfig();
      config.loadFromString(ready.kubeconfig);
      return config;
    },
    clearRequestLog: async () => void (await ask({ kind: 'clear-log' }, 'cleared')),
    writes: async () => (await ask({ kind: 'writes' }, 'writes')).writes,
    usage: async () => {
      const { maxRssKiB, cpuSeconds } = await ask({ kind: 'usage' }, 'usage');
      return { maxRssKiB, cpuSeconds };
    },
    stop: () =>
      new Promise((resolve) => {
        child.once('exit', () => resolve());
        child.send({ kind: 'stop' } satisfies ServerRequest);
      }),
  };
}

function nextReply<K extends ServerReply['kind']>(child: ChildProcess, kind: K): Promise<Extract<ServerReply, { kind: K }>> {
  return new Promise((resolve, reject) => {
    const onMessage = (message: ServerReply) => {
      if (message.kind !== kind) return;
      child.off('message', onMessage);
      child.off('exit', onExit);
      resolve(message as Extract<ServerReply, { kind: K }>);
    };
    const onExit = (code: number | null) => reject(new Error(`API server process exited with code ${code}`));
    child.on('message', onMessage);
    child.once('exit', onExit);
  });
}
