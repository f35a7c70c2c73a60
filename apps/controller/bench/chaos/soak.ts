/**
 * The soak: `--soak-minutes` (30) of churn (one operation every 30 ms, 60 % of them spec updates:
 * about 20 updates/s) against two controllers with leader election, with API faults (a round of
 * `--fault-round-seconds` at `--fault-percent` of the leader's requests every 30 s, ending with
 * every watch dropped), hook faults (the Relay hook resets, hangs or answers garbage for
 * `--hook-phase-seconds` every minute) and two leader kills (at 1/6 and 1/3 of the run; the killed
 * replica comes back as the standby). At the end: updates lost and double writes (each 0), the final
 * leader's RSS at the end against after its warm-up (within 10 %), reconcile latency percentiles,
 * and the machine's load.
 */
import { cpus } from 'node:os';
import { NO_CHANGE, startScriptedHook } from '../../test/support/hooks-server.ts';
import { CODES, faultTargets } from './api-faults.ts';
import { sleep, startChaosCluster } from './cluster.ts';
import { Churn } from './churn.ts';
import { ScobyRunChild, STARTED, STARTED_LEADING } from './controller.ts';
import { GARBAGE } from './hook-faults.ts';
import { settle } from './invariants.ts';
import { formatLatency, ReconcileLatency, summarize } from './latency.ts';
import { seededRandom } from './random.ts';
import { loadAverage } from './report.ts';
import { reportControllers, reportSettled, startHalfWriteSampler, type Scenario } from './scenario.ts';
import {
  EMPTY_LEDGER,
  flatness,
  recordLeaseWrites,
  updatesLost,
  type RssSample,
} from './soak-bookkeeping.ts';

const CHURN_PACE_MS = 30;
const TICK_MS = 100;
const API_FAULT_PERIOD_MS = 30_000;
const HOOK_FAULT_PERIOD_MS = 60_000;
const HOOK_MODES = ['reset', 'hang', 'garbage'] as const;
const KILL_AT = [1 / 6, 1 / 3];
const LATENCY_POLL_MS = 250;
const RSS_SAMPLES = 120;
const MIN_RSS_INTERVAL_MS = 2_000;
const PROGRESS_MS = 60_000;
const RSS_TOLERANCE = 0.1;
const CONTROLLER_USER_PREFIX = 'scoby-';

const isController = (user: string | undefined) => user?.startsWith(CONTROLLER_USER_PREFIX) ?? false;

