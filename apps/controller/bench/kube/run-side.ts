/**
 * One side of the real-control-plane bench (the floor, Scoby's controller or a peer) on a control
 * plane of its own: the world is created, the harness's one watch of the instances is opened, then the
 * clock, the CPU readings, the CPU ledger's window (others' CPU) and kube-apiserver's request counters
 * start, the side starts, and all stop when every instance is Ready=True. Then each instance's Ready
 * lag behind its Deployment's Available is read from the two objects (ready-lag.ts).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { DynamicClient } from '@scoby/controller-runtime';
import { startControllerChild } from '../controller-client.ts';
import { watchReadiness, isReady } from '../readiness.ts';
import { INSTANCES, DEPLOYMENTS, NAMESPACE, registration } from '../world.ts';
import type { Interference } from '../protocol/cpu-ledger.ts';
import type { InterferenceMeter } from '../protocol/interference.ts';
import { treePriorities } from '../protocol/setup.ts';
import { readyLags, type ReadyLag } from '../ready-lag.ts';
import { startBenchCluster, type BenchCluster } from './bench-cluster.ts';
import { runKubeFloor } from './kube-floor.ts';
import { countsBetween, measuredRequestCounts, scrapeMetrics } from './measured-requests.ts';
import { runPeerSetup, startPeer, type PeerSpec } from './peer-process.ts';
import { sampleProcessTree, type TreeUsage } from './process-tree.ts';

export type Side = { kind: 'floor' } | { kind: 'controller' } | { kind: 'peer'; peer: PeerSpec };

export interface SideRun {
  seconds: number;
  /** The side's own process: the controller child, the peer's process tree, or (floor) this process. */
  cpuSeconds: number;
  peakRssMiB: number;
  /** The controller child's RSS with its code loaded, before it started. */
  loadedRssMiB?: number;
  /** The controller's reconciles of the registration's instances (controller_runtime_reconcile_total). */
  reconciles?: number;
  /** etcd, kube-apiserver, kube-controller-manager, kube-scheduler and kwok together. */
  controlPlane: TreeUsage;
  /** The side's requests by `VERB resource` (measured-requests.ts). */
  requests: Map<string, number>;
  /** /proc/loadavg when the side converged. */
  load: string;
  /** Each instance's Ready lag behind its Deployment's Available, in the order they became Available. */
  lags: ReadyLag[];
  /** Others' CPU while the side ran. */
  interference: Interference;
  /** The nice values of the bench's process tree while the side ran (setup.ts). */
  priorities: { text: string; pinned: boolean };
  /** Scoby's controller with SideOptions.profileDir: its CPU profile from its start to convergence. */
  cpuProfilePath?: string;
  /** Scoby's controller with SideOptions.heapSnapshotDir: with its code loaded, and at convergence. */
  heapSnapshotPaths?: { loaded: string; converged: string };
  /** Scoby's controller only, with SideOptions.restart: a new process started over the converged world. */
  restart?: RestartRun;
}

/** A fresh controller process over a world the previous one converged: what a restart costs. */
export interface RestartRun {
  /** From the start until every instance was reconciled once. */
  firstPassSeconds: number;
  /** From the start until the last reconcile before 5 s without one: the steady state. */
  steadySeconds: number;
  cpuSeconds: number;
  peakRssMiB: number;
  reconciles: number;
  /** Its requests by `VERB resource`, until the steady state. */
  requests: Map<string, number>;
  load: string;
}

export interface SideOptions {
  count: number;
  concurrency: number;
  kubeApiQps: number;
  timeoutMs: number;
  /** After Scoby's controller converged, measure a restart of it (RestartRun). */
  restart?: boolean;
  /** The CPU ledger whose window spans the side's run. */
  meter: InterferenceMeter;
  /** Names the files of this run (profiles, snapshots). */
  round: number;
  /** Where Scoby's controller writes a CPU profile of its run (the inspector's, started with it). */
  profileDir?: string;
  /** Where Scoby's controller writes heap snapshots: code loaded, and converged. */
  heapSnapshotDir?: string;
  log(line: string): void;
}

export const loadavg = () => readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ');

/** The side, started when the clock starts. */
interface Started {
  usage(): TreeUsage;
  loadedRssMiB?: number;
  reconciles?(): number;
  /** Resolves when the side's own work is done (the floor), never for a controller. */
  finished: Promise<void>;
  stop(): Promise<void>;
  cpuProfilePath?: string;
  heapSnapshotPaths?: { loaded: string; converged: string };
}

