/**
 * Controller benchmark (not a test; prints figures). For each N: time from controller start until
 * N instances of one registration are Ready=True with their children, against the floor (the same
 * minimum writes in a plain loop), peak RSS, and writes in the steady state; then the overhead of a
 * no-op pre-reconcile hook. The API server and the controller run in child processes of their own, so
 * the controller's peak RSS and CPU are its own, apart from the harness's (this process) and the API
 * server's; CPU seconds are printed too, being steadier than wall time on a shared machine.
 *
 * The controller child is an esbuild bundle made as the image's program is (the bench script builds it
 * first) run by plain node, so its start-up memory is the program's. Every figure is printed with the
 * machine's load.
 *
 * The hook runs compare, at the same size and alternating, the controller without a hook, with the
 * same no-op pre-reconcile hook served over HTTP, and with it in-process (spec.hook.module).
 *
 * Run: npx nx run controller:bench. BENCH_N=1000,10000 (default) picks the sizes (0: the loaded RSS,
 * code loaded and caches synced with no instance); BENCH_HOOK_N=1000 the hook runs' size (0 skips
 * them); BENCH_ROUNDS (default 2 up to 2,000 instances, else 1) repeats every run, alternating
 * controller and floor.
 */
import { readFileSync } from 'node:fs';
import { runFloor } from './floor.ts';
import type { Measurement } from './measure.ts';
import { SHIPPED_NODE_OPTIONS } from './controller-client.ts';
import type { BenchHook } from './noop-hook.ts';
import { runController, type ControllerRun } from './run-controller.ts';

/** The controller's --concurrency; it runs at most four times this many reconciles at once. */
const CONCURRENCY = 8;
const WORKERS = CONCURRENCY * 4;
const RSS_TARGET_MIB = 200;
const LOADED_RSS_TARGET_MIB = 80;
const HEAP_PER_INSTANCE_TARGET_BYTES = 3 * 1024;
const CPU_MS_PER_INSTANCE_TARGET = 0.6;
/** The machine's load when a figure was taken: the bench shares the machine with other work. */
const load = () => `load ${readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ')}`;

const sizes = (process.env.BENCH_N ?? '1000,10000').split(',').map(Number);
const hookSize = Number(process.env.BENCH_HOOK_N ?? 1000);
const roundsFor = (count: number) => Number(process.env.BENCH_ROUNDS ?? (count <= 2_000 ? 2 : 1));

const fmt = (value: number, digits = 2) => value.toFixed(digits);
const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
};
const medianOf = (runs: Measurement[], figure: (run: Measurement) => number) => median(runs.map(figure));
const describe = (runs: Measurement[]) => {
  const cpu = (label: string, figure: (run: Measurement) => number | undefined) =>
    runs.every((run) => figure(run) !== undefined)
      ? [`${label} ${fmt(median(runs.map((run) => figure(run) ?? 0)))}`]
      : [];
  const cpus = [
    ...cpu('controller', (run) => run.controller?.cpuSeconds),
    ...cpu('harness', (run) => run.bench.cpuSeconds),
    ...cpu('API server', (run) => run.server.cpuSeconds),
  ];
  return `${runs.map((run) => fmt(run.seconds)).join(' ')}  (median ${fmt(medianOf(runs, (run) => run.seconds))}; CPU s: ${cpus.join(', ')})`;
};

