/**
 * The controller benchmark on the real control plane (not a test; prints figures): kube-apiserver,
 * etcd, kube-controller-manager and kube-scheduler, with kwok playing the kubelet of enough fake nodes
 * that every Deployment becomes Available through the real controllers. For each N, each side gets a
 * fresh control plane with the same world: the floor (kube-floor.ts), Scoby's controller (the compiled
 * bundle in a child process, as Scoby's ServiceAccount with deploy/10-rbac.yaml), and optionally a peer
 * controller (peer-process.ts). Converged = every instance Ready=True.
 *
 * The protocol (docs/operations/benchmarks.md): the setup is pinned and printed (the image's Node.js,
 * priorities, concurrency, the control plane's rate limit, kwok's stages); the sides alternate over
 * BENCH_ROUNDS rounds (default 3), and each figure is printed as the median and the spread of the
 * rounds, CPU seconds first and wall time second; others' CPU during each side (the CPU ledger, not the
 * load average) marks a run `noisy` when it took over 10 % of a core. Printed per side: CPU seconds and
 * ms per instance, time to converge, peak RSS, the control plane's CPU, each instance's Ready lag behind
 * its Deployment's Available (p50 / p90 / p99 / max, and the first instance's), and the side's
 * requests per instance by verb and resource from kube-apiserver's metrics (measured-requests.ts);
 * then the ratios of the sides' medians.
 *
 * Run: npm run bench-kube -w @scoby/controller (or npx nx run controller:bench-kube).
 * BENCH_N=1000 (default; a comma list runs several sizes), BENCH_ROUNDS=3, BENCH_CONCURRENCY=8 (the
 * controller's --concurrency, the floor's and the peer's workers), BENCH_SIDES=floor,controller,peer
 * (default: all; peer only when BENCH_PEER_COMMAND is set), BENCH_RESTART=1 (default; 0: no restart of
 * Scoby's controller over its converged world, measured after its first round), BENCH_TIMEOUT_S=1800
 * per side, BENCH_KUBE_API_QPS=200 (kube-controller-manager's and kube-scheduler's client rate limit;
 * at their defaults, 20 and 50, the Deployment and ReplicaSet controllers, not the side, set the pace:
 * 60 of 1,000 floor instances were Ready after 2 min).
 */
import { mkdirSync, readFileSync } from 'node:fs';
import { KUBE_RELEASE } from '@scoby/kube-control-plane';
import { type CpuProfile, formatTopSelfTimes, selfTimes, sourceMapLocator } from '../cpu-profile.ts';
import { breakdownOfSnapshots, formatBreakdown } from '../heap-retainers.ts';
import { SHIPPED_NODE_OPTIONS } from '../controller-client.ts';
import { formatInterference } from '../protocol/cpu-ledger.ts';
import { startInterferenceMeter } from '../protocol/interference.ts';
import { benchRounds, checkNodeVersion, median, medianAndSpread } from '../protocol/setup.ts';
import { formatLags, lagSummary } from '../ready-lag.ts';
import { describeKwokStages } from './kwok-stages.ts';
import { peerFromEnv } from './peer-process.ts';
import { loadavg, runSide, type RestartRun, type Side, type SideRun } from './run-side.ts';

const sizes = (process.env.BENCH_N ?? '1000').split(',').map(Number);
const rounds = benchRounds();
const concurrency = Number(process.env.BENCH_CONCURRENCY ?? 8);
const kubeApiQps = Number(process.env.BENCH_KUBE_API_QPS ?? 200);
const timeoutMs = Number(process.env.BENCH_TIMEOUT_S ?? 1800) * 1000;
const wanted = new Set((process.env.BENCH_SIDES ?? 'floor,controller,peer').split(','));
const restart = process.env.BENCH_RESTART !== '0';
const profileDir = process.env.BENCH_CPU_PROFILE;
const heapSnapshotDir = process.env.BENCH_HEAP_SNAPSHOT;
for (const dir of [profileDir, heapSnapshotDir]) if (dir) mkdirSync(dir, { recursive: true });
const peer = peerFromEnv();

