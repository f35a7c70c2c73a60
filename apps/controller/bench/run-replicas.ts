/**
 * One replicas run: a fresh API server holding R × N instances and no registration, M controllers
 * each in a process of its own with leader election on. Once every controller has synced its caches
 * and settled, each one's loaded RSS is read; then the registrations are created and the clock runs
 * until every instance is Ready=True. With `kill`, one replica is then killed (SIGKILL) and the
 * bench times how long its registrations wait for the others (see KillFigures).
 */
import { DynamicClient } from '@scoby/controller-runtime';
import { startApiServerProcess } from './api-server-client.ts';
import type { ProcessUsage } from './child-process.ts';
import { startControllerChild, type ControllerChild } from './controller-client.ts';
import type { BenchLeaderElection } from './controller-protocol.ts';
import type { ProcessFigures } from './measure.ts';
import { watchReplicasWorld } from './replicas-readiness.ts';
import { sleep, waitUntil } from './run-controller.ts';
import {
  createRegistrations,
  createReplicasWorld,
  editInstance,
  registrationName,
} from './replicas-world.ts';

/** How long a controller runs after its caches synced before its loaded RSS is read. */
const SETTLE_MS = 3_000;
/** The harness's poll of the replicas' owned registrations and reconcile counts after a kill. */
const POLL_MS = 100;

export interface ReplicasRunOptions {
  replicas: number;
  registrations: number;
  perRegistration: number;
  concurrency: number;
  leaderElection: BenchLeaderElection;
  /** Kill one replica after convergence and time the hand-over of its registrations. */
  kill: boolean;
}

export interface ReplicaFigures {
  /** RSS with the code loaded, before the controller started. */
  codeLoadedRssMiB: number;
  /**
   * The loaded RSS: the peak over the process's life once its caches synced with no registration
   * and it ran SETTLE_MS more (the controller bench's N = 0 figure, registrations being what brings
   * instances and children into a replica's caches).
   */
  loadedRssMiB: number;
  /** Peak RSS over the process's life up to convergence (1 s after it). */
  peakRssMiB: number;
  /** CPU from the registrations' creation to convergence (+ 1 s). */
  cpuSeconds: number;
  /** Active-active: the registrations it held at convergence. */
  owned: string[] | undefined;
  reconciles: number;
  /**
   * Live heap before the registrations and after convergence; after full collections when the
   * children run with --expose-gc (BENCH_CONTROLLER_NODE_ARGS), else an upper bound.
   */
  heap: { loadedMiB: number; convergedMiB: number; collected: boolean };
}

export interface KillFigures {
  victim: number;
  /** The victim's registrations. */
  registrations: string[];
  /** Seconds from SIGKILL until a surviving replica holds each registration's Lease. */
  ownedAfter: Record<string, number>;
  /** Seconds from SIGKILL until a surviving replica's first reconcile of each registration's instances. */
  firstReconcileAfter: Record<string, number>;
  /**
   * Seconds from SIGKILL until the edit of one instance of each registration (made right after the
   * kill) is reconciled: status Ready at the edit's generation.
   */
  editReconciledAfter: Record<string, number>;
  /** The survivors' peak RSS over their life after the hand-over settled (1 s after the last edit). */
  survivorPeakRssMiB: number[];
}

export interface ReplicasRun {
  convergeSeconds: number;
  replicas: ReplicaFigures[];
  server: ProcessFigures;
  kill?: KillFigures;
}

