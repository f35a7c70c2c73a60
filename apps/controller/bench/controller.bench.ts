/**
 * Controller benchmark (not a test; prints figures). For each N: time from controller start until
 * N instances of one registration are Ready=True with their children, against the floor (the same
 * minimum writes in a plain loop), peak RSS, and writes in the steady state; then the overhead of a
 * no-op pre-reconcile hook. The API server and the controller run in child processes of their own, so
 * the controller's peak RSS and CPU are its own, apart from the harness's (this process) and the API
 * server's.
 *
 * The controller child is an esbuild bundle made as the image's program is (the bench script builds it
 * first) run by plain node, so its start-up memory is the program's.
 *
 * The protocol (docs/operations/benchmarks.md): the setup is pinned and printed (the image's Node.js,
 * priorities, concurrency, the controller's client rate limit); the sides alternate over BENCH_ROUNDS
 * rounds (default 3) and each figure is the median and the spread of the rounds, CPU seconds first and
 * wall time second; others' CPU during each run (the CPU ledger, not the load average) marks it `noisy`
 * when it took over 10 % of a core.
 *
 * The hook runs compare, at the same size and alternating, the controller without a hook, with the
 * same no-op pre-reconcile hook served over HTTP, and with it in-process (spec.hook.module).
 *
 * Run: npx nx run controller:bench. BENCH_N=1000,10000 (default) picks the sizes (0: the loaded RSS,
 * code loaded and caches synced with no instance); BENCH_HOOK_N=1000 the hook runs' size (0 skips
 * them); BENCH_ROUNDS (default 3) repeats every run, alternating controller and floor;
 * BENCH_CPU_PROFILE=<dir> profiles the controller's first round of each size (top 15 functions by self
 * time); BENCH_HEAP_SNAPSHOT=<dir> takes its heap snapshots (code loaded, converged) and breaks the
 * heap per instance down by retainer.
 */
import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { type CpuProfile, formatTopSelfTimes, selfTimes, sourceMapLocator } from './cpu-profile.ts';
import { runFloor } from './floor.ts';
import { breakdownOfSnapshots, formatBreakdown } from './heap-retainers.ts';
import type { Measurement } from './measure.ts';
import { SHIPPED_NODE_OPTIONS } from './controller-client.ts';
import type { BenchHook } from './noop-hook.ts';
import { formatInterference, type Interference } from './protocol/cpu-ledger.ts';
import { startInterferenceMeter } from './protocol/interference.ts';
import { benchRounds, checkNodeVersion, median, medianAndSpread, treePriorities } from './protocol/setup.ts';
import { runController, type ControllerRun } from './run-controller.ts';

/** The controller's --concurrency; it runs at most four times this many reconciles at once. */
const CONCURRENCY = 8;
const WORKERS = CONCURRENCY * 4;
const RSS_TARGET_MIB = 200;
const LOADED_RSS_TARGET_MIB = 80;
const HEAP_PER_INSTANCE_TARGET_BYTES = 3 * 1024;
const CPU_MS_PER_INSTANCE_TARGET = 0.6;
/** The machine's load when a figure was taken, for the record; others' CPU is what marks a run noisy. */
const load = () => `load ${readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ')}`;

const sizes = (process.env.BENCH_N ?? '1000,10000').split(',').map(Number);
const hookSize = Number(process.env.BENCH_HOOK_N ?? 1000);
const rounds = benchRounds();
const profileDir = process.env.BENCH_CPU_PROFILE;
const heapSnapshotDir = process.env.BENCH_HEAP_SNAPSHOT;
for (const dir of [profileDir, heapSnapshotDir]) if (dir) mkdirSync(dir, { recursive: true });