/**
 * Whatever precedes the side's start is done before the clock starts (the controller child is forked
 * and its code loaded, as the in-memory bench does); `start` runs inside the clock. A peer's process
 * starts inside the clock: the bench cannot tell its loading from its work.
 */
async function prepareSide(
  side: Side,
  cluster: BenchCluster,
  options: SideOptions,
): Promise<() => Promise<Started>> {
  const environment = {
    kubeconfigPath: cluster.peerKubeconfigPath,
    count: options.count,
    concurrency: options.concurrency,
  };
  switch (side.kind) {
    case 'floor': {
      return async () => {
        const client = new DynamicClient(cluster.controllerKubeConfig);
        const cpuBefore = process.cpuUsage();
        const finished = runKubeFloor(client, options.count, options.concurrency);
        return {
          usage: () => {
            const cpu = process.cpuUsage(cpuBefore);
            return {
              cpuSeconds: (cpu.user + cpu.system) / 1e6,
              peakRssMiB: process.resourceUsage().maxRSS / 1024,
            };
          },
          finished,
          stop: async () => client.close(),
        };
      };
    }
    case 'controller': {
      const controller = await startControllerChild();
      const before = await controller.usage();
      const name = `controller-N${options.count}-round${options.round}`;
      const cpuProfilePath = options.profileDir && join(options.profileDir, `${name}.cpuprofile`);
      const heapSnapshotPaths = options.heapSnapshotDir
        ? {
            loaded: join(options.heapSnapshotDir, `${name}-loaded.heapsnapshot`),
            converged: join(options.heapSnapshotDir, `${name}-converged.heapsnapshot`),
          }
        : undefined;
      if (heapSnapshotPaths) await controller.heapSnapshot(heapSnapshotPaths.loaded);
      return async () => {
        if (cpuProfilePath) await controller.startProfile();
        await controller.start(cluster.controllerKubeConfig, options.concurrency);
        let usage: TreeUsage = { cpuSeconds: 0, peakRssMiB: 0 };
        let reconciles = 0;
        const read = async () => {
          const now = await controller.usage();
          usage = { cpuSeconds: now.cpuSeconds - before.cpuSeconds, peakRssMiB: now.maxRssKiB / 1024 };
          reconciles = await controller.reconciles();
        };
        return {
          usage: () => usage,
          loadedRssMiB: controller.loadedRssMiB,
          reconciles: () => reconciles,
          finished: new Promise(() => {}),
          ...(cpuProfilePath ? { cpuProfilePath } : {}),
          ...(heapSnapshotPaths ? { heapSnapshotPaths } : {}),
          stop: async () => {
            await read();
            if (cpuProfilePath) await controller.stopProfile(cpuProfilePath);
            if (heapSnapshotPaths) await controller.heapSnapshot(heapSnapshotPaths.converged);
            await controller.stop();
          },
        };
      };
    }
    case 'peer': {
      return async () => {
        const peer = await startPeer(side.peer, environment);
        options.log(`${side.peer.name} started (pid ${peer.pid}, log ${peer.logPath})`);
        const sampler = sampleProcessTree([peer.pid]);
        let usage: TreeUsage = { cpuSeconds: 0, peakRssMiB: 0 };
        return {
          usage: () => usage,
          finished: peer.exited,
          stop: async () => {
            usage = sampler.stop();
            await peer.stop();
          },
        };
      };
    }
  }
}