export async function runReplicas(options: ReplicasRunOptions): Promise<ReplicasRun> {
  const { registrations, perRegistration } = options;
  const server = await startApiServerProcess();
  const kubeConfig = server.kubeConfig();
  const client = new DynamicClient(kubeConfig);
  await createReplicasWorld(client, registrations, perRegistration, options.concurrency * 4);
  const watch = await watchReplicasWorld(client, registrations, perRegistration);

  const controllers: ControllerChild[] = [];
  for (let index = 0; index < options.replicas; index++) controllers.push(await startControllerChild());
  await Promise.all(
    controllers.map((controller) =>
      controller.start(kubeConfig, options.concurrency, false, options.leaderElection),
    ),
  );
  await Promise.all(
    controllers.map((controller) =>
      waitUntil(() => controller.synced(), 120_000, 'a controller did not sync its caches'),
    ),
  );
  await sleep(SETTLE_MS);
  const loaded = await Promise.all(controllers.map((controller) => controller.usage()));
  const heapLoaded = await Promise.all(controllers.map((controller) => controller.heap()));

  const serverBefore = await server.usage();
  const started = performance.now();
  await createRegistrations(client, registrations);
  await watch.allReady();
  const convergeSeconds = (performance.now() - started) / 1000;
  await sleep(1_000);
  const converged = await Promise.all(controllers.map((controller) => controller.usage()));
  const serverAfter = await server.usage();
  const heapConverged = await Promise.all(controllers.map((controller) => controller.heap()));
  const replicas = await Promise.all(
    controllers.map(async (controller, index) => ({
      codeLoadedRssMiB: controller.loadedRssMiB,
      loadedRssMiB: mib(loaded[index]!),
      peakRssMiB: mib(converged[index]!),
      cpuSeconds: converged[index]!.cpuSeconds - loaded[index]!.cpuSeconds,
      owned: await controller.owned(),
      reconciles: sum(await controller.reconcileCounts(), registrations),
      heap: {
        loadedMiB: heapLoaded[index]!.heapUsedBytes / 2 ** 20,
        convergedMiB: heapConverged[index]!.heapUsedBytes / 2 ** 20,
        collected: heapLoaded[index]!.collected && heapConverged[index]!.collected,
      },
    })),
  );

  const kill = options.kill ? await killOne(controllers, client, watch) : undefined;

  watch.stop();
  for (const [index, controller] of controllers.entries()) {
    if (index !== kill?.victim) await controller.stop();
  }
  client.close();
  await server.stop();
  return {
    convergeSeconds,
    replicas,
    server: {
      cpuSeconds: serverAfter.cpuSeconds - serverBefore.cpuSeconds,
      peakRssMiB: serverAfter.maxRssKiB / 1024,
    },
    ...(kill ? { kill } : {}),
  };
}

/**
 * Kills the replica that holds the most registrations, edits one instance of each of them at once
 * (the edit waits in the API server for whoever takes the registration), and polls the survivors
 * until every edit is reconciled.
 */
async function killOne(
  controllers: ControllerChild[],
  client: DynamicClient,
  watch: Awaited<ReturnType<typeof watchReplicasWorld>>,
): Promise<KillFigures> {
  const owned = await Promise.all(controllers.map(async (controller) => (await controller.owned()) ?? []));
  const victim = owned.reduce((best, keys, index) => (keys.length > owned[best]!.length ? index : best), 0);
  const taken = owned[victim]!;
  const survivors = controllers.filter((_, index) => index !== victim);
  const countsBefore = await Promise.all(survivors.map((controller) => controller.reconcileCounts()));

  const killedAt = performance.now();
  const since = (at: number) => (at - killedAt) / 1000;
  await controllers[victim]!.kill();
  const edits = await Promise.all(
    taken.map(async (name) => {
      const index = indexOf(name);
      const generation = await editInstance(client, index, 0, `after-kill-${Date.now()}@example.com`);
      return { name, reconciled: watch.reconciledAt(index, 'mailer-0', generation) };
    }),
  );

  const ownedAfter: Record<string, number> = {};
  const firstReconcileAfter: Record<string, number> = {};
  const editReconciledAfter: Record<string, number> = {};
  for (const { name, reconciled } of edits) {
    void reconciled.then((at) => (editReconciledAfter[name] = since(at)));
  }
  const deadline = performance.now() + 180_000;
  const seen = () =>
    Math.min(
      ...[ownedAfter, firstReconcileAfter, editReconciledAfter].map((times) => Object.keys(times).length),
    );
  while (seen() < taken.length) {
    if (performance.now() > deadline)
      throw new Error('the killed replica’s registrations were not taken over');
    const now = performance.now();
    const [held, counts] = await Promise.all([
      Promise.all(survivors.map(async (controller) => (await controller.owned()) ?? [])),
      Promise.all(survivors.map((controller) => controller.reconcileCounts())),
    ]);
    for (const name of taken) {
      if (ownedAfter[name] === undefined && held.some((keys) => keys.includes(name)))
        ownedAfter[name] = since(now);
      if (
        firstReconcileAfter[name] === undefined &&
        counts.some((count, at) => (count[name] ?? 0) > (countsBefore[at]![name] ?? 0))
      )
        firstReconcileAfter[name] = since(now);
    }
    await sleep(POLL_MS);
  }
  await sleep(1_000);
  const survivorUsage = await Promise.all(survivors.map((controller) => controller.usage()));
  return {
    victim,
    registrations: taken,
    ownedAfter,
    firstReconcileAfter,
    editReconciledAfter,
    survivorPeakRssMiB: survivorUsage.map(mib),
  };
}

/** `mailer-<index>` → index. */
function indexOf(name: string): number {
  return Number(name.slice(name.lastIndexOf('-') + 1));
}

/** Reconciles of the bench's registrations' instances (not the registration controller's own). */
function sum(counts: Record<string, number>, registrations: number): number {
  let total = 0;
  for (let index = 0; index < registrations; index++) total += counts[registrationName(index)] ?? 0;
  return total;
}

const mib = (usage: ProcessUsage) => usage.maxRssKiB / 1024;