console.log(
  `controller bench: concurrency ${CONCURRENCY} (${WORKERS} reconciles at once), floor on ${WORKERS} workers; ` +
    `controller child run with NODE_OPTIONS "${SHIPPED_NODE_OPTIONS}" as deploy/20-deployment.yaml`,
);
for (const count of sizes) {
  if (count === 0) {
    await printLoadedRss();
    continue;
  }
  const floors: Measurement[] = [];
  const controllers: ControllerRun[] = [];
  for (let round = 0; round < roundsFor(count); round++) {
    controllers.push(
      await runController({ count, concurrency: CONCURRENCY, hook: 'none', steadyState: round === 0 }),
    );
    floors.push(await runFloor(count, WORKERS));
  }
  const ratio = medianOf(controllers, (run) => run.seconds) / medianOf(floors, (run) => run.seconds);
  const peak = <Run extends Measurement>(runs: Run[], figure: (run: Run) => number) =>
    fmt(Math.max(...runs.map(figure)), 0);
  const steady = controllers[0]!;
  console.log(`\nN = ${count}  (${load()})`);
  console.log(`  controller s   ${describe(controllers)}`);
  console.log(`  floor s        ${describe(floors)}`);
  console.log(`  ratio          ${fmt(ratio)}  (target ≤ 1.5 at N = 10,000)`);
  const cpuMsPerInstance = (medianOf(controllers, (run) => run.controller?.cpuSeconds ?? 0) * 1000) / count;
  console.log(
    `  controller CPU ${fmt(cpuMsPerInstance, 3)} ms per instance  (target ≤ ${CPU_MS_PER_INSTANCE_TARGET})`,
  );
  console.log(
    `  peak RSS MiB   controller process ${peak(controllers, (run) => run.controller.peakRssMiB)} (target < ${RSS_TARGET_MIB}); ` +
      `${peak(controllers, (run) => run.controllerLoadedRssMiB)} with its code loaded, before it started (target < ${LOADED_RSS_TARGET_MIB}); ` +
      `harness ${peak(controllers, (run) => run.bench.peakRssMiB)}; floor process ${peak(floors, (run) => run.bench.peakRssMiB)}; ` +
      `API server process ${peak(controllers, (run) => run.server.peakRssMiB)}`,
  );
  const { heap } = steady;
  const heapPerInstance = (heap.convergedBytes - heap.loadedBytes) / count;
  console.log(
    `  live heap      ${fmt(heap.convergedBytes / 2 ** 20, 1)} MiB converged, ${fmt(heap.loadedBytes / 2 ** 20, 1)} MiB loaded: ` +
      `${fmt(heapPerInstance, 0)} bytes per instance (target ≤ ${HEAP_PER_INSTANCE_TARGET_BYTES})` +
      (heap.collected ? '' : '  (no --expose-gc: not collected first, an upper bound)') +
      `; RSS then ${fmt(heap.convergedRssBytes / 2 ** 20, 0)} MiB`,
  );
  const perInstance = Object.entries(steady.convergeRequests)
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([key, total]) => `${key} ${fmt(total / count)}`);
  console.log(`  requests/inst. ${perInstance.join(', ')}  (until converged)`);
  console.log(`  reconciles/inst. ${fmt(steady.convergeReconciles / count)}  (until converged)`);
  console.log(
    `  steady state   ${steady.steadyStateWrites.length} writes over ${steady.steadyStateReconciles} reconciles (target 0)`,
  );
  for (const write of steady.steadyStateWrites.slice(0, 10)) console.log(`    ${write}`);
}

/**
 * N = 0: the controller with its code loaded and its caches synced, no instance. The figure beside the
 * target is the larger of the peak over the process's life (about 5 s after the start) and the RSS
 * after the caches synced and full collections (with --expose-gc).
 */
async function printLoadedRss(): Promise<void> {
  const run = await runController({ count: 0, concurrency: CONCURRENCY, hook: 'none', steadyState: true });
  const syncedMiB = run.heap.convergedRssBytes / 2 ** 20;
  console.log(`\nN = 0  (${load()})`);
  console.log(
    `  loaded RSS     ${fmt(Math.max(run.lifePeakRssMiB, syncedMiB), 1)} MiB with the caches synced and no instance ` +
      `(target < ${LOADED_RSS_TARGET_MIB}): peak ${fmt(run.lifePeakRssMiB, 1)} MiB over its life, ` +
      `${fmt(syncedMiB, 1)} MiB after the caches synced` +
      (run.heap.collected ? ' and full collections' : '') +
      `; ${fmt(run.controllerLoadedRssMiB, 1)} MiB with its code loaded, before it started`,
  );
  console.log(
    `  live heap      ${fmt(run.heap.convergedBytes / 2 ** 20, 1)} MiB synced, ${fmt(run.heap.loadedBytes / 2 ** 20, 1)} MiB loaded`,
  );
}

if (hookSize > 0) {
  const runs: Record<BenchHook, Measurement[]> = { none: [], http: [], module: [] };
  for (let round = 0; round < roundsFor(hookSize); round++) {
    for (const hook of ['none', 'http', 'module'] as const) {
      runs[hook].push(
        await runController({ count: hookSize, concurrency: CONCURRENCY, hook, steadyState: false }),
      );
    }
  }
  const seconds = (hook: BenchHook) => medianOf(runs[hook], (run) => run.seconds);
  console.log(`\nno-op pre-reconcile hook (the same handlers both ways), N = ${hookSize}  (${load()})`);
  console.log(`  without hook s ${describe(runs.none)}`);
  console.log(`  HTTP hook s    ${describe(runs.http)}`);
  console.log(`  in-process s   ${describe(runs.module)}`);
  // The HTTP hook's server runs in the harness: its CPU counts with the controller's.
  const cpu = (hook: BenchHook) =>
    medianOf(runs[hook], (run) => (run.controller?.cpuSeconds ?? 0) + (run.bench.cpuSeconds ?? 0));
  console.log(
    `  HTTP ratio     ${fmt(seconds('http') / seconds('none'))}  (target ≤ 1.15); ` +
      `CPU ratio (controller + harness) ${fmt(cpu('http') / cpu('none'))}`,
  );
  console.log(
    `  in-process ratio ${fmt(seconds('module') / seconds('none'))}  (target ≤ 1.05); ` +
      `CPU ratio (controller + harness) ${fmt(cpu('module') / cpu('none'))}`,
  );
}