export const soak: Scenario = async (options, report) => {
  const random = seededRandom(options.seed);
  const hook = await startScriptedHook(NO_CHANGE);
  const cluster = await startChaosCluster({ hookUrl: hook.url });
  const patienceMs = options.patienceSeconds * 1000;
  const durationMs = options.soakMinutes * 60_000;
  const controllers: ScobyRunChild[] = [];
  const startController = async (): Promise<ScobyRunChild> => {
    const name = `${CONTROLLER_USER_PREFIX}${controllers.length}`;
    const controller = new ScobyRunChild(name, {
      kubeconfigFile: await cluster.kubeconfigFile(name),
      leaderElect: true,
      concurrency: options.concurrency,
    });
    controllers.push(controller);
    return controller;
  };
  const churn = new Churn(cluster.client, cluster.workloads, random);
  const latency = new ReconcileLatency(cluster.client, cluster.workloads, LATENCY_POLL_MS);
  churn.onUpdated = (tracked, generation, at) => latency.written(tracked, generation, at);
  let ledger = EMPTY_LEDGER;
  const injected = new Map<number, number>();
  let served = 0;
  let apiRounds = 0;
  let hookPhases = 0;
  let hookFaulted = 0;
  const rss = new Map<string, RssSample[]>();
  const loads: number[] = [];
  let stopping = false;
  const pause = async (ms: number) => {
    const until = Date.now() + ms;
    while (!stopping && Date.now() < until) await sleep(Math.min(500, until - Date.now()));
  };
  const drainLog = () => {
    const entries = cluster.server.requestLog.entries();
    cluster.server.requestLog.clear();
    ledger = recordLeaseWrites(ledger, entries, isController);
    let tickServed = 0;
    for (const entry of entries) {
      if (!isController(entry.user)) continue;
      if (entry.injected) injected.set(entry.code, (injected.get(entry.code) ?? 0) + 1);
      else tickServed++;
    }
    served += tickServed;
    return tickServed;
  };
  let leader: ScobyRunChild | undefined;
  let sampler: ReturnType<typeof startHalfWriteSampler> | undefined;
  try {
    leader = await startController();
    await leader.waitForLog(STARTED_LEADING, patienceMs);
    let standby = await startController();
    await standby.waitForLog(STARTED, patienceMs);
    await churn.seed(options.instances);
    const before = await settle(cluster.client, cluster.workloads, churn.instances, patienceMs);
    report.check('converged before the soak', before.violations.length, before.violations.length === 0);

    const started = Date.now();
    const loadAtStart = loadAverage();
    let leaderSince = started;
    churn.start({ paceMs: CHURN_PACE_MS, live: options.instances });
    latency.start();
    sampler = startHalfWriteSampler(cluster.client, cluster.workloads, churn.instances, random);
    const faultsPerServed = options.faultPercent / (100 - options.faultPercent);
    const apiFaultLoop = (async () => {
      let owed = 0;
      let inRound = false;
      while (!stopping) {
        await sleep(TICK_MS);
        const tickServed = drainLog();
        const now = (Date.now() - started) % API_FAULT_PERIOD_MS < options.faultRoundSeconds * 1000;
        if (now && ledger.holder !== undefined) {
          const targets = faultTargets(cluster, ledger.holder);
          for (owed += tickServed * faultsPerServed; owed >= 1; owed--) {
            cluster.server.faults.failNext(random.pick(targets), { code: random.pick(CODES) });
          }
        }
        if (inRound && !now) {
          cluster.server.faults.reset();
          cluster.server.faults.dropWatches();
          apiRounds++;
          owed = 0;
        }
        inRound = now;
      }
    })();
    const hookFaultLoop = (async () => {
      for (let phase = 0; !stopping; phase++) {
        await pause(HOOK_FAULT_PERIOD_MS - options.hookPhaseSeconds * 1000);
        if (stopping) break;
        const mode = HOOK_MODES[phase % HOOK_MODES.length] as (typeof HOOK_MODES)[number];
        hook.answerWith(() => {
          hookFaulted++;
          return mode === 'garbage' ? random.pick(GARBAGE) : mode;
        });
        await pause(options.hookPhaseSeconds * 1000);
        hook.answerWith(NO_CHANGE);
        hookPhases++;
      }
    })();
    const rssIntervalMs = Math.max(MIN_RSS_INTERVAL_MS, durationMs / RSS_SAMPLES);
    const sampleLoop = (async () => {
      let progressAt = Date.now() + PROGRESS_MS;
      while (!stopping) {
        const current = leader;
        const rssMiB = await current?.rssMiB();
        if (current !== undefined && rssMiB !== undefined) {
          rss.set(current.name, [...(rss.get(current.name) ?? []), { at: Date.now(), rssMiB }]);
        }
        loads.push(Number(loadAverage().split(' ')[0]));
        if (Date.now() >= progressAt) {
          progressAt += PROGRESS_MS;
          console.error(
            `chaos: soak ${((Date.now() - started) / 60_000).toFixed(1)} of ${options.soakMinutes} min: ` +
              `updates ${churn.counts.updates}, leader ${current?.name ?? '-'} RSS ${rssMiB?.toFixed(0) ?? '-'} MiB, ` +
              `double writes ${ledger.doubleWrites}, awaiting reconcile ${latency.pending}, load ${loadAverage()}`,
          );
        }
        await pause(rssIntervalMs);
      }
    })();

    const takeovers: number[] = [];
    for (const fraction of KILL_AT) {
      await sleep(Math.max(0, started + fraction * durationMs - Date.now()));
      const killedAt = Date.now();
      await leader.kill();
      await standby.waitForLog(STARTED_LEADING, patienceMs);
      takeovers.push((Date.now() - killedAt) / 1000);
      leader = standby;
      leaderSince = Date.now();
      standby = await startController();
      await standby.waitForLog(STARTED, patienceMs);
    }
    await sleep(Math.max(0, started + durationMs - Date.now()));
    stopping = true;
    await Promise.all([apiFaultLoop, hookFaultLoop, sampleLoop]);
    const soakSeconds = (Date.now() - started) / 1000;
    const loadAtEnd = loadAverage();
    cluster.server.faults.reset();
    hook.answerWith(NO_CHANGE);
    await churn.stop();
    const duringChaos = await sampler.stop();
    const settled = await settle(cluster.client, cluster.workloads, churn.instances, patienceMs);
    await latency.drain(LATENCY_POLL_MS * 8);
    await latency.stop();
    drainLog();

    const total = [...injected.values()].reduce((sum, count) => sum + count, 0);
    const summary = summarize(latency.samples);
    const finalLeaderRss = (rss.get(leader.name) ?? []).filter((sample) => sample.at >= leaderSince);
    const memory = flatness(finalLeaderRss);
    report.info('soak minutes', soakSeconds / 60, '30');
    report.info(
      'instances created / updated / deleted',
      `${churn.counts.creates} / ${churn.counts.updates} / ${churn.counts.deletes}`,
    );
    report.info('spec updates per second', churn.counts.updates / soakSeconds, '20');
    report.info('API fault rounds (each ending with dropped watches)', apiRounds);
    report.info(
      "injected API errors (share of the leader's requests, %)",
      `${total} (${((100 * total) / (total + served)).toFixed(1)})`,
    );
    report.info('hook fault phases / hook calls answered with a fault', `${hookPhases} / ${hookFaulted}`);
    report.info(
      'leader SIGKILLs / seconds to take over',
      `${takeovers.length} / ${takeovers.map((s) => s.toFixed(1)).join(', ')}`,
      '2',
    );
    report.zero('updates lost', updatesLost([...settled.violations, ...duringChaos.violations]), '0');
    report.zero('double writes (a write while another replica held the Lease)', ledger.doubleWrites, '0');
    for (const example of ledger.examples) report.note(`double write: ${example}`);
    report.info(
      `final leader ${leader.name}: RSS after warm-up / at the end, MiB`,
      `${memory.afterWarmUpMiB.toFixed(1)} / ${memory.endMiB.toFixed(1)}`,
    );
    report.check(
      'final RSS vs RSS after warm-up',
      `${(memory.change * 100).toFixed(1)} %`,
      Math.abs(memory.change) <= RSS_TOLERANCE,
      'within 10 %',
    );
    report.info('reconcile latency p50 / p90 / p99 / max', formatLatency(summary));
    report.info('spec updates never seen reconciled (deleted ones left out)', latency.pending);
    report.info(
      `load average (${cpus().length} cores): start / end, 1-min mean and max during`,
      `${loadAtStart} / ${loadAtEnd}, ${(loads.reduce((sum, load) => sum + load, 0) / loads.length).toFixed(2)} and ${Math.max(...loads).toFixed(2)}`,
    );
    reportSettled(report, settled, duringChaos.violations, []);
    report.info('half-write samples taken during the soak', duringChaos.sampled);
    report.zero('harness writes refused', churn.failures.length);
  } finally {
    stopping = true;
    await sampler?.stop();
    await latency.stop();
    await churn.stop();
    await Promise.all(controllers.map((controller) => controller.stop()));
    reportControllers(report, controllers);
    await hook.close();
    await cluster.stop();
  }
};