const sides: Array<{ label: string; side: Side }> = [
  ...(wanted.has('floor') ? [{ label: 'floor', side: { kind: 'floor' } as const }] : []),
  ...(wanted.has('controller') ? [{ label: 'controller', side: { kind: 'controller' } as const }] : []),
  ...(peer && wanted.has('peer') ? [{ label: peer.name, side: { kind: 'peer', peer } as const }] : []),
];

const fmt = (value: number, digits = 2) => value.toFixed(digits);
const log = (line: string) => console.log(`  [${new Date().toISOString().slice(11, 19)}] ${line}`);
const totalRequests = (run: SideRun) => [...run.requests.values()].reduce((sum, value) => sum + value, 0);
const cpuMsPerInstance = (run: SideRun, count: number) => (run.cpuSeconds * 1000) / count;

/** One side's round, as it ran. */
async function printRound(label: string, round: number, run: SideRun, count: number): Promise<void> {
  console.log(
    `  round ${round} ${label}: CPU ${fmt(run.cpuSeconds)} s (${fmt(cpuMsPerInstance(run, count), 3)} ms per instance), ` +
      `converged in ${fmt(run.seconds)} s, peak RSS ${fmt(run.peakRssMiB, 0)} MiB, ` +
      `requests/inst. ${fmt(totalRequests(run) / count, 3)}` +
      (run.reconciles === undefined ? '' : `, reconciles/inst. ${fmt(run.reconciles / count)}`),
  );
  console.log(`    Ready lag      ${formatLags(run.lags)}`);
  console.log(`    others         ${formatInterference(run.interference)}  (load ${run.load})`);
  console.log(`    priorities     ${run.priorities.text}`);
  if (run.cpuProfilePath) {
    console.log(`    CPU profile    ${run.cpuProfilePath} (the profiler's own cost is in this round's CPU)`);
    const profile = JSON.parse(readFileSync(run.cpuProfilePath, 'utf8')) as CpuProfile;
    for (const line of formatTopSelfTimes(selfTimes(profile, sourceMapLocator()), count))
      console.log(`      ${line}`);
  }
  if (run.heapSnapshotPaths) {
    const { loaded, converged } = run.heapSnapshotPaths;
    console.log(`    heap snapshots ${loaded} (code loaded), ${converged} (converged)`);
    for (const line of formatBreakdown(await breakdownOfSnapshots(loaded, converged, count)))
      console.log(`      ${line}`);
  }
}

/** The median and spread of one side's rounds. */
function printSide(label: string, runs: SideRun[], count: number): void {
  const of = (figure: (run: SideRun) => number, digits = 2) => medianAndSpread(runs.map(figure), digits);
  const noisy = runs.filter((run) => run.interference.noisy).length;
  console.log(`  ${label}: median (spread) of ${runs.length} round(s)${noisy ? `, ${noisy} NOISY` : ''}`);
  console.log(
    `    CPU            ${of((run) => run.cpuSeconds)} s; ${of((run) => cpuMsPerInstance(run, count), 3)} ms per instance; ` +
      `control plane ${of((run) => run.controlPlane.cpuSeconds, 1)} s`,
  );
  console.log(`    converged in   ${of((run) => run.seconds)} s`);
  const loaded = runs.filter((run) => run.loadedRssMiB !== undefined);
  console.log(
    `    peak RSS       ${of((run) => run.peakRssMiB, 0)} MiB` +
      (loaded.length === 0
        ? ''
        : ` (${medianAndSpread(
            loaded.map((run) => run.loadedRssMiB!),
            0,
          )} MiB with its code loaded)`),
  );
  const lag = (pick: 'p50' | 'p90' | 'p99' | 'max') => of((run) => lagSummary(run.lags)[pick], 0);
  console.log(
    `    Ready lag      p50 ${lag('p50')} s, p90 ${lag('p90')} s, p99 ${lag('p99')} s, max ${lag('max')} s; ` +
      `first instance ${of((run) => run.lags[0]?.lagSeconds ?? NaN, 0)} s`,
  );
  if (runs.every((run) => run.reconciles !== undefined)) {
    console.log(`    reconciles     ${of((run) => run.reconciles! / count)} per instance`);
  }
  console.log(`    requests/inst. ${of((run) => totalRequests(run) / count, 3)} in all`);
  const keys = [...new Set(runs.flatMap((run) => [...run.requests.keys()]))].sort((a, b) =>
    a.localeCompare(b),
  );
  for (const key of keys)
    console.log(`      ${key.padEnd(40)} ${of((run) => (run.requests.get(key) ?? 0) / count, 3)}`);
}

