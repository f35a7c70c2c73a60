/**
 * One controller run: a fresh API server with the world already in it, then the controller starts
 * in a process of its own and the clock runs until every instance is Ready=True. Then the steady
 * state: every instance is reconciled again and the writes are counted.
 */
import { startHookServer, type HookServer } from '@scoby/hooks-v1';
import { DynamicClient } from '@scoby/controller-runtime';
import { startApiServerProcess } from './api-server-client.ts';
import { startControllerChild } from './controller-client.ts';
import { noopHook, NOOP_HOOK_MODULE, type BenchHook } from './noop-hook.ts';
import { watchReadiness } from './readiness.ts';
import { startMeasurement, type Measurement, type ProcessFigures } from './measure.ts';
import {
  DEPLOYMENTS,
  NAMESPACE,
  SERVICES,
  WORLD_WRITE_PATHS,
  createWorld,
  registration,
  updateFlagsConfigMap,
} from './world.ts';

export interface ControllerRun extends Measurement {
  controller: ProcessFigures;
  /** RSS of the controller process with its code loaded, before the controller started. */
  controllerLoadedRssMiB: number;
  /** Requests the API server answered until convergence (the harness's one list and watch too), by `METHOD code`. */
  convergeRequests: Record<string, number>;
  /** Reconciles of the registration's instances until convergence (controller_runtime_reconcile_total). */
  convergeReconciles: number;
  /** Non-GET requests while every instance was reconciled again after convergence. */
  steadyStateWrites: string[];
  steadyStateReconciles: number;
  /**
   * The controller's live heap in bytes (after full collections when BENCH_CONTROLLER_NODE_ARGS has
   * --expose-gc): with its code loaded before it started, and after convergence and the steady state.
   */
  heap: { loadedBytes: number; convergedBytes: number; convergedRssBytes: number; collected: boolean };
  /** Peak RSS of the controller process over its whole life, read last (after the steady state). */
  lifePeakRssMiB: number;
}

export interface ControllerRunOptions {
  count: number;
  /** The controller's --concurrency (the process-wide bound on reconciles is four times it). */
  concurrency: number;
  /** A no-op pre-reconcile hook over HTTP or in-process, or none. */
  hook: BenchHook;
  /** Measure the steady state after convergence. */
  steadyState: boolean;
  /** Write the controller's CPU profile from its start to convergence here (the inspector's). */
  cpuProfilePath?: string;
  /** Write heap snapshots of the controller here: `<name>-loaded` and `<name>-converged.heapsnapshot`. */
  heapSnapshots?: { loaded: string; converged: string };
}

export async function runController(options: ControllerRunOptions): Promise<ControllerRun> {
  const server = await startApiServerProcess();
  const controller = await startControllerChild();
  const hook: HookServer | undefined = options.hook === 'http' ? await startHookServer(noopHook) : undefined;
  const kubeConfig = server.kubeConfig();
  const client = new DynamicClient(kubeConfig);
  await createWorld(
    client,
    options.count,
    options.concurrency * 4,
    registration(hook?.url, options.hook === 'module' ? NOOP_HOOK_MODULE : undefined),
  );
  const readiness = await watchReadiness(client, options.count);

  const heapLoaded = await controller.heap();
  if (options.heapSnapshots) await controller.heapSnapshot(options.heapSnapshots.loaded);
  await server.clearRequestLog();
  if (options.cpuProfilePath) await controller.startProfile();
  const measure = await startMeasurement({ server, controller });
  await controller.start(kubeConfig, options.concurrency, options.hook === 'module');
  await readiness.allReady();
  const measurement = await measure();
  if (options.cpuProfilePath) await controller.stopProfile(options.cpuProfilePath);
  await waitUntil(() => controller.synced(), 60_000, 'the controller did not sync its caches');
  const convergeRequests = await server.requestCounts();
  const convergeReconciles = await controller.reconciles();
  await expectChildren(client, options.count);

  let steadyStateWrites: string[] = [];
  let steadyStateReconciles = 0;
  if (options.steadyState) {
    // Late events of the convergence (the last status writes coming back through the watch) settle first.
    await sleep(2_000);
    const before = await controller.reconciles();
    await server.clearRequestLog();
    await updateFlagsConfigMap(client, '2');
    // The ConfigMap change makes every instance of the registration reconcile again.
    await waitUntil(
      async () => (await controller.reconciles()) - before >= options.count,
      120_000,
      'steady state: not every instance was reconciled',
    );
    await sleep(2_000);
    steadyStateReconciles = (await controller.reconciles()) - before;
    steadyStateWrites = (await server.writes()).filter(
      (write) => write !== `PUT ${WORLD_WRITE_PATHS.configMap}`,
    );
  }
  await sleep(1_000);
  const heapConverged = await controller.heap();
  if (options.heapSnapshots) await controller.heapSnapshot(options.heapSnapshots.converged);
  const lifeUsage = await controller.usage();

  readiness.stop();
  await controller.stop();
  client.close();
  await hook?.close();
  await server.stop();
  if (!measurement.controller) throw new Error('the controller process reported no usage');
  return {
    ...measurement,
    controller: measurement.controller,
    controllerLoadedRssMiB: controller.loadedRssMiB,
    convergeRequests,
    convergeReconciles,
    steadyStateWrites,
    steadyStateReconciles,
    heap: {
      loadedBytes: heapLoaded.heapUsedBytes,
      convergedBytes: heapConverged.heapUsedBytes,
      convergedRssBytes: heapConverged.rssBytes,
      collected: heapLoaded.collected && heapConverged.collected,
    },
    lifePeakRssMiB: lifeUsage.maxRssKiB / 1024,
  };
}

async function expectChildren(client: DynamicClient, count: number): Promise<void> {
  const deployments = (await client.list(DEPLOYMENTS, NAMESPACE)).items.length;
  const services = (await client.list(SERVICES, NAMESPACE)).items.length;
  if (deployments !== count || services !== count) {
    throw new Error(`expected ${count} Deployments and Services, found ${deployments} and ${services}`);
  }
}

export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** Polls `condition` every 50 ms until it holds; throws `<what> within <timeout> ms` past the timeout. */
export async function waitUntil(
  condition: () => Promise<boolean>,
  timeoutMs: number,
  what: string,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`${what} within ${timeoutMs} ms`);
    await sleep(50);
  }
}
