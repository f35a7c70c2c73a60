/**
 * CI's guard on the bench's figures that hold on a loaded machine (docs/operations/benchmarks.md,
 * "Regression guard"): in memory at N = 1,000, the controller's requests per instance by method and
 * code until convergence, its reconciles per instance, its writes in the steady state, and its live
 * heap per instance after full collections (--expose-gc), each against the committed baseline
 * (regression-baseline.json). It fails on more than 0.05 requests (of any method and code) or 0.05
 * reconciles per instance above the baseline, on any write in the steady state, and on more than
 * 10 % more heap per instance. Time and CPU are left to the bench: they do not hold under load.
 *
 * Run: npm run bench-guard -w @scoby/controller (CI runs it). `-- --update` writes the baseline from
 * this run instead: a change that needs more commits the new baseline with it and says why.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { compareWithBaseline, type GuardFigures } from './regression-figures.ts';
import { runController } from './run-controller.ts';

const BASELINE = new URL('./regression-baseline.json', import.meta.url);
const INSTANCES = 1_000;
const CONCURRENCY = 8;

// Full collections before each heap reading make the live heap exact.
const nodeArgs = process.env.BENCH_CONTROLLER_NODE_ARGS ?? '';
if (!nodeArgs.split(' ').includes('--expose-gc'))
  process.env.BENCH_CONTROLLER_NODE_ARGS = `${nodeArgs} --expose-gc`;

const run = await runController({
  count: INSTANCES,
  concurrency: CONCURRENCY,
  hook: 'none',
  steadyState: true,
});
if (!run.heap.collected) throw new Error('the controller child ran without --expose-gc');
const figures: GuardFigures = {
  instances: INSTANCES,
  requestsPerInstance: Object.fromEntries(
    Object.entries(run.convergeRequests)
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([key, count]) => [key, count / INSTANCES]),
  ),
  reconcilesPerInstance: run.convergeReconciles / INSTANCES,
  steadyStateWrites: run.steadyStateWrites.length,
  liveHeapBytesPerInstance: Math.round((run.heap.convergedBytes - run.heap.loadedBytes) / INSTANCES),
};

if (process.argv.includes('--update')) {
  writeFileSync(BASELINE, `${JSON.stringify(figures, null, 2)}\n`);
  console.log(`regression guard: baseline written to ${fileURLToPath(BASELINE)}`);
  console.log(JSON.stringify(figures, null, 2));
} else {
  const baseline = JSON.parse(readFileSync(BASELINE, 'utf8')) as GuardFigures;
  const { lines, failures } = compareWithBaseline(baseline, figures);
  console.log(`regression guard, in memory at N = ${INSTANCES} (baseline ${fileURLToPath(BASELINE)}):`);
  for (const line of lines) console.log(`  ${line}`);
  for (const write of run.steadyStateWrites.slice(0, 10)) console.log(`  steady-state write: ${write}`);
  if (failures.length > 0) {
    console.log(
      `\nregression guard FAILED (${failures.length}): ${failures.join('; ')}.\n` +
        'A change that needs more updates the baseline in the same commit and says why ' +
        '(npm run bench-guard -w @scoby/controller -- --update).',
    );
    process.exitCode = 1;
  } else {
    console.log('\nregression guard passed');
  }
}
