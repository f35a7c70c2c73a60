/** The parent's side of the controller child process. */
import type { KubeConfig } from '@kubernetes/client-node';
import { forkBenchChild, type ProcessUsage } from './child-process.ts';
import type { ControllerReply, ControllerRequest } from './controller-protocol.ts';
import { REGISTRATION, SCOBY_NAMESPACE } from './world.ts';

export interface ControllerProcess {
  /** RSS of the process with its code loaded, before the controller started. */
  readonly loadedRssMiB: number;
  start(kubeConfig: KubeConfig, concurrency: number): Promise<void>;
  reconciles(): Promise<number>;
  hookCalls(): Promise<{ calls: number; failures: number }>;
  usage(): Promise<ProcessUsage>;
  stop(): Promise<void>;
}

export async function startControllerProcess(): Promise<ControllerProcess> {
  // BENCH_CONTROLLER_NODE_ARGS, e.g. "--cpu-prof --cpu-prof-dir=/tmp/prof", profiles the controller.
  const child = await forkBenchChild<ControllerRequest, ControllerReply>(
    // The bundle of controller-process.ts that `node scripts/bundle.mjs bench` writes.
    new URL('./dist/controller-process.mjs', import.meta.url),
    process.env.BENCH_CONTROLLER_NODE_ARGS,
    { compiled: true },
  );
  return {
    loadedRssMiB: child.ready.rssMiB,
    start: async (kubeConfig, concurrency) =>
      void (await child.ask(
        {
          kind: 'start',
          kubeconfig: kubeConfig.exportConfig(),
          concurrency,
          registration: REGISTRATION,
          scobyNamespace: SCOBY_NAMESPACE,
        },
        'started',
      )),
    reconciles: async () => (await child.ask({ kind: 'reconciles' }, 'reconciles')).count,
    hookCalls: async () => {
      const { calls, failures } = await child.ask({ kind: 'hook-calls' }, 'hook-calls');
      return { calls, failures };
    },
    usage: async () => {
      const { maxRssKiB, cpuSeconds } = await child.ask({ kind: 'usage' }, 'usage');
      return { maxRssKiB, cpuSeconds };
    },
    stop: () => child.exit({ kind: 'stop' }),
  };
}
