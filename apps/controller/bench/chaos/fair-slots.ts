/**
 * Attack: registrations whose hooks hang must not starve the others. `--hanging-registrations` (10)
 * CRDs share one hook that never answers (default hook timeout, 15 s), each with
 * `--hanging-instances` (10) instances, next to two healthy registrations (Mailer without a hook,
 * Relay with a healthy one): 12 registrations at the default. Meanwhile one Mailer a
 * `--starve-pace-ms` (250) is updated for `--starve-seconds` (60), and each update's reconcile latency
 * (spec written to Ready=True for it) must stay under 1 s; `/healthz` must keep answering 200.
 */
import { NO_CHANGE, startScriptedHook } from '../../test/support/hooks-server.ts';
import { MAILERS, sleep, startChaosCluster } from './cluster.ts';
import { Churn } from './churn.ts';
import { ScobyRunChild, STARTED } from './controller.ts';
import { createHangingRegistrations } from './hanging-registrations.ts';
import { settle } from './invariants.ts';
import { formatLatency, ReconcileLatency, summarize } from './latency.ts';
import { seededRandom } from './random.ts';
import { reportControllers, type Scenario } from './scenario.ts';

const UNRELATED_INSTANCES = 10;
/** The hook calls of the hanging registrations fill their slots within this. */
const HANG_SETTLE_MS = 3_000;
const POLL_MS = 50;
const TARGET_MS = 1_000;

export const fairSlots: Scenario = async (options, report) => {
  const random = seededRandom(options.seed);
  const healthyHook = await startScriptedHook(NO_CHANGE);
  const hangingHook = await startScriptedHook(() => 'hang');
  const cluster = await startChaosCluster({ hookUrl: healthyHook.url });
  const controller = new ScobyRunChild('scoby', {
    kubeconfigFile: await cluster.kubeconfigFile('scoby'),
    leaderElect: false,
    concurrency: options.concurrency,
  });
  const churn = new Churn(cluster.client, [MAILERS], random);
  const latency = new ReconcileLatency(cluster.client, [MAILERS], POLL_MS);
  churn.onUpdated = (tracked, generation, at) => latency.written(tracked, generation, at);
  const patienceMs = options.patienceSeconds * 1000;
  try {
    await controller.waitForLog(STARTED, patienceMs);
    await churn.seed(UNRELATED_INSTANCES);
    const before = await settle(cluster.client, [MAILERS], churn.instances, patienceMs);
    report.check('converged before the attack', before.violations.length, before.violations.length === 0);
    await createHangingRegistrations(cluster, {
      count: options.hangingRegistrations,
      instances: options.hangingInstances,
      hookUrl: hangingHook.url,
    });
    await sleep(HANG_SETTLE_MS);
    report.info(
      'registrations whose hook hangs / all registrations',
      `${options.hangingRegistrations} / ${options.hangingRegistrations + 2}`,
      '4 / 4+ (issue), 10 / 12 (target)',
    );
    report.info('hook calls hanging when the updates started', hangingHook.requests.length);

    latency.start();
    const started = Date.now();
    while (Date.now() - started < options.starveSeconds * 1000) {
      await churn.update(random.pick(churn.live()));
      await sleep(options.starvePaceMs);
    }
    await latency.drain(patienceMs);
    await latency.stop();
    const summary = summarize(latency.samples);
    report.info('unrelated reconcile latency p50 / p90 / p99 / max', formatLatency(summary));
    report.check('unrelated reconcile latency p99, ms', summary.p99, summary.p99 < TARGET_MS, '< 1000');
    report.check(
      'unrelated reconcile latency max, ms',
      summary.max,
      summary.max < TARGET_MS,
      '56000 / < 1000',
    );
    report.zero('unrelated updates never reconciled', latency.pending);
    const health = await controller.ops('/healthz').catch(() => undefined);
    report.check('/healthz with hooks hanging', health?.status ?? 'no answer', health?.status === 200, '200');
    report.note(`/healthz answered: ${health?.body.trim().slice(0, 500) ?? 'nothing'}`);
    report.info('hook calls of the hanging registrations', hangingHook.requests.length);
    report.info('controller RSS at the end, MiB', (await controller.rssMiB()) ?? NaN);
  } finally {
    await latency.stop();
    await controller.stop();
    reportControllers(report, [controller]);
    await hangingHook.close();
    await healthyHook.close();
    await cluster.stop();
  }
};