/** Requests that change something: every verb but get, list and watch; an access review is a question. */
const isWrite = (key: string) =>
  !/^(GET|LIST|WATCH) /.test(key) &&
  !key.startsWith('non-resource') &&
  key !== 'CREATE selfsubjectaccessreviews';

function printRestart(run: RestartRun, count: number): void {
  const writes = [...run.requests].filter(([key]) => isWrite(key)).reduce((sum, [, value]) => sum + value, 0);
  const all = [...run.requests.values()].reduce((sum, value) => sum + value, 0);
  console.log(`  controller restart over the converged world  (load ${run.load})`);
  console.log(`    every instance reconciled once after ${fmt(run.firstPassSeconds)} s`);
  console.log(
    `    steady state (the last reconcile before 5 s without one) after ${fmt(run.steadySeconds)} s`,
  );
  console.log(
    `    writes         ${writes} (target 0); requests ${all} (${fmt(all / count, 3)} per instance)`,
  );
  for (const [key, value] of [...run.requests].sort(([a], [b]) => a.localeCompare(b)))
    console.log(`      ${key.padEnd(40)} ${value}`);
  console.log(
    `    CPU ${fmt(run.cpuSeconds)} s (${fmt((run.cpuSeconds * 1000) / count, 3)} ms per instance), ` +
      `peak RSS ${fmt(run.peakRssMiB, 0)} MiB, reconciles ${fmt(run.reconciles / count)} per instance`,
  );
}

/** The targets of this size (docs/operations/benchmarks.md), each beside the median of its rounds. */
function printTargets(controller: SideRun[], floor: SideRun[] | undefined, count: number): void {
  const check = (ok: boolean) => (ok ? 'met' : 'MISSED');
  const lines: string[] = [];
  const cpuMs = median(controller.map((run) => cpuMsPerInstance(run, count)));
  const peakRss = median(controller.map((run) => run.peakRssMiB));
  const seconds = median(controller.map((run) => run.seconds));
  const floorSeconds = floor ? median(floor.map((run) => run.seconds)) : undefined;
  if (floorSeconds !== undefined) {
    const ratio = seconds / floorSeconds;
    lines.push(
      `time ${fmt(ratio)} × the floor (${fmt(seconds)} vs ${fmt(floorSeconds)} s), target ≤ 1.05: ${check(ratio <= 1.05)}`,
    );
  }
  if (count === 3_000) {
    const p99 = median(controller.map((run) => lagSummary(run.lags).p99));
    lines.push(`Ready lag p99 ${p99} s behind the Deployment's Available, target ≤ 5: ${check(p99 <= 5)}`);
    lines.push(
      `CPU ${fmt(cpuMs, 3)} ms per instance, target ≤ 4.7 (0.4 × Go Scoby's 11.68): ${check(cpuMs <= 4.7)}`,
    );
    lines.push(`peak RSS ${fmt(peakRss, 0)} MiB, target ≤ 110 (Go Scoby 184): ${check(peakRss <= 110)}`);
  }
  if (count >= 10_000) lines.push(`peak RSS ${fmt(peakRss, 0)} MiB, target < 160: ${check(peakRss < 160)}`);
  if (count === 1_000)
    lines.push(`peak RSS ${fmt(peakRss, 0)} MiB, target ≤ 89 (Go Scoby's): ${check(peakRss <= 89)}`);
  const restarted = controller.find((run) => run.restart)?.restart;
  if (restarted) {
    const writes = [...restarted.requests]
      .filter(([key]) => isWrite(key))
      .reduce((sum, [, value]) => sum + value, 0);
    lines.push(`restart writes ${writes}, target 0: ${check(writes === 0)}`);
  }
  console.log(`\nN = ${count}: targets, medians of the rounds (load ${loadavg()})`);
  for (const line of lines) console.log(`  ${line}`);
}

