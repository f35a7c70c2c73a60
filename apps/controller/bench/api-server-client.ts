/** The parent's side of the API server child process. */
import { KubeConfig } from '@kubernetes/client-node';
import type { ServerReply, ServerRequest } from './api-server-protocol.ts';
import { forkBenchChild, type ProcessUsage } from './child-process.ts';

export interface ApiServerProcess {
  kubeConfig(): KubeConfig;
  clearRequestLog(): Promise<void>;
  /** `METHOD path` of every non-GET request since the last clear. */
  writes(): Promise<string[]>;
  /** Requests since the last clear by `METHOD code` (a watch is `WATCH code`). */
  requestCounts(): Promise<Record<string, number>>;
  /** Peak RSS and CPU time (user + system) of the API server process so far. */
  usage(): Promise<ProcessUsage>;
  stop(): Promise<void>;
}

export async function startApiServerProcess(): Promise<ApiServerProcess> {
  // BENCH_SERVER_NODE_ARGS, e.g. "--cpu-prof --cpu-prof-dir=/tmp/prof", profiles the API server.
  const child = await forkBenchChild<ServerRequest, ServerReply>(
    new URL('./api-server-process.ts', import.meta.url),
    process.env.BENCH_SERVER_NODE_ARGS,
  );
  return {
    kubeConfig() {
      const config = new KubeConfig();
      config.loadFromString(child.ready.kubeconfig);
      return config;
    },
    clearRequestLog: async () => void (await child.ask({ kind: 'clear-log' }, 'cleared')),
    writes: async () => (await child.ask({ kind: 'writes' }, 'writes')).writes,
    requestCounts: async () => (await child.ask({ kind: 'request-counts' }, 'request-counts')).counts,
    usage: async () => {
      const { maxRssKiB, cpuSeconds } = await child.ask({ kind: 'usage' }, 'usage');
      return { maxRssKiB, cpuSeconds };
    },
    stop: () => child.exit({ kind: 'stop' }),
  };
}