const fmt = (value: number, digits = 2) => value.toFixed(digits);
const medianOf = (runs: Measurement[], figure: (run: Measurement) => number) => median(runs.map(figure));
/** CPU seconds of each process (the figure), then wall seconds: median (spread) of the rounds. */
const describe = (runs: Measurement[]) => {
  const cpu = (label: string, figure: (run: Measurement) => number | undefined) =>
    runs.every((run) => figure(run) !== undefined)
      ? [`${label} ${medianAndSpread(runs.map((run) => figure(run) ?? 0))}`]
      : [];
  const cpus = [
    ...cpu('controller', (run) => run.controller?.cpuSeconds),
    ...cpu('harness', (run) => run.bench.cpuSeconds),
    ...cpu('API server', (run) => run.server.cpuSeconds),
  ];
  return `CPU s ${cpus.join(', ')}; wall s ${medianAndSpread(runs.map((run) => run.seconds))}`;
};

let noisyRuns = 0;
const node = checkNodeVersion();
let offProtocol = !node.pinned || rounds < 3;
const meter = await startInterferenceMeter();
/** Runs `run` inside a window of the CPU ledger, and says how it went. */
async function measured<Run>(label: string, run: () => Promise<Run>): Promise<Run> {
  const close = await meter.window();
  const result = await run();
  const interference: Interference = await close();
  if (interference.noisy) noisyRuns += 1;
  console.log(`  ${label.padEnd(28)} ${formatInterference(interference)}`);
  return result;
}