function printRatio(label: string, side: SideRun[], base: SideRun[], count: number): void {
  const of = (runs: SideRun[], figure: (run: SideRun) => number) => median(runs.map(figure));
  console.log(
    `  ${label.padEnd(24)} CPU ${fmt(of(side, (run) => run.cpuSeconds) / of(base, (run) => run.cpuSeconds))}, ` +
      `time ${fmt(of(side, (run) => run.seconds) / of(base, (run) => run.seconds))}, ` +
      `requests/inst. ${fmt(of(side, totalRequests) / count, 3)} vs ${fmt(of(base, totalRequests) / count, 3)}`,
  );
}

const node = checkNodeVersion();
console.log('real-control-plane bench, the protocol of docs/operations/benchmarks.md:');
console.log(
  `  ${node.text}; the controller child with NODE_OPTIONS "${SHIPPED_NODE_OPTIONS}" (deploy/20-deployment.yaml)`,
);
console.log(
  `  Kubernetes ${KUBE_RELEASE.kubernetes}, etcd ${KUBE_RELEASE.etcd}, kwok ${KUBE_RELEASE.kwok}; ` +
    `kwok stages ${await describeKwokStages()}`,
);
console.log(
  `  concurrency ${concurrency} (the controller's --concurrency; the floor's and any peer's workers); ` +
    `kube-controller-manager and kube-scheduler at ${kubeApiQps} requests/s (burst ${kubeApiQps * 2})`,
);
console.log(
  `  sides ${sides.map((entry) => entry.label).join(', ')}, alternating over ${rounds} round(s) per size, ` +
    `each on a fresh control plane; CPU seconds are the figure, wall time second; load ${loadavg()}`,
);
if (rounds < 3) console.log(`  OFF PROTOCOL: ${rounds} round(s), the docs quote runs of 3 or more`);
if (!peer)
  console.log('  (no peer: set BENCH_PEER_COMMAND, BENCH_PEER_NAME and optionally BENCH_PEER_SETUP)');
const meter = await startInterferenceMeter();
let noisyRounds = 0;
let offProtocol = !node.pinned || rounds < 3;
try {
  for (const count of sizes) {
    const runs = new Map<string, SideRun[]>(sides.map(({ label }) => [label, []]));
    for (let round = 1; round <= rounds; round++) {
      for (const { label, side } of sides) {
        console.log(
          `\nN = ${count}, round ${round} of ${rounds}: ${label} on a fresh control plane (load ${loadavg()})`,
        );
        const run = await runSide(side, {
          count,
          concurrency,
          kubeApiQps,
          timeoutMs,
          restart: restart && round === 1,
          meter,
          round,
          ...(profileDir ? { profileDir } : {}),
          ...(heapSnapshotDir ? { heapSnapshotDir } : {}),
          log,
        });
        runs.get(label)!.push(run);
        if (run.interference.noisy) noisyRounds += 1;
        if (!run.priorities.pinned) offProtocol = true;
        await printRound(label, round, run, count);
        if (run.restart) printRestart(run.restart, count);
      }
    }
    console.log(`\nN = ${count}: ${rounds} round(s) (load ${loadavg()})`);
    for (const [label, sideRuns] of runs) printSide(label, sideRuns, count);
    console.log(`\nN = ${count}: ratios of the medians`);
    const floor = runs.get('floor');
    const controller = runs.get('controller');
    const peerRuns = peer ? runs.get(peer.name) : undefined;
    if (controller?.length && floor?.length) printRatio('controller / floor', controller, floor, count);
    if (peerRuns?.length && floor?.length) printRatio(`${peer!.name} / floor`, peerRuns, floor, count);
    if (controller?.length && peerRuns?.length)
      printRatio(`controller / ${peer!.name}`, controller, peerRuns, count);
    if (controller?.length && floor?.length) {
      const extra = (median(controller.map(totalRequests)) - median(floor.map(totalRequests))) / count;
      console.log(`  requests per instance: controller ${fmt(extra, 3)} more than the floor (target ≤ 1)`);
    }
    if (controller?.length) printTargets(controller, floor?.length ? floor : undefined, count);
  }
} finally {
  await meter.stop();
}
console.log(
  noisyRounds > 0
    ? `\nNOISY: ${noisyRounds} side run(s) had others take over 10 % of a core; never quote this run.`
    : offProtocol
      ? '\nOFF PROTOCOL (see above): not a run the docs may quote.'
      : '\nQuiet and on protocol: every side run had others take at most 10 % of a core.',
);
