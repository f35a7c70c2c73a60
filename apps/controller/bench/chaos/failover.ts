/**
 * Scenario 2: two controllers with leader election (the CLI's default Lease timings: 15 s duration,
 * 10 s renew deadline, 2 s retry). The leader is SIGKILLed, instances are updated while nobody leads,
 * and the clock runs until the standby has taken over and every update is reconciled. The killed
 * controller comes back as the next standby, and the next round kills the new leader.
 */
import { startChaosCluster } from './cluster.ts';
import { Churn, type TrackedInstance } from './churn.ts';
import { ScobyRunChild, STARTED, STARTED_LEADING, type ControllerSettings } from './controller.ts';
import { settle } from './invariants.ts';
import { seededRandom } from './random.ts';
import { reportControllers, reportSettled, type Scenario } from './scenario.ts';

const START_PATIENCE_MS = 60_000;
const UPDATES_PER_OUTAGE = 10;
/** Two lease durations: a takeover slower than this is a defect, whatever it lost. */
const FAILOVER_BOUND_SECONDS = 30;

export const failover: Scenario = async (options, report) => {
  const random = seededRandom(options.seed);
  const cluster = await startChaosCluster();
  const churn = new Churn(cluster.client, cluster.workloads, random);
  let generation = 0;
  const controllers: ScobyRunChild[] = [];
  const startController = async (): Promise<ScobyRunChild> => {
    const name = `scoby-${generation++}`;
    const settings: ControllerSettings = {
      kubeconfigFile: await cluster.kubeconfigFile(name),
      leaderElect: true,
      concurrency: options.concurrency,
    };
    const controller = new ScobyRunChild(name, settings);
    controllers.push(controller);
    return controller;
  };
  try {
    let leader = await startController();
    await leader.waitForLog(STARTED_LEADING, START_PATIENCE_MS);
    let standby = await startController();
    await standby.waitForLog(STARTED, START_PATIENCE_MS);
    await churn.seed(options.instances);
    const patienceMs = options.patienceSeconds * 1000;
    const before = await settle(cluster.client, cluster.workloads, churn.instances, patienceMs);
    report.check('converged before the first kill', before.violations.length, before.violations.length === 0);

    const takeovers: number[] = [];
    const reconciled: number[] = [];
    let lost = 0;
    for (let round = 0; round < options.failoverRounds; round++) {
      const killedAt = Date.now();
      await leader.kill();
      const updated: TrackedInstance[] = [];
      for (const candidate of shuffled(churn.live(), random).slice(0, UPDATES_PER_OUTAGE)) {
        await churn.update(candidate);
        updated.push(candidate);
      }
      const tookOverAt = await standby.waitForLog(STARTED_LEADING, patienceMs).catch(() => NaN);
      const outcome = await settle(cluster.client, cluster.workloads, updated, patienceMs, 250);
      takeovers.push((tookOverAt - killedAt) / 1000);
      reconciled.push((Date.now() - killedAt) / 1000);
      lost += new Set(outcome.violations.map((violation) => violation.object)).size;
      leader = standby;
      standby = await startController();
      await standby.waitForLog(STARTED, START_PATIENCE_MS);
    }
    const settled = await settle(cluster.client, cluster.workloads, churn.instances, patienceMs);
    report.info('leader SIGKILLs', takeovers.length);
    report.info(
      'seconds to take over, per kill',
      takeovers.map((seconds) => seconds.toFixed(1)).join(', '),
      '15',
    );
    const slowest = Math.max(...reconciled);
    report.check(
      'seconds until the outage updates were reconciled (max)',
      slowest,
      slowest <= FAILOVER_BOUND_SECONDS,
      '15',
    );
    report.zero('lost updates', lost);
    report.info('updates made while nobody led', takeovers.length * UPDATES_PER_OUTAGE);
    reportSettled(report, settled, [], []);
  } finally {
    await Promise.all(controllers.map((controller) => controller.stop()));
    reportControllers(report, controllers);
    await cluster.stop();
  }
};

function shuffled<T>(items: readonly T[], random: { next(): number }): T[] {
  return items
    .map((item) => ({ item, key: random.next() }))
    .sort((a, b) => a.key - b.key)
    .map(({ item }) => item);
}