console.log('controller bench, the protocol of docs/operations/benchmarks.md:');
console.log(
  `  ${node.text}; the controller child with NODE_OPTIONS "${SHIPPED_NODE_OPTIONS}" (deploy/20-deployment.yaml)` +
    `${process.env.BENCH_CONTROLLER_NODE_ARGS ? ` and ${process.env.BENCH_CONTROLLER_NODE_ARGS}` : ''}`,
);
console.log(
  `  concurrency ${CONCURRENCY} (${WORKERS} reconciles at once), floor on ${WORKERS} workers; the controller's ` +
    `client rate limit ${process.env.BENCH_API_QPS ? `${process.env.BENCH_API_QPS} requests/s` : 'its default (5000 requests/s)'}`,
);
console.log(
  `  ${rounds} round(s) per size, controller and floor alternating; CPU seconds are the figure, wall time second; ${load()}`,
);
if (rounds < 3) console.log(`  OFF PROTOCOL: ${rounds} round(s), the docs quote runs of 3 or more`);
try {
  for (const count of sizes) {
    if (count === 0) {
      await printLoadedRss();
      continue;
    }
    const floors: Measurement[] = [];
    const controllers: ControllerRun[] = [];
    console.log(`\nN = ${count}: others' CPU per run`);
    for (let round = 1; round <= rounds; round++) {
      const name = `controller-N${count}-round${round}`;
      const first = round === 1;
      controllers.push(
        await measured(`round ${round} controller`, () =>
          runController({
            count,
            concurrency: CONCURRENCY,
            hook: 'none',
            steadyState: first,
            ...(profileDir && first ? { cpuProfilePath: join(profileDir, `${name}.cpuprofile`) } : {}),
            ...(heapSnapshotDir && first
              ? {
                  heapSnapshots: {
                    loaded: join(heapSnapshotDir, `${name}-loaded.heapsnapshot`),
                    converged: join(heapSnapshotDir, `${name}-converged.heapsnapshot`),
                  },
                }
              : {}),
          }),
        ),
      );
      floors.push(await measured(`round ${round} floor`, () => runFloor(count, WORKERS)));
    }
    const priorities = treePriorities();
    if (!priorities.pinned) offProtocol = true;
    const ratio = medianOf(controllers, (run) => run.seconds) / medianOf(floors, (run) => run.seconds);
    const cpuRatio =
      medianOf(controllers, (run) => run.controller?.cpuSeconds ?? 0) /
      medianOf(floors, (run) => run.bench.cpuSeconds);
    const peak = <Run extends Measurement>(runs: Run[], figure: (run: Run) => number) =>
      fmt(Math.max(...runs.map(figure)), 0);
    const steady = controllers[0]!;
    console.log(
      `\nN = ${count}: median (spread) of ${rounds} round(s)  (${load()}; priorities ${priorities.text})`,
    );
    console.log(`  controller     ${describe(controllers)}`);
    console.log(`  floor          ${describe(floors)}`);
    console.log(
      `  ratio          CPU ${fmt(cpuRatio)} (controller's against the floor process's); time ${fmt(ratio)}  (target ≤ 1.5 at N = 10,000)`,
    );
    const cpuMsPerInstance = controllers.map((run) => ((run.controller?.cpuSeconds ?? 0) * 1000) / count);
    console.log(
      `  controller CPU ${medianAndSpread(cpuMsPerInstance, 3)} ms per instance  (target ≤ ${CPU_MS_PER_INSTANCE_TARGET})`,
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
    console.log(`  requests/inst. ${perInstance.join(', ')}  (until converged, round 1)`);
    console.log(`  reconciles/inst. ${fmt(steady.convergeReconciles / count)}  (until converged, round 1)`);
    console.log(
      `  steady state   ${steady.steadyStateWrites.length} writes over ${steady.steadyStateReconciles} reconciles (target 0)`,
    );
    for (const write of steady.steadyStateWrites.slice(0, 10)) console.log(`    ${write}`);
    await printProfiles(`controller-N${count}-round1`, count);
  }
} finally {
  if (hookSize <= 0) await meter.stop();
}

/** The CPU profile and the heap by retainer of a run, when the bench was asked for them. */
async function printProfiles(name: string, count: number): Promise<void> {
  if (profileDir) {
    const path = join(profileDir, `${name}.cpuprofile`);
    console.log(`  CPU profile    ${path} (round 1; the profiler's own cost is in its CPU)`);
    const profile = JSON.parse(readFileSync(path, 'utf8')) as CpuProfile;
    for (const line of formatTopSelfTimes(selfTimes(profile, sourceMapLocator()), count))
      console.log(`    ${line}`);
  }
  if (heapSnapshotDir) {
    const loaded = join(heapSnapshotDir, `${name}-loaded.heapsnapshot`);
    const converged = join(heapSnapshotDir, `${name}-converged.heapsnapshot`);
    console.log(`  heap snapshots ${loaded} (code loaded), ${converged} (converged, after the steady state)`);
    for (const line of formatBreakdown(await breakdownOfSnapshots(loaded, converged, count)))
      console.log(`    ${line}`);
  }
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
  console.log(`\nno-op pre-reconcile hook, N = ${hookSize}: others' CPU per run`);
  try {
    for (let round = 1; round <= rounds; round++) {
      for (const hook of ['none', 'http', 'module'] as const) {
        runs[hook].push(
          await measured(`round ${round} ${hook}`, () =>
            runController({ count: hookSize, concurrency: CONCURRENCY, hook, steadyState: false }),
          ),
        );
      }
    }
  } finally {
    await meter.stop();
  }
  const seconds = (hook: BenchHook) => medianOf(runs[hook], (run) => run.seconds);
  console.log(
    `\nno-op pre-reconcile hook (the same handlers both ways), N = ${hookSize}: median (spread)  (${load()})`,
  );
  console.log(`  without hook   ${describe(runs.none)}`);
  console.log(`  HTTP hook      ${describe(runs.http)}`);
  console.log(`  in-process     ${describe(runs.module)}`);
  // The HTTP hook's server runs in the harness: its CPU counts with the controller's.
  const cpu = (hook: BenchHook) =>
    medianOf(runs[hook], (run) => (run.controller?.cpuSeconds ?? 0) + (run.bench.cpuSeconds ?? 0));
  console.log(
    `  HTTP           CPU ratio (controller + harness) ${fmt(cpu('http') / cpu('none'))}; ` +
      `time ratio ${fmt(seconds('http') / seconds('none'))}  (target ≤ 1.15)`,
  );
  console.log(
    `  in-process     CPU ratio (controller + harness) ${fmt(cpu('module') / cpu('none'))}; ` +
      `time ratio ${fmt(seconds('module') / seconds('none'))}  (target ≤ 1.05)`,
  );
}
console.log(
  noisyRuns > 0
    ? `\nNOISY: ${noisyRuns} run(s) had others take over 10 % of a core; never quote this run.`
    : offProtocol
      ? '\nOFF PROTOCOL (see above): not a run the docs may quote.'
      : '\nQuiet and on protocol: every run had others take at most 10 % of a core.',
);
