/** The parent's side of the controller child process. */
import { readFileSync } from 'node:fs';
import type { KubeConfig } from '@kubernetes/client-node';
import { parse } from 'yaml';
import { forkBenchChild, type ProcessUsage } from './child-process.ts';
import type { BenchLeaderElection, ControllerReply, ControllerRequest } from './controller-protocol.ts';
import { REGISTRATION, SCOBY_NAMESPACE } from './world.ts';

export interface ControllerChild {
  /** RSS of the process with its code loaded, before the controller started. */
  readonly loadedRssMiB: number;
  /**
   * `hookModule`: the child allows the bench's no-op hook module (noop-hook.ts). `leaderElection`:
   * absent, none.
   */
  start(
    kubeConfig: KubeConfig,
    concurrency: number,
    hookModule?: boolean,
    leaderElection?: BenchLeaderElection,
  ): Promise<void>;
  reconciles(): Promise<number>;
  /** Reconciles so far by registration (the metric's `controller` label). */
  reconcileCounts(): Promise<Record<string, number>>;
  /** Active-active mode: the registrations whose Leases it holds; undefined in leader mode. */
  owned(): Promise<string[] | undefined>;
  hookCalls(): Promise<{ calls: number; failures: number }>;
  usage(): Promise<ProcessUsage>;
  /** Whether the controller's caches have synced. */
  synced(): Promise<boolean>;
  /** The live heap (after full collections when the child runs with --expose-gc) and RSS now. */
  heap(): Promise<{ heapUsedBytes: number; rssBytes: number; collected: boolean }>;
  /** Starts the child's CPU profiler (the inspector's, 1 ms sampling). */
  startProfile(): Promise<void>;
  /** Stops it and writes the .cpuprofile to `path`. */
  stopProfile(path: string): Promise<void>;
  /** Writes a heap snapshot to `path`, after full collections under --expose-gc. */
  heapSnapshot(path: string): Promise<void>;
  stop(): Promise<void>;
  /** SIGKILL: no Lease released, nothing finished; resolves once the process has exited. */
  kill(): Promise<void>;
}

interface DeploymentDocument {
  spec: { template: { spec: { containers: { name: string; env?: { name: string; value?: string }[] }[] } } };
}

/**
 * The NODE_OPTIONS the shipped Deployment (deploy/20-deployment.yaml) gives the controller, so that
 * the bench measures memory with the heap settings the controller runs with.
 */
export const SHIPPED_NODE_OPTIONS = ((): string => {
  const manifest = readFileSync(new URL('../../../deploy/20-deployment.yaml', import.meta.url), 'utf8');
  const { containers } = (parse(manifest) as DeploymentDocument).spec.template.spec;
  const controller = containers.find((container) => container.name === 'controller');
  return controller?.env?.find((variable) => variable.name === 'NODE_OPTIONS')?.value ?? '';
})();

export async function startControllerChild(): Promise<ControllerChild> {
  // BENCH_CONTROLLER_NODE_ARGS, e.g. "--cpu-prof --cpu-prof-dir=/tmp/prof", profiles the controller.
  const child = await forkBenchChild<ControllerRequest, ControllerReply>(
    // The bundle of controller-process.ts that `node scripts/bundle.mjs bench` writes.
    new URL('./dist/controller-process.mjs', import.meta.url),
    `${SHIPPED_NODE_OPTIONS} ${process.env.BENCH_CONTROLLER_NODE_ARGS ?? ''}`,
    { compiled: true },
  );
  return {
    loadedRssMiB: child.ready.rssMiB,
    start: async (kubeConfig, concurrency, hookModule = false, leaderElection) =>
      void (await child.ask(
        {
          kind: 'start',
          kubeconfig: kubeConfig.exportConfig(),
          concurrency,
          registration: REGISTRATION,
          scobyNamespace: SCOBY_NAMESPACE,
          hookModule,
          ...(leaderElection ? { leaderElection } : {}),
        },
        'started',
      )),
    reconciles: async () => (await child.ask({ kind: 'reconciles' }, 'reconciles')).count,
    reconcileCounts: async () => (await child.ask({ kind: 'reconcile-counts' }, 'reconcile-counts')).counts,
    owned: async () => (await child.ask({ kind: 'owned' }, 'owned')).registrations ?? undefined,
    hookCalls: async () => {
      const { calls, failures } = await child.ask({ kind: 'hook-calls' }, 'hook-calls');
      return { calls, failures };
    },
    usage: async () => {
      const { maxRssKiB, cpuSeconds } = await child.ask({ kind: 'usage' }, 'usage');
      return { maxRssKiB, cpuSeconds };
    },
    synced: async () => (await child.ask({ kind: 'synced' }, 'synced')).synced,
    heap: async () => {
      const { heapUsedBytes, rssBytes, collected } = await child.ask({ kind: 'heap' }, 'heap');
      return { heapUsedBytes, rssBytes, collected };
    },
    startProfile: async () => void (await child.ask({ kind: 'profile-start' }, 'profiling')),
    stopProfile: async (path) => void (await child.ask({ kind: 'profile-stop', path }, 'profile')),
    heapSnapshot: async (path) => void (await child.ask({ kind: 'heap-snapshot', path }, 'heap-snapshot')),
    stop: () => child.exit({ kind: 'stop' }),
    kill: () => child.kill('SIGKILL'),
  };
}
