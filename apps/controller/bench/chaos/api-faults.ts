/**
 * Scenario 3: while instances churn, the API server answers a share of the controller's requests with
 * injected errors (500, 429, 409, 503) and ends every round by dropping every open watch. Every tick,
 * as many faults are armed as make about `--fault-percent` of the controller's requests fail, each for
 * a random resource it uses (a fault waits for a request that matches it). Faults target the
 * controller's user only; what it got is counted from the request log (entries marked injected).
 * After the faults stop, the invariants of the kills scenario hold and nothing was half-written.
 */
import type { FaultMatch } from '@scoby/in-memory-apiserver';
import { NO_CHANGE, startScriptedHook } from '../../test/support/hooks-server.ts';
import { sleep, startChaosCluster, type ChaosCluster } from './cluster.ts';
import { Churn } from './churn.ts';
import { ScobyRunChild, STARTED } from './controller.ts';
import { settle } from './invariants.ts';
import { seededRandom } from './random.ts';
import {
  reportChurnUnderFaults,
  reportControllers,
  startHalfWriteSampler,
  type Scenario,
} from './scenario.ts';

const CONTROLLER_USER = 'scoby';
export const CODES = [500, 429, 409, 503] as const;
const TICK_MS = 100;

/** Everything `user` (a controller) reads and writes; without verb, a match covers lists and watches too. */
export function faultTargets(cluster: ChaosCluster, user = CONTROLLER_USER): FaultMatch[] {
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
  return targets.map((target) => ({ ...target, user }));
}

/** The controller's requests in the request log since the last call, counted; the log is cleared. */
function drainRequests(cluster: ChaosCluster, injected: Map<number, number>): { served: number } {
  const entries = cluster.server.requestLog.entries();
  cluster.server.requestLog.clear();
  let served = 0;
  for (const entry of entries) {
    if (entry.user !== CONTROLLER_USER) continue;
    if (entry.injected) injected.set(entry.code, (injected.get(entry.code) ?? 0) + 1);
    else served++;
  }
  return { served };
}

export const apiFaults: Scenario = async (options, report) => {
  const random = seededRandom(options.seed);
  const hook = await startScriptedHook(NO_CHANGE);
  const cluster = await startChaosCluster({ hookUrl: hook.url });
  const controller = new ScobyRunChild(CONTROLLER_USER, {
    kubeconfigFile: await cluster.kubeconfigFile(CONTROLLER_USER),
    leaderElect: false,
    concurrency: options.concurrency,
  });
  const churn = new Churn(cluster.client, cluster.workloads, random);
  const injected = new Map<number, number>();
  const patienceMs = options.patienceSeconds * 1000;
  try {
    await controller.waitForLog(STARTED, patienceMs);
    await churn.seed(options.instances);
    const before = await settle(cluster.client, cluster.workloads, churn.instances, patienceMs);
    report.check('converged before the faults', before.violations.length, before.violations.length === 0);
    churn.start({ paceMs: 30, live: options.instances });
    const sampler = startHalfWriteSampler(cluster.client, cluster.workloads, churn.instances, random);
    const targets = faultTargets(cluster);
    // p % of all requests fail when p / (100 - p) faults are armed per request served.
    const faultsPerServed = options.faultPercent / (100 - options.faultPercent);
    let served = 0;
    drainRequests(cluster, injected);
    for (let round = 0; round < options.faultRounds; round++) {
      const roundEnd = Date.now() + options.faultRoundSeconds * 1000;
      let owed = 0;
      while (Date.now() < roundEnd) {
        await sleep(TICK_MS);
        const tick = drainRequests(cluster, injected);
        served += tick.served;
        for (owed += tick.served * faultsPerServed; owed >= 1; owed--) {
          cluster.server.faults.failNext(random.pick(targets), { code: random.pick(CODES) });
        }
      }
      cluster.server.faults.dropWatches();
    }
    cluster.server.faults.reset();
    served += drainRequests(cluster, injected).served;
    await churn.stop();
    const duringChaos = await sampler.stop();
    const settled = await settle(cluster.client, cluster.workloads, churn.instances, patienceMs);
    const total = [...injected.values()].reduce((sum, count) => sum + count, 0);
    report.info('injected API errors', total, '~3800');
    report.info('of them by code', CODES.map((code) => `${code}: ${injected.get(code) ?? 0}`).join(', '));
    report.info("share of the controller's requests that failed, %", (100 * total) / (total + served));
    report.info('rounds of dropped watches', options.faultRounds, '20');
    reportChurnUnderFaults(report, settled, duringChaos, churn);
  } finally {
    await controller.stop();
    reportControllers(report, [controller]);
    await hook.close();
    await cluster.stop();
  }
};
