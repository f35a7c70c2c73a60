/**
 * Scenario 1: the controller is SIGKILLed at random moments while instances are created, changed and
 * deleted, and restarted at once each time. Afterwards every live instance has exactly its desired
 * children and a status for its generation, and every deleted instance is gone.
 */
import { NO_CHANGE, startScriptedHook } from '../../test/support/hooks-server.ts';
import { startChaosCluster, sleep } from './cluster.ts';
import { Churn } from './churn.ts';
import { ScobyRunChild, STARTED, type ControllerSettings } from './controller.ts';
import { settle } from './invariants.ts';
import { seededRandom } from './random.ts';
import { reportControllers, reportSettled, startHalfWriteSampler, type Scenario } from './scenario.ts';

const START_PATIENCE_MS = 60_000;
/** After the controller logs that it started, it is killed within this long. */
const MAX_LIFETIME_MS = 3_000;

export const kills: Scenario = async (options, report) => {
  const random = seededRandom(options.seed);
  const hook = await startScriptedHook(NO_CHANGE);
  const cluster = await startChaosCluster({ hookUrl: hook.url });
  const settings: ControllerSettings = {
    kubeconfigFile: await cluster.kubeconfigFile('scoby'),
    leaderElect: false,
    concurrency: options.concurrency,
  };
  const churn = new Churn(cluster.client, cluster.workloads, random);
  let controller = new ScobyRunChild('scoby', settings);
  const controllers = [controller];
  let killed = 0;
  const startSeconds: number[] = [];
  try {
    await churn.seed(options.instances);
    churn.start({ paceMs: 100, live: options.instances });
    const sampler = startHalfWriteSampler(cluster.client, cluster.workloads, churn.instances, random);
    while (killed < options.kills) {
      const startedAt = await controller.waitForLog(STARTED, START_PATIENCE_MS).catch(() => NaN);
      startSeconds.push((startedAt - controller.startedAt) / 1000);
      await sleep(random.int(0, MAX_LIFETIME_MS));
      await controller.kill();
      killed++;
      controller = new ScobyRunChild('scoby', settings);
      controllers.push(controller);
    }
    await churn.stop();
    const duringChaos = await sampler.stop();
    const settled = await settle(
      cluster.client,
      cluster.workloads,
      churn.instances,
      options.patienceSeconds * 1000,
    );
    report.check('SIGKILLs', killed, killed === options.kills, '19');
    reportSettled(report, settled, duringChaos.violations, [
      'duplicate',
      'orphan',
      'lost-status',
      'stuck-finalizer',
    ]);
    report.info('half-write samples taken while killing', duringChaos.sampled);
    report.zero('harness writes refused', churn.failures.length);
    report.info(
      'instances created / updated / deleted',
      `${churn.counts.creates} / ${churn.counts.updates} / ${churn.counts.deletes}`,
    );
    report.info('live instances at the end', churn.live().length);
    report.info('hook calls', hook.requests.length);
    report.info(
      'seconds from spawn to "started", mean',
      startSeconds.reduce((sum, seconds) => sum + seconds, 0) / startSeconds.length,
    );
  } finally {
    await controller.stop();
    reportControllers(report, controllers);
    await hook.close();
    await cluster.stop();
  }
};
