/**
 * The controller benchmark on the real control plane (not a test; prints figures): kube-apiserver,
 * etcd, kube-controller-manager and kube-scheduler, with kwok playing the kubelet of enough fake nodes
 * that every Deployment becomes Available through the real controllers. For each N, each side gets a
 * fresh control plane with the same world: the floor (kube-floor.ts), Scoby's controller (the compiled
 * bundle in a child process, as Scoby's ServiceAccount with deploy/10-rbac.yaml), and optionally a peer
 * controller (peer-process.ts). Converged = every instance Ready=True. Printed per side, with the
 * machine's load: time to converge, CPU seconds and ms per instance, peak RSS, the control plane's CPU,
 * and the side's requests per instance by verb and resource from kube-apiserver's metrics
 * (measured-requests.ts); then the ratios of the sides, measured in the same run.
 *
 * Run: npm run bench-kube -w @scoby/controller (or npx nx run controller:bench-kube).
 * BENCH_N=1000 (default; a comma list runs several sizes), BENCH_CONCURRENCY=8 (the controller's
 * --concurrency, the floor's and the peer's workers), BENCH_SIDES=floor,controller,peer (default: all;
 * peer only when BENCH_PEER_COMMAND is set), BENCH_RESTART=1 (default; 0: no restart of Scoby's controller
 * over its converged world), BENCH_TIMEOUT_S=1800 per side, BENCH_KUBE_API_QPS=200
 * (kube-controller-manager's and kube-scheduler's client rate limit; at their defaults, 20 and 50, the
 * Deployment and ReplicaSet controllers, not the side, set the pace: 60 of 1,000 floor instances were
 * Ready after 2 min).
 */
import { peerFromEnv } from './peer-process.ts';
import { loadavg, runSide, type RestartRun, type Side, type SideRun } from './run-side.ts';

const sizes = (process.env.BENCH_N ?? '1000').split(',').map(Number);
const concurrency = Number(process.env.BENCH_CONCURRENCY ?? 8);
const kubeApiQps = Number(process.env.BENCH_KUBE_API_QPS ?? 200);
const timeoutMs = Number(process.env.BENCH_TIMEOUT_S ?? 1800) * 1000;
const wanted = new Set((process.env.BENCH_SIDES ?? 'floor,controller,peer').split(','));
const restart = process.env.BENCH_RESTART !== '0';
const peer = peerFromEnv();

const sides: Array<{ label: string; side: Side }> = [
  ...(wanted.has('floor') ? [{ label: 'floor', side: { kind: 'floor' } as const }] : []),
  ...(wanted.has('controller') ? [{ label: 'controller', side: { kind: 'controller' } as const }] : []),
  ...(peer && wanted.has('peer') ? [{ label: peer.name, side: { kind: 'peer', peer } as const }] : []),
];

const fmt = (value: number, digits = 2) => value.toFixed(digits);
const log = (line: string) => console.log(`  [${new Date().toISOString().slice(11, 19)}] ${line}`);
const totalRequests = (run: SideRun) => [...run.requests.values()].reduce((sum, value) => sum + value, 0);

