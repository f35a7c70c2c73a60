/**
 * Attack: a storm of 429 answers with `Retry-After` (kube-apiserver's priority and fairness under
 * load) for `--storm-seconds` (24), `Retry-After: --retry-after-seconds` (5), to every request of
 * the controller but its watches, right after every instance's spec changed. Each object is retried
 * when the server asked (within 1 of storm / Retry-After), no status write and no Event is sent for
 * a refused attempt, and every instance converges within 10 s after the storm.
 */
import type { RequestLogEntry } from '@scoby/in-memory-apiserver';
import { DEPLOYMENTS, NAMESPACE } from '../world.ts';
import { MAILERS, sleep, startChaosCluster, type ChaosCluster } from './cluster.ts';
import { Churn } from './churn.ts';
import { ScobyRunChild, STARTED } from './controller.ts';
import { settle } from './invariants.ts';
import { seededRandom } from './random.ts';
import { reportControllers, reportSettled, type Scenario } from './scenario.ts';

const CONTROLLER_USER = 'scoby';
const STORM_INSTANCES = 10;
const RECOVERY_TARGET_S = 10;

/** Deployment path of each instance, by instance name, from the stored Deployments' controllers. */
async function deploymentPaths(cluster: ChaosCluster): Promise<Map<string, string>> {
  const paths = new Map<string, string>();
  for (const deployment of (await cluster.client.list(DEPLOYMENTS, NAMESPACE)).items) {
    const owner = deployment.metadata.ownerReferences?.find((reference) => reference.controller === true);
    if (owner !== undefined) {
      paths.set(owner.name, `/apis/apps/v1/namespaces/${NAMESPACE}/deployments/${deployment.metadata.name}`);
    }
  }
  return paths;
}

export const retryAfter: Scenario = async (options, report) => {
  const random = seededRandom(options.seed);
  const cluster = await startChaosCluster();
  const controller = new ScobyRunChild(CONTROLLER_USER, {
    kubeconfigFile: await cluster.kubeconfigFile(CONTROLLER_USER),
    leaderElect: false,
    concurrency: options.concurrency,
  });
  const churn = new Churn(cluster.client, [MAILERS], random);
  const patienceMs = options.patienceSeconds * 1000;
  try {
    await controller.waitForLog(STARTED, patienceMs);
    await churn.seed(STORM_INSTANCES);
    const before = await settle(cluster.client, [MAILERS], churn.instances, patienceMs);
    report.check('converged before the storm', before.violations.length, before.violations.length === 0);
    const paths = await deploymentPaths(cluster);
    const throttledBefore = (await controller.metric('rest_client_throttled_requests_total')) ?? 0;

    cluster.server.requestLog.clear();
    const stop = cluster.server.faults.throttle(
      { user: CONTROLLER_USER },
      { retryAfterSeconds: options.retryAfterSeconds },
    );
    const stormStarted = Date.now();
    for (const tracked of churn.live()) await churn.update(tracked);
    await sleep(options.stormSeconds * 1000 - (Date.now() - stormStarted));
    const refused = cluster.server.requestLog
      .entries()
      .filter((entry: RequestLogEntry) => entry.user === CONTROLLER_USER && entry.injected);
    stop();
    const stormSeconds = (Date.now() - stormStarted) / 1000;
    const settled = await settle(cluster.client, [MAILERS], churn.instances, patienceMs, 250);

    const asked = stormSeconds / options.retryAfterSeconds;
    const retries = churn
      .live()
      .map((tracked) => refused.filter((entry) => entry.path === paths.get(tracked.name)).length - 1);
    const outside = retries.filter((count) => Math.abs(count - asked) > 1).length;
    report.info(
      'storm seconds / Retry-After seconds',
      `${stormSeconds.toFixed(1)} / ${options.retryAfterSeconds}`,
      '24 / 5',
    );
    report.info('retries per object', retries.join(', '), '12 (issue)');
    report.info('retries per object the server asked for', asked, '~5');
    report.check('objects retried more than 1 off what was asked', outside, outside === 0, '0');
    report.check(
      'seconds to recover after the storm',
      settled.seconds,
      settled.violations.length === 0 && settled.seconds < RECOVERY_TARGET_S,
      '< 10',
    );
    report.zero(
      'status writes refused (attempted during the storm)',
      refused.filter((entry) => entry.path.endsWith('/status')).length,
      '2 per refusal (issue), 0',
    );
    report.zero(
      'Events refused (attempted during the storm)',
      refused.filter((entry) => entry.path.includes('/events')).length,
      '3 per refusal (issue), 0',
    );
    report.info('requests refused', refused.length, '13999 (issue)');
    const throttled =
      ((await controller.metric('rest_client_throttled_requests_total')) ?? NaN) - throttledBefore;
    report.check(
      'rest_client_throttled_requests_total counts every refusal',
      throttled,
      throttled === refused.length,
    );
    reportSettled(report, settled, [], []);
  } finally {
    await controller.stop();
    reportControllers(report, [controller]);
    await cluster.stop();
  }
};
