/**
 * Scenario 6: the controller's resident set size while instances churn (created, changed, deleted,
 * names never reused, so per-instance state that leaks would pile up), sampled from /proc. "Flat": the
 * RSS at the end is within 15 % of the RSS after the warm-up (the first quarter of the run); both are
 * the mean of three samples, so one garbage collection more or less does not decide.
 */
import { NO_CHANGE, startScriptedHook } from '../../test/support/hooks-server.ts';
import { sleep, startChaosCluster } from './cluster.ts';
import { Churn } from './churn.ts';
import { ScobyRunChild, STARTED } from './controller.ts';
import { settle } from './invariants.ts';
import { seededRandom } from './random.ts';
import { reportControllers, reportSettled, type Scenario } from './scenario.ts';
import { flatness, type RssSample } from './soak-bookkeeping.ts';

const SAMPLES = 60;
const MIN_INTERVAL_MS = 2_000;
const FLAT_TOLERANCE = 0.15;

/** Least-squares slope, MiB per minute. */
function slope(samples: readonly RssSample[]): number {
  const minutes = samples.map((sample) => sample.at / 60_000);
  const x = minutes.reduce((sum, minute) => sum + minute, 0) / samples.length;
  const y = samples.reduce((sum, sample) => sum + sample.rssMiB, 0) / samples.length;
  const covariance = samples.reduce(
    (sum, sample, index) => sum + ((minutes[index] as number) - x) * (sample.rssMiB - y),
    0,
  );
  const variance = minutes.reduce((sum, minute) => sum + (minute - x) ** 2, 0);
  return variance === 0 ? 0 : covariance / variance;
}

export const memory: Scenario = async (options, report) => {
  const random = seededRandom(options.seed);
  const hook = await startScriptedHook(NO_CHANGE);
  const cluster = await startChaosCluster({ hookUrl: hook.url });
  const controller = new ScobyRunChild('scoby', {
    kubeconfigFile: await cluster.kubeconfigFile('scoby'),
    leaderElect: false,
    concurrency: options.concurrency,
  });
  const churn = new Churn(cluster.client, cluster.workloads, random);
  const durationMs = options.memoryMinutes * 60_000;
  const intervalMs = Math.max(MIN_INTERVAL_MS, durationMs / SAMPLES);
  const samples: RssSample[] = [];
  try {
    await controller.waitForLog(STARTED, options.patienceSeconds * 1000);
    await churn.seed(options.instances);
    const started = Date.now();
    churn.start({ paceMs: 50, live: options.instances });
    while (Date.now() - started < durationMs) {
      const rssMiB = await controller.rssMiB();
      if (rssMiB !== undefined) samples.push({ at: Date.now(), rssMiB });
      await sleep(intervalMs);
    }
    await churn.stop();
    const settled = await settle(
      cluster.client,
      cluster.workloads,
      churn.instances,
      options.patienceSeconds * 1000,
    );
    const warmedUp = samples.filter((sample) => sample.at >= started + durationMs / 4);
    const { afterWarmUpMiB: afterWarmUp, endMiB: end, change } = flatness(samples);
    report.info('minutes of churn', options.memoryMinutes, '10');
    report.info('RSS at the start, MiB', samples[0]?.rssMiB ?? NaN);
    report.info('RSS after the warm-up, MiB', afterWarmUp);
    report.info('RSS peak, MiB', Math.max(...samples.map((sample) => sample.rssMiB)));
    report.info('RSS at the end, MiB', end);
    report.info('slope after the warm-up, MiB per minute', slope(warmedUp));
    report.check(
      'end vs after warm-up (flat: within 15 %)',
      `${(change * 100).toFixed(1)} %`,
      Math.abs(change) <= FLAT_TOLERANCE,
      'flat',
    );
    report.info(
      'instances created / updated / deleted',
      `${churn.counts.creates} / ${churn.counts.updates} / ${churn.counts.deletes}`,
    );
    reportSettled(report, settled, [], []);
  } finally {
    await controller.stop();
    reportControllers(report, [controller]);
    await hook.close();
    await cluster.stop();
  }
};
