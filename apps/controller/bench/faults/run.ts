/**
 * The fault bench on the real control plane: `npm run faults -w @scoby/controller -- --help`. Not a
 * test: it prints its figures with the machine's load and exits 1 when an invariant broke (README.md).
 */
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { loadAverage } from '../chaos/report.ts';
import { seededRandom } from '../chaos/random.ts';
import { parseSoakDuration } from '../chaos/soak-bookkeeping.ts';
import { runFaults } from './fault-run.ts';
import { CI_FAULTS, FAULTS } from './faults.ts';
import { startFaultWorld, type Outcome } from './setup.ts';
import { soak } from './soak.ts';

const NUMBERS = {
  seed: { default: 43, help: 'seed of every random choice' },
  instances: { default: 100, help: 'instances across the ten registrations (parked ones besides)' },
  replicas: { default: 3, help: 'active-active controller replicas' },
  'churn-per-second': { default: 5, help: 'changes (60 % updates, 20 % creates, 20 % deletes) a second' },
  'toxic-seconds': { default: 20, help: 'how long a toxic (and the compaction) stays' },
  'pause-seconds': { default: 30, help: 'how long kube-apiserver stays SIGSTOPped' },
  'black-hole-seconds': { default: 60, help: 'how long the black hole swallows everything' },
  'patience-seconds': { default: 180, help: 'how long the cluster may take to converge after a fault' },
} as const;

const { values: parsed } = parseArgs({
  options: {
    ...Object.fromEntries(Object.keys(NUMBERS).map((name) => [name, { type: 'string' as const }])),
    only: { type: 'string' },
    ci: { type: 'boolean' },
    soak: { type: 'string' },
    'enforce-targets': { type: 'boolean' },
    'log-level': { type: 'string' },
    evidence: { type: 'string' },
    help: { type: 'boolean' },
  },
});
const values = parsed as typeof parsed & Partial<Record<keyof typeof NUMBERS, string>>;

if (values.help) {
  console.log('npm run faults -w @scoby/controller -- [options]');
  console.log(
    `  --only a,b            faults to run, in this order of theirs: ${FAULTS.map((fault) => fault.name).join(', ')}`,
  );
  console.log(`  --ci                  the short CI run: ${CI_FAULTS.join(', ')}, 30 instances, 5 s toxics`);
  console.log(
    '  --soak 30m            the soak instead: 3 replicas, churn 20/s, hook faults, kube-apiserver',
  );
  console.log('                        restarted every 5 min, a replica killed every 10 min');
  console.log('  --enforce-targets     a recovery (or soak figure) over its target fails the run too');
  console.log("  --log-level debug     the replicas' LOG_LEVEL (the chart's info)");
  console.log(
    "  --evidence DIR        where a broken run, or one that missed a target, keeps the audit log and the replicas' logs",
  );
  console.log('                        (default: a new scoby-faults-evidence-* folder under the temp dir)');
  for (const [name, option] of Object.entries(NUMBERS))
    console.log(`  --${name.padEnd(20)} ${option.help} (${option.default})`);
  process.exit(0);
}

const number = (name: keyof typeof NUMBERS, ciValue?: number): number => {
  const given = values[name] as string | undefined;
  if (given !== undefined) return Number(given);
  return values.ci && ciValue !== undefined ? ciValue : NUMBERS[name].default;
};

const started = Date.now();
const log = (line: string) =>
  console.log(`[${((Date.now() - started) / 1000).toFixed(0).padStart(4)} s] ${line}`);
const soakSeconds = values.soak === undefined ? undefined : parseSoakDuration(values.soak);
const options = {
  instances: number('instances', 30),
  replicas: number('replicas'),
  seed: number('seed'),
  patienceSeconds: number('patience-seconds', 90),
};
log(
  `load before ${loadAverage()}; ${options.instances} instances, ${options.replicas} replicas, seed ${options.seed}`,
);
const world = await startFaultWorld({
  instances: options.instances,
  replicas: options.replicas,
  random: seededRandom(options.seed),
  patienceMs: options.patienceSeconds * 1000,
  ...(values['log-level'] === undefined ? {} : { logLevel: values['log-level'] }),
  log,
});
log(
  `converged ${world.converged.violations.length === 0 ? `in ${world.converged.seconds.toFixed(1)} s` : `NOT (${world.converged.violations.length} violations)`}; ${world.parked.length} instances parked in deletion`,
);
let outcome: Outcome;
try {
  if (world.converged.violations.length > 0) {
    outcome = { broken: ['the world did not converge before the faults'], missed: [] };
  } else if (soakSeconds !== undefined) {
    outcome = await soak(
      world,
      {
        seconds: soakSeconds,
        churnPerSecond: values['churn-per-second'] === undefined ? 20 : number('churn-per-second'),
        hookFailShare: 0.05,
        apiServerRestartEverySeconds: 300,
        replicaKillEverySeconds: 600,
        patienceSeconds: options.patienceSeconds,
      },
      log,
    );
  } else {
    outcome = await runFaults(
      world,
      {
        only: values.only?.split(',') ?? (values.ci ? CI_FAULTS : []),
        churnPerSecond: number('churn-per-second'),
        toxicSeconds: number('toxic-seconds', 5),
        pauseSeconds: number('pause-seconds'),
        blackHoleSeconds: number('black-hole-seconds'),
        patienceSeconds: options.patienceSeconds,
        enforceTargets: values['enforce-targets'] === true,
      },
      log,
    );
  }
  if (outcome.broken.length > 0 || outcome.missed.length > 0) {
    const evidence =
      values.evidence ?? (await mkdtemp(join(tmpdir(), `scoby-faults-evidence-${options.seed}-`)));
    await world.cluster.keepEvidence(evidence);
    log(`kept the audit log and the replicas' logs in ${evidence}`);
  }
} finally {
  await world.cluster.stop();
}
log(`load after ${loadAverage()}`);
for (const line of outcome.missed) console.log(`TARGET MISSED ${line}`);
for (const line of outcome.broken) console.log(`BROKEN ${line}`);
const failed = outcome.broken.length > 0 || (values['enforce-targets'] === true && outcome.missed.length > 0);
console.log(failed ? 'faults: FAILED' : 'faults: every invariant held');
process.exit(failed ? 1 : 0);