function printSide(label: string, run: SideRun, count: number): void {
  console.log(`  ${label}  (load ${run.load})`);
  console.log(`    converged in   ${fmt(run.seconds)} s`);
  console.log(
    `    CPU            ${fmt(run.cpuSeconds)} s, ${fmt((run.cpuSeconds * 1000) / count, 3)} ms per instance; ` +
      `control plane ${fmt(run.controlPlane.cpuSeconds)} s`,
  );
  console.log(
    `    peak RSS       ${fmt(run.peakRssMiB, 0)} MiB` +
      (run.loadedRssMiB === undefined ? '' : ` (${fmt(run.loadedRssMiB, 0)} MiB with its code loaded)`),
  );
  if (run.reconciles !== undefined) {
    console.log(`    reconciles     ${fmt(run.reconciles / count)} per instance`);
  }
  const rows = [...run.requests].sort(([a], [b]) => a.localeCompare(b));
  console.log(`    requests/inst. ${fmt(totalRequests(run) / count, 3)} in all (${totalRequests(run)})`);
  for (const [key, value] of rows)
    console.log(`      ${key.padEnd(40)} ${fmt(value / count, 3)}  (${value})`);
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

/** The targets of this size (docs/operations/benchmarks.md), each beside its figure. */
function printTargets(controller: SideRun, floor: SideRun | undefined, count: number): void {
  const check = (ok: boolean) => (ok ? 'met' : 'MISSED');
  const lines: string[] = [];
  const cpuMs = (controller.cpuSeconds * 1000) / count;
  if (count >= 10_000 && floor) {
    const ratio = controller.seconds / floor.seconds;
    lines.push(
      `time ${fmt(ratio)} × the floor (${fmt(controller.seconds)} vs ${fmt(floor.seconds)} s), target ≤ 1.05: ${check(ratio <= 1.05)}`,
    );
  }
  if (count >= 10_000)
    lines.push(
      `peak RSS ${fmt(controller.peakRssMiB, 0)} MiB, target < 160: ${check(controller.peakRssMiB < 160)}`,
    );
  if (count === 3_000) {
    lines.push(
      `CPU ${fmt(cpuMs, 3)} ms per instance, target ≤ 4.7 (0.4 × Go Scoby's 11.68): ${check(cpuMs <= 4.7)}`,
    );
    lines.push(
      `peak RSS ${fmt(controller.peakRssMiB, 0)} MiB, target ≤ 110 (Go Scoby 184): ${check(controller.peakRssMiB <= 110)}`,
    );
  }
  if (count === 1_000)
    lines.push(
      `peak RSS ${fmt(controller.peakRssMiB, 0)} MiB, target ≤ 89 (Go Scoby's): ${check(controller.peakRssMiB <= 89)}`,
    );
  if (controller.restart) {
    const writes = [...controller.restart.requests]
      .filter(([key]) => isWrite(key))
      .reduce((sum, [, value]) => sum + value, 0);
    lines.push(`restart writes ${writes}, target 0: ${check(writes === 0)}`);
  }
  if (floor)
    lines.push(
      `(floor of this run: ${fmt(floor.seconds)} s, ${fmt((floor.cpuSeconds * 1000) / count, 3)} ms per instance)`,
    );
  console.log(`\nN = ${count}: targets (load ${loadavg()})`);
  for (const line of lines) console.log(`  ${line}`);
}

function printRatio(label: string, side: SideRun, base: SideRun, count: number): void {
  console.log(
    `  ${label.padEnd(24)} time ${fmt(side.seconds / base.seconds)}, CPU ${fmt(side.cpuSeconds / base.cpuSeconds)}, ` +
      `requests/inst. ${fmt(totalRequests(side) / count, 3)} vs ${fmt(totalRequests(base) / count, 3)} ` +
      `(${fmt((totalRequests(side) - totalRequests(base)) / count, 3)} more)`,
  );
}

console.log(
  `real-control-plane bench: concurrency ${concurrency} (the controller's --concurrency; the floor's and any ` +
    `peer's workers), kube-controller-manager and kube-scheduler at ${kubeApiQps} requests/s, ` +
    `sides ${sides.map((entry) => entry.label).join(', ')}, load ${loadavg()}`,
);
if (!peer)
  console.log('  (no peer: set BENCH_PEER_COMMAND, BENCH_PEER_NAME and optionally BENCH_PEER_SETUP)');
for (const count of sizes) {
  const runs = new Map<string, SideRun>();
  for (const { label, side } of sides) {
    console.log(`\nN = ${count}: ${label} on a fresh control plane (load ${loadavg()})`);
    const run = await runSide(side, { count, concurrency, kubeApiQps, timeoutMs, restart, log });
    runs.set(label, run);
    printSide(label, run, count);
    if (run.restart) printRestart(run.restart, count);
  }
  console.log(`\nN = ${count}: ratios (load ${loadavg()})`);
  const floor = runs.get('floor');
  const controller = runs.get('controller');
  const peerRun = peer ? runs.get(peer.name) : undefined;
  if (controller && floor) printRatio('controller / floor', controller, floor, count);
  if (peerRun && floor) printRatio(`${peer!.name} / floor`, peerRun, floor, count);
  if (controller && peerRun) printRatio(`controller / ${peer!.name}`, controller, peerRun, count);
  if (controller && floor) {
    const extra = (totalRequests(controller) - totalRequests(floor)) / count;
    console.log(`  requests per instance: controller ${fmt(extra, 3)} more than the floor (target ≤ 1)`);
  }
  if (controller) printTargets(controller, floor, count);
  if (controller && peerRun) {
    console.log(
      `  targets vs ${peer!.name}: time ${fmt(controller.seconds)} ≤ ${fmt(peerRun.seconds)} s, ` +
        `CPU ${fmt((controller.cpuSeconds * 1000) / count, 3)} ≤ ${fmt((peerRun.cpuSeconds * 1000) / count, 3)} ms per instance`,
    );
  }
}
