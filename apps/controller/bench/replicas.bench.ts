/**
 * Replicas benchmark (not a test; prints figures): the same work, R registrations × N instances, on
 * one controller and on three, all in active-active mode (docs/spec/registration.md §9), so that the
 * count is the only difference; then one controller in leader mode as a reference. Each controller
 * runs in a process of its own (the bench's bundle, with the shipped NODE_OPTIONS, as the
 * controller bench runs it), the in-memory API server in another.
 *
 * Per replica: loaded RSS (caches synced, no registration yet), peak RSS, peak minus loaded, CPU;
 * the ratio of the three-replica run's largest peak minus loaded to the single replica's (target
 * ≤ 0.45); time to converge; and, on three replicas, the time from SIGKILL of the replica holding
 * the most registrations to its registrations' next reconcile on the others: when a survivor holds
 * each one's Lease, when a survivor first reconciles its instances (the reconcile counter), and when
 * an edit of one instance of each, made right after the kill, is reconciled (status Ready at the
 * new generation), the last being what a user of the registration sees.
 *
 * Run: npm run bench-replicas -w @scoby/controller. BENCH_REGISTRATIONS (12), BENCH_N_PER_REGISTRATION
 * (500), BENCH_LEASE_MS (3000: the lease duration, renew deadline and retry period in the
 * controller's proportions), BENCH_REPLICAS (3), BENCH_LEADER_REFERENCE (1; 0 skips the leader run).
 */
import { readFileSync } from 'node:fs';
import { SHIPPED_NODE_OPTIONS } from './controller-client.ts';
import { runReplicas, type ReplicaFigures, type ReplicasRun } from './run-replicas.ts';

const CONCURRENCY = 8;
const RATIO_TARGET = 0.45;
/** The controllers' default lease duration and retry period (client-go's). */
const DEFAULT_LEASE_MS = 15_000;
const DEFAULT_RETRY_MS = 2_000;
const load = () => `load ${readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ')}`;

const registrations = Number(process.env.BENCH_REGISTRATIONS ?? 12);
const perRegistration = Number(process.env.BENCH_N_PER_REGISTRATION ?? 500);
const leaseDurationMs = Number(process.env.BENCH_LEASE_MS ?? DEFAULT_LEASE_MS);
const killLeaseMs = Number(process.env.BENCH_KILL_LEASE_MS ?? 3_000);
const many = Number(process.env.BENCH_REPLICAS ?? 3);
const leaderReference = process.env.BENCH_LEADER_REFERENCE !== '0';
/** BENCH_ONLY=spread runs the many-replica run alone (to look at it, e.g. with LOG_LEVEL=info). */
const only = process.env.BENCH_ONLY;

/** The timings the controller derives from a lease duration (its defaults at 15 s). */
const timings = (lease: number) =>
  lease === DEFAULT_LEASE_MS
    ? '15 s (renew deadline 10 s, retry period 2 s: the defaults)'
    : `${lease / 1000} s (renew deadline ${Math.round(lease * 0.66)} ms, retry period ${Math.round(lease * 0.2)} ms)`;
const fmt = (value: number, digits = 1) => value.toFixed(digits);
const growth = (replica: ReplicaFigures) => replica.peakRssMiB - replica.loadedRssMiB;
const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
};

console.log(
  `replicas bench: ${registrations} registrations × ${perRegistration} instances = ${registrations * perRegistration}; ` +
    `lease duration ${timings(leaseDurationMs)}, and ${timings(killLeaseMs)} for the second kill; concurrency ${CONCURRENCY}; controller children run with ` +
    `NODE_OPTIONS "${SHIPPED_NODE_OPTIONS}" as deploy/20-deployment.yaml`,
);

const run = async (
  replicas: number,
  mode: 'leader' | 'active-active',
  kill: boolean,
  lease = leaseDurationMs,
) => {
  const figures = await runReplicas({
    replicas,
    registrations,
    perRegistration,
    concurrency: CONCURRENCY,
    // The default lease goes unsaid, so that the controller's own timings apply.
    leaderElection: { mode, ...(lease === DEFAULT_LEASE_MS ? {} : { leaseDurationMs: lease }) },
    kill,
  });
  print(`${replicas} replica${replicas === 1 ? '' : 's'}, ${mode}, lease ${lease / 1000} s`, figures);
  return figures;
};

