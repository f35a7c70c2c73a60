/**
 * Scenario 3: while instances churn, the API server answers a share of the controller's requests with
 * injected errors (500, 429, 409, 503) and ends every round by dropping every open watch. Faults
 * target the controller's user only; the errors it got are counted from the request log (entries
 * marked injected). After the faults stop, the invariants of the kills scenario hold and nothing was
 * half-written.
 */
import type { FaultMatch } from '@scoby/in-memory-apiserver';
import { NO_CHANGE, startScriptedHook } from '../../test/support/hooks-server.ts';
import { sleep, startChaosCluster, type ChaosCluster } from './cluster.ts';
import { Churn } from './churn.ts';
import { ControllerProcess, STARTED } from './controller.ts';
import { settle } from './invariants.ts';
import { seededRandom } from './random.ts';
import { reportControllers, reportSettled, startHalfWriteSampler, type Scenario } from './scenario.ts';

const CONTROLLER_USER = 'scoby';
const CODES = [500, 429, 409, 503] as const;
const TICK_MS = 100;

/** Everything the controller reads and writes; without verb, a match covers lists and watches too. */
function faultTargets(cluster: ChaosCluster): FaultMatch[] {
  const instances = cluster.workloads.map((workload) => workload.resource.resource);
  const targets: FaultMatch[] = [
    { resource: 'deployments' },
    { resource: 'services' },
    { resource: 'events' },
    { resource: 'configmaps' },
    { resource: 'crdregistrations' },
    { resource: 'customresourcedefinitions' },
    ...instances.flatMap((resource): FaultMatch[] => [
      { resource },
      { resource, subresource: 'status' },
      { resource, verb: 'patch' },
    ]),
  ];
  return targets.map((target) => ({ ...target, user: CONTROLLER_USER }));
}

/** Injected replies in the request log since the last call, by code; the log is cleared. */
function drainInjected(cluster: ChaosCluster, tally: Map<number, number>): void {
  const entries = cluster.server.requestLog.entries();
  cluster.server.requestLog.clear();
  for (const entry of entries) {
    if (entry.injected) tally.set(entry.code, (tally.get(entry.code) ?? 0) + 1);
  }
}

export const apiFaults: Scenario = async (options, report) => {
  const random = seededRandom(options.seed);
  const hook = await startScriptedHook(NO_CHANGE);
  const cluster = await startChaosCluster({ hookUrl: hook.url });
  const controller = new ControllerProcess(CONTROLLER_USER, {
    kubeconfigFile: await cluster.kubeconfigFile(CONTROLLER_USER),
    leaderElect: false,
    concurrency: options.concurrency,
  });
  const churn = new Churn(cluster.client, cluster.workloads, random);
  const injected = new Map<number, number>();
  const patienceMs = options.patienceSeconds * 1000;
  let armed = 0;
  try {
    await controller.waitForLog(STARTED, patienceMs);
    await churn.seed(options.instances);
    const before = await settle(cluster.client, cluster.workloads, churn.instances, patienceMs);
    report.check('converged before the faults', before.violations.length, before.violations.length === 0);
    churn.start({ paceMs: 100, live: options.instances });
    const sampler = startHalfWriteSampler(cluster.client, cluster.workloads, churn.instances, random);
    const targets = faultTargets(cluster);
    const perTick = (options.faultsPerSecond * TICK_MS) / 1000;
    cluster.server.requestLog.clear();
    for (let round = 0; round < options.faultRounds; round++) {
      const roundEnd = Date.now() + options.faultRoundSeconds * 1000;
      let owed = 0;
      while (Date.now() < roundEnd) {
        for (owed += perTick; owed >= 1; owed--) {
          cluster.server.faults.failNext(random.pick(targets), { code: random.pick(CODES) });
          armed++;
        }
        await sleep(TICK_MS);
      }
      cluster.server.faults.dropWatches();
      drainInjected(cluster, injected);
    }
    cluster.server.faults.reset();
    drainInjected(cluster, injected);
    await churn.stop();
    const duringChaos = await sampler.stop();
    const settled = await settle(cluster.client, cluster.workloads, churn.instances, patienceMs);
    report.info(
      'injected API errors',
      [...injected.values()].reduce((sum, count) => sum + count, 0),
      '~3800',
    );
    report.info('of them by code', CODES.map((code) => `${code}: ${injected.get(code) ?? 0}`).join(', '));
    report.info('faults armed (those no request met were disarmed at the end)', armed);
    report.info('rounds of dropped watches', options.faultRounds, '20');
    reportSettled(report, settled, duringChaos.violations, ['half-write']);
    report.info('half-write samples taken during the faults', duringChaos.sampled);
    report.zero('harness writes refused', churn.failures.length);
    report.info(
      'instances created / updated / deleted',
      `${churn.counts.creates} / ${churn.counts.updates} / ${churn.counts.deletes}`,
    );
  } finally {
    await controller.stop();
    reportControllers(report, [controller]);
    await hook.close();
    await cluster.stop();
  }
};