export async function runSide(side: Side, options: SideOptions): Promise<SideRun> {
  const cluster = await startBenchCluster({
    count: options.count,
    concurrency: options.concurrency,
    kubeApiQps: options.kubeApiQps,
    ...(side.kind === 'floor' ? {} : { registration: registration() }),
    log: options.log,
  });
  try {
    if (side.kind === 'peer') {
      const setupLog = await runPeerSetup(side.peer, {
        kubeconfigPath: cluster.peerKubeconfigPath,
        count: options.count,
        concurrency: options.concurrency,
      });
      if (setupLog) options.log(`${side.peer.name} set up (log ${setupLog})`);
    }
    const startSide = await prepareSide(side, cluster, options);
    const readiness = await watchReadiness(cluster.admin, options.count);
    const progress = setInterval(() => void reportProgress(cluster, options), 30_000);
    const plane = sampleProcessTree(cluster.plane.pids, { descendants: false });
    const before = measuredRequestCounts(await scrapeMetrics(cluster.adminKubeConfig));
    const closeWindow = await options.meter.window();
    const started = performance.now();
    const running = await startSide();
    let seconds: number;
    let priorities: SideRun['priorities'];
    let interference: Interference;
    try {
      await Promise.race([
        readiness.allReady(),
        running.finished.then(() => readiness.allReady()),
        timeout(options),
      ]);
      seconds = (performance.now() - started) / 1000;
      priorities = treePriorities();
    } finally {
      interference = await closeWindow();
      clearInterval(progress);
      readiness.stop();
      await running.stop();
    }
    const controlPlane = plane.stop();
    const lags = readyLags(
      (await cluster.admin.list(INSTANCES, NAMESPACE)).items,
      (await cluster.admin.list(DEPLOYMENTS, NAMESPACE)).items,
    );
    const after = measuredRequestCounts(await scrapeMetrics(cluster.adminKubeConfig));
    const usage = running.usage();
    const restart =
      side.kind === 'controller' && options.restart ? await measureRestart(cluster, options) : undefined;
    return {
      seconds,
      cpuSeconds: usage.cpuSeconds,
      peakRssMiB: usage.peakRssMiB,
      ...(running.loadedRssMiB === undefined ? {} : { loadedRssMiB: running.loadedRssMiB }),
      ...(running.reconciles ? { reconciles: running.reconciles() } : {}),
      controlPlane,
      requests: countsBetween(before, after),
      load: loadavg(),
      lags,
      interference,
      priorities,
      ...(running.cpuProfilePath ? { cpuProfilePath: running.cpuProfilePath } : {}),
      ...(running.heapSnapshotPaths ? { heapSnapshotPaths: running.heapSnapshotPaths } : {}),
      ...(restart ? { restart } : {}),
    };
  } finally {
    await cluster.stop();
  }
}

/** Quiet this long after the first pass: the steady state was reached at the last reconcile before it. */
const STEADY_QUIET_MS = 5_000;

/**
 * Starts a new controller process over the converged world (the previous one stopped) and waits for
 * the steady state: every instance reconciled once, then no reconcile for STEADY_QUIET_MS.
 */
async function measureRestart(cluster: BenchCluster, options: SideOptions): Promise<RestartRun> {
  const controller = await startControllerChild();
  const before = await controller.usage();
  const requestsBefore = measuredRequestCounts(await scrapeMetrics(cluster.adminKubeConfig));
  const started = performance.now();
  const deadline = started + options.timeoutMs;
  await controller.start(cluster.controllerKubeConfig, options.concurrency);
  let reconciles = 0;
  let firstPassSeconds: number | undefined;
  let lastChange = performance.now();
  for (;;) {
    await new Promise((resolve) => setTimeout(resolve, 200));
    const now = await controller.reconciles();
    if (now !== reconciles) {
      reconciles = now;
      lastChange = performance.now();
    }
    if (firstPassSeconds === undefined && reconciles >= options.count)
      firstPassSeconds = (performance.now() - started) / 1000;
    if (firstPassSeconds !== undefined && performance.now() - lastChange >= STEADY_QUIET_MS) break;
    if (performance.now() > deadline) {
      await controller.stop();
      throw new Error(`the restarted controller reconciled ${reconciles} of ${options.count} in time`);
    }
  }
  const requestsAfter = measuredRequestCounts(await scrapeMetrics(cluster.adminKubeConfig));
  const usage = await controller.usage();
  await controller.stop();
  return {
    firstPassSeconds: firstPassSeconds ?? 0,
    steadySeconds: (lastChange - started) / 1000,
    cpuSeconds: usage.cpuSeconds - before.cpuSeconds,
    peakRssMiB: usage.maxRssKiB / 1024,
    reconciles,
    requests: countsBetween(requestsBefore, requestsAfter),
    load: loadavg(),
  };
}

function timeout(options: SideOptions): Promise<never> {
  return new Promise((_, reject) => {
    setTimeout(
      () => reject(new Error(`not every instance was Ready=True within ${options.timeoutMs / 1000} s`)),
      options.timeoutMs,
    ).unref();
  });
}

/** Every 30 s on a slow side: how far it got (the admin's reads are exempt, never counted). */
async function reportProgress(cluster: BenchCluster, options: SideOptions): Promise<void> {
  try {
    const instances = (await cluster.admin.list(INSTANCES, NAMESPACE)).items;
    options.log(`  ${instances.filter(isReady).length}/${options.count} Ready (load ${loadavg()})`);
  } catch (error) {
    options.log(`  progress: ${String(error)}`);
  }
}
