/**
 * The controller in a child process of its own, so that its peak RSS and CPU are the controller's
 * alone, not the harness's (readiness informer, hook server, bookkeeping). Talks to the parent over IPC
 * (messages in controller-protocol.ts). Run by plain node as an esbuild bundle made the way the image's
 * program is (scripts/bundle.mjs bench, which the bench script runs first): no TypeScript compiler in
 * the process, and only the parts of client-node the controller uses, as in the image.
 */
import { writeFileSync } from 'node:fs';
import { Session } from 'node:inspector/promises';
import process from 'node:process';
import { writeHeapSnapshot } from 'node:v8';
import { KubeConfig } from '@kubernetes/client-node';
import { pino } from 'pino';
import { startProcess, type RunningProcess } from '../src/index.ts';
import { DEFAULT_LEASE_NAME } from '../src/config/index.ts';
import { ownUsage } from './child-process.ts';
import { noopHook, NOOP_HOOK_MODULE } from './noop-hook.ts';
import type { ControllerReply, ControllerRequest } from './controller-protocol.ts';

const reply = (message: ControllerReply) => process.send?.(message);
let controller: RunningProcess | undefined;
let registration = '';
let profiler: Session | undefined;

process.on('message', (message: ControllerRequest) => {
  switch (message.kind) {
    case 'start': {
      const kubeConfig = new KubeConfig();
      kubeConfig.loadFromString(message.kubeconfig);
      registration = message.registration;
      controller = startProcess({
        kubeConfig,
        scobyNamespace: message.scobyNamespace,
        clusterDomain: 'cluster.local',
        concurrency: message.concurrency,
        plugins: [],
        ...(message.hookModule
          ? { hookModules: new Map([[NOOP_HOOK_MODULE, { ok: true as const, handlers: noopHook }]]) }
          : {}),
        ...(message.leaderElection
          ? {
              leaderElection: {
                enabled: true as const,
                mode: message.leaderElection.mode,
                namespace: message.scobyNamespace,
                leaseName: DEFAULT_LEASE_NAME,
              },
              ...(message.leaderElection.leaseDurationMs === undefined
                ? {}
                : { leaseDurationMs: message.leaderElection.leaseDurationMs }),
            }
          : { leaderElection: { enabled: false as const } }),
        ...benchApiRateLimit(),
        logger: pino({ level: process.env.LOG_LEVEL ?? 'silent' }),
      });
      reply({ kind: 'started' });
      return;
    }
    case 'owned':
      reply({ kind: 'owned', registrations: controller?.ownedRegistrations() ?? null });
      return;
    case 'reconcile-counts':
      void reconcileCounts().then((counts) => reply({ kind: 'reconcile-counts', counts }));
      return;
    case 'reconciles':
      void countOf('controller_runtime_reconcile_total').then((count) =>
        reply({ kind: 'reconciles', count }),
      );
      return;
    case 'hook-calls':
      void Promise.all([
        countOf('scoby_hook_calls_total'),
        countOf('scoby_hook_calls_total', (labels) => labels.outcome !== 'success'),
      ]).then(([calls, failures]) => reply({ kind: 'hook-calls', calls, failures }));
      return;
    case 'usage':
      reply({ kind: 'usage', ...ownUsage() });
      return;
    case 'synced':
      reply({ kind: 'synced', synced: controller?.isReady() ?? false });
      return;
    case 'heap': {
      const gc = (globalThis as { gc?: () => void }).gc;
      gc?.();
      gc?.();
      const memory = process.memoryUsage();
      reply({
        kind: 'heap',
        heapUsedBytes: memory.heapUsed,
        rssBytes: memory.rss,
        collected: gc !== undefined,
      });
      return;
    }
    case 'profile-start':
      void startProfiler().then(() => reply({ kind: 'profiling' }));
      return;
    case 'profile-stop':
      void stopProfiler(message.path).then(() => reply({ kind: 'profile', path: message.path }));
      return;
    case 'heap-snapshot': {
      const gc = (globalThis as { gc?: () => void }).gc;
      gc?.();
      gc?.();
      writeHeapSnapshot(message.path);
      reply({ kind: 'heap-snapshot', path: message.path });
      return;
    }
    case 'stop':
      void (controller?.stop() ?? Promise.resolve()).then(() => process.exit(0));
      return;
  }
});

/** The inspector's sampling profiler, every 1 ms (V8's default), from now until stopProfiler. */
async function startProfiler(): Promise<void> {
  profiler = new Session();
  profiler.connect();
  await profiler.post('Profiler.enable');
  await profiler.post('Profiler.setSamplingInterval', { interval: 1_000 });
  await profiler.post('Profiler.start');
}

async function stopProfiler(path: string): Promise<void> {
  if (profiler === undefined) throw new Error('profile-stop without profile-start');
  const { profile } = await profiler.post('Profiler.stop');
  writeFileSync(path, JSON.stringify(profile));
  profiler.disconnect();
  profiler = undefined;
}

/**
 * BENCH_API_QPS and BENCH_API_BURST, the controller's --kube-api-qps and --kube-api-burst; absent,
 * the controller's defaults. BENCH_API_QPS=0 turns the client-side rate limit off.
 */
function benchApiRateLimit(): { apiRateLimit?: { qps: number; burst: number } } {
  const qps = process.env.BENCH_API_QPS;
  if (qps === undefined) return {};
  return {
    apiRateLimit: { qps: Number(qps), burst: Number(process.env.BENCH_API_BURST ?? 2 * Number(qps)) },
  };
}

/** A counter of the bench's registration, summed over its other labels. */
/** A counter of the registration, summed over the series whose labels `select` keeps. */
async function countOf(
  name: string,
  select: (labels: Partial<Record<string, string | number>>) => boolean = () => true,
): Promise<number> {
  const metric = controller?.metrics.registry.getSingleMetric(name);
  if (!metric) return 0;
  const { values } = await metric.get();
  return values
    .filter((value) => value.labels.controller === registration && select(value.labels))
    .reduce((sum, value) => sum + value.value, 0);
}

async function reconcileCounts(): Promise<Record<string, number>> {
  const metric = controller?.metrics.registry.getSingleMetric('controller_runtime_reconcile_total');
  const counts: Record<string, number> = {};
  if (!metric) return counts;
  for (const { labels, value } of (await metric.get()).values) {
    const name = String(labels.controller ?? '');
    counts[name] = (counts[name] ?? 0) + value;
  }
  return counts;
}

reply({ kind: 'ready', rssMiB: process.memoryUsage.rss() / 1024 / 1024 });
