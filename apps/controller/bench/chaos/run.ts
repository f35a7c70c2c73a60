/**
 * The chaos harness: re-measures the fault, kill and fuzz figures against whatever the tree holds.
 * Not a test: it takes minutes, prints its figures beside the first chaos run's and the machine's
 * load, and exits 1 when an invariant broke. `npm run chaos -w @scoby/controller -- --help`.
 */
import { parseArgs } from 'node:util';
import { apiFaults } from './api-faults.ts';
import { failover } from './failover.ts';
import { fairSlots } from './fair-slots.ts';
import { fuzz } from './fuzz.ts';
import { hookFaults } from './hook-faults.ts';
import { kills } from './kills.ts';
import { memory } from './memory.ts';
import { renderParking } from './render-parking.ts';
import { retryAfter } from './retry-after.ts';
import { formatTable, loadAverage, Report, type Figure } from './report.ts';
import type { ChaosOptions, Scenario } from './scenario.ts';
import { shutdown } from './shutdown.ts';
import { soak } from './soak.ts';
import { parseSoakDuration } from './soak-bookkeeping.ts';

const SCENARIOS: Record<string, Scenario> = {
  kills,
  failover,
  'api-faults': apiFaults,
  'hook-faults': hookFaults,
  fuzz,
  memory,
  'fair-slots': fairSlots,
  'retry-after': retryAfter,
  shutdown,
  'render-parking': renderParking,
  soak,
};
/** Scenarios run when none is named: the soak runs only when asked for (--soak or --only soak). */
const DEFAULT_SCENARIOS = Object.keys(SCENARIOS).filter((name) => name !== 'soak');

const NUMBER_OPTIONS: Record<keyof ChaosOptions, { default: number; help: string }> = {
  seed: { default: 20, help: 'seed of every random choice' },
  instances: { default: 40, help: 'live instances while churning' },
  kills: { default: 19, help: 'SIGKILLs of the controller (kills)' },
  failoverRounds: { default: 2, help: 'leader kills (failover)' },
  faultRounds: { default: 20, help: 'rounds of API errors, each ending with dropped watches (api-faults)' },
  faultRoundSeconds: { default: 3, help: 'length of one fault round' },
  faultPercent: { default: 30, help: "share of the controller's requests failed during a round, %" },
  hookRounds: { default: 2, help: 'rounds of reset, hang, garbage, down (hook-faults)' },
  hookPhaseSeconds: { default: 4, help: 'length of one hook fault phase' },
  registrations: { default: 300, help: 'mutated CRDRegistrations applied (fuzz)' },
  specs: { default: 150, help: 'instances with fuzzed specs (fuzz)' },
  memoryMinutes: { default: 2, help: 'minutes of churn while the RSS is sampled (memory)' },
  concurrency: { default: 8, help: "the controller's --concurrency" },
  hangingRegistrations: { default: 10, help: 'registrations sharing a hook that never answers (fair-slots)' },
  hangingInstances: { default: 10, help: 'instances of each hanging registration (fair-slots)' },
  starveSeconds: { default: 60, help: 'seconds of updates to the unrelated registration (fair-slots)' },
  starvePaceMs: { default: 250, help: 'one update of the unrelated registration every N ms (fair-slots)' },
  stormSeconds: { default: 24, help: 'seconds of 429 answers with Retry-After (retry-after)' },
  retryAfterSeconds: { default: 5, help: 'the Retry-After of the 429 storm (retry-after)' },
  graceSeconds: {
    default: 30,
    help: "the controller's --graceful-shutdown-timeout and the exit bound (shutdown)",
  },
  unrenderable: { default: 5, help: 'instances whose own spec cannot render (render-parking)' },
  soakMinutes: { default: 30, help: 'length of the soak (soak; --soak 30m sets it and runs the soak alone)' },
  patienceSeconds: { default: 120, help: 'how long the cluster may take to settle after the chaos' },
};

function kebab(name: string): string {
  return name.replace(/[A-Z]/g, (letter) => `-${letter.toLowerCase()}`);
}

function usage(): string {
  const lines = Object.entries(NUMBER_OPTIONS).map(
    ([name, option]) => `  --${kebab(name)} N`.padEnd(28) + `${option.help} (default ${option.default})`,
  );
  return [
    'Usage: tsx --conditions=@scoby/source bench/chaos/run.ts [--only SCENARIO,...] [--soak DURATION] [options]',
    `Scenarios, in order: ${DEFAULT_SCENARIOS.join(', ')}; soak only when asked for`,
    '  --soak DURATION'.padEnd(28) + 'run the soak alone for DURATION (30m, 2m, 90s)',
    ...lines,
  ].join('\n');
}

function readOptions(): { options: ChaosOptions; scenarios: string[] } | undefined {
  const { values } = parseArgs({
    options: {
      help: { type: 'boolean' },
      only: { type: 'string' },
      soak: { type: 'string' },
      ...Object.fromEntries(
        Object.keys(NUMBER_OPTIONS).map((name) => [kebab(name), { type: 'string' as const }]),
      ),
    },
  });
  if (values.help) return undefined;
  const options = Object.fromEntries(
    Object.entries(NUMBER_OPTIONS).map(([name, option]) => {
      const text = (values as Record<string, unknown>)[kebab(name)] as string | undefined;
      const value = text === undefined ? option.default : Number(text);
      if (!Number.isFinite(value) || value < 0) throw new Error(`--${kebab(name)}: not a number: "${text}"`);
      return [name, value];
    }),
  ) as unknown as ChaosOptions;
  if (options.faultPercent >= 100) throw new Error('--fault-percent: must be below 100');
  if (values.soak !== undefined) {
    if (values.only !== undefined) throw new Error('--soak runs the soak alone: leave out --only');
    return { options: { ...options, soakMinutes: parseSoakDuration(values.soak) / 60 }, scenarios: ['soak'] };
  }
  const scenarios = values.only?.split(',').map((name) => name.trim()) ?? DEFAULT_SCENARIOS;
  const unknown = scenarios.filter((name) => !(name in SCENARIOS));
  if (unknown.length > 0) throw new Error(`--only: unknown scenario ${unknown.join(', ')}`);
  return { options, scenarios };
}

async function main(): Promise<number> {
  const read = readOptions();
  if (read === undefined) {
    console.log(usage());
    return 0;
  }
  const figures: Figure[] = [];
  const notes: string[] = [];
  for (const name of read.scenarios) {
    const report = new Report(name);
    const loadBefore = loadAverage();
    const started = Date.now();
    console.error(`chaos: ${name} starting (load ${loadBefore})`);
    try {
      await (SCENARIOS[name] as Scenario)(read.options, report);
    } catch (error) {
      console.error(error);
      report.check('scenario completed', (error as Error).message, false);
    }
    const seconds = (Date.now() - started) / 1000;
    report.info('scenario seconds', seconds);
    report.info('load average before / after', `${loadBefore} / ${loadAverage()}`);
    console.error(`chaos: ${name} done in ${seconds.toFixed(0)} s`);
    figures.push(...report.figures);
    notes.push(...report.notes);
  }
  console.log(formatTable(figures));
  if (notes.length > 0) console.log(`\n${notes.join('\n')}`);
  const broken = figures.filter((figure) => figure.holds === false);
  console.log(
    broken.length === 0
      ? '\nEvery invariant held.'
      : `\n${broken.length} invariant(s) broken: ${broken.map((figure) => `${figure.scenario} ${figure.name}`).join(', ')}`,
  );
  return broken.length === 0 ? 0 : 1;
}

process.exitCode = await main();