if (only === 'spread') {
  await run(many, 'active-active', true);
  process.exit(0);
}
const single = await run(1, 'active-active', false);
const spread = await run(many, 'active-active', true);
if (leaderReference) await run(1, 'leader', false);
const shortLease = killLeaseMs > 0 ? await run(many, 'active-active', true, killLeaseMs) : undefined;

const ratio = Math.max(...spread.replicas.map(growth)) / growth(single.replicas[0]!);
console.log(`\nsummary  (${load()})`);
console.log(
  `  peak − loaded   ${many} replicas' largest ${fmt(Math.max(...spread.replicas.map(growth)))} MiB / ` +
    `1 replica's ${fmt(growth(single.replicas[0]!))} MiB = ${fmt(ratio, 2)}  (target ≤ ${RATIO_TARGET})`,
);
console.log(
  `  converge s      1 replica ${fmt(single.convergeSeconds)}, ${many} replicas ${fmt(spread.convergeSeconds)}`,
);
if (spread.kill) printKill(spread.kill, leaseDurationMs);
if (shortLease?.kill) printKill(shortLease.kill, killLeaseMs);

function print(title: string, figures: ReplicasRun): void {
  console.log(`\n${title}  (${load()})`);
  console.log(
    `  converge s      ${fmt(figures.convergeSeconds)}  (registrations created → every instance Ready)`,
  );
  for (const [index, replica] of figures.replicas.entries()) {
    console.log(
      `  replica ${index}       loaded RSS ${fmt(replica.loadedRssMiB)} MiB (code loaded ${fmt(replica.codeLoadedRssMiB)}), ` +
        `peak ${fmt(replica.peakRssMiB)} MiB, peak − loaded ${fmt(growth(replica))} MiB, CPU ${fmt(replica.cpuSeconds, 2)} s, ` +
        `${replica.reconciles} reconciles` +
        (replica.owned ? `, owns ${replica.owned.length}: ${replica.owned.join(' ')}` : ''),
    );
    const { heap } = replica;
    console.log(
      `                  live heap ${fmt(heap.loadedMiB)} MiB loaded → ${fmt(heap.convergedMiB)} MiB converged` +
        (heap.collected
          ? ' (after full collections)'
          : ' (no --expose-gc: not collected first, an upper bound)'),
    );
  }
  console.log(
    `  API server      peak ${fmt(figures.server.peakRssMiB)} MiB, CPU ${fmt(figures.server.cpuSeconds, 2)} s`,
  );
}

function printKill(kill: NonNullable<ReplicasRun['kill']>, leaseMs: number): void {
  const describe = (times: Record<string, number>) => {
    const values = kill.registrations.map((name) => times[name]).filter((value) => value !== undefined);
    if (values.length === 0) return 'none seen';
    return `median ${fmt(median(values), 2)}, max ${fmt(Math.max(...values), 2)} s over ${values.length}`;
  };
  console.log(
    `  SIGKILL replica ${kill.victim} holding ${kill.registrations.length} (${kill.registrations.join(' ')}), ` +
      `lease duration ${leaseMs} ms:`,
  );
  console.log(`    Lease held by a survivor   ${describe(kill.ownedAfter)}`);
  console.log(`    first reconcile there      ${describe(kill.firstReconcileAfter)}`);
  console.log(`    edit after kill reconciled ${describe(kill.editReconciledAfter)}`);
  const worst = Math.max(...Object.values(kill.editReconciledAfter));
  const retryMs = leaseMs === DEFAULT_LEASE_MS ? DEFAULT_RETRY_MS : leaseMs * 0.2;
  // A takeover waits a lease duration from the last change seen, then up to a retry period for a tick.
  const atDefault = worst - (leaseMs + retryMs) / 1000 + (DEFAULT_LEASE_MS + DEFAULT_RETRY_MS) / 1000;
  if (leaseMs !== DEFAULT_LEASE_MS)
    console.log(
      `    at the 15 s default        about ${fmt(atDefault)} s for the slowest edit (the lease duration and ` +
        `one retry period swapped for 15 s + 2 s)`,
    );
  console.log(
    `    survivors' peak RSS after  ${kill.survivorPeakRssMiB.map((value) => fmt(value)).join(', ')} MiB`,
  );
}
