/**
 * Scenario 4: the Relay registration's hook (pre-reconcile and finalize) misbehaves in phases while
 * instances are created and deleted: it resets connections, hangs past the registration's 2 s
 * timeout, answers garbage (cut-off JSON, wrong shapes, HTML, a body over the 16 MiB limit, a bare
 * 502), and goes down and comes back on the same port. The controller must never crash, and once the
 * hook is healthy again every invariant holds, finalizers included.
 *
 * No spec updates meanwhile: each failed reconcile doubles the instance's backoff (5 ms up to 1000 s,
 * docs/spec/hooks-v1.md §6.2), event-triggered ones included, so an instance updated often during the outage
 * may rightly wait many minutes after the hook is back. With creates and deletes only, an instance's
 * backoff grows with the outage's length, and it is retried within about that long afterwards.
 */
import {
  NO_CHANGE,
  startScriptedHook,
  type HookReply,
  type HookScript,
  type ScriptedHook,
} from '../../test/support/hooks-server.ts';
import { sleep, startChaosCluster } from './cluster.ts';
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

/** A sample line of scoby_hook_calls_total for a call that failed. */
const failedCall = (line: string): boolean => !line.includes('outcome="success"');

const MODES = ['reset', 'hang', 'garbage', 'down'] as const;
type Mode = (typeof MODES)[number];
const HEALTHY_GAP_MS = 1_000;
const JSON_HEADERS = { 'Content-Type': 'application/json' };
const OVERSIZED = `"${'x'.repeat(17 * 1024 * 1024)}"`;
export const GARBAGE: HookReply[] = [
  { status: 200, headers: JSON_HEADERS, body: '{"object": {"status": ' },
  { status: 200, headers: JSON_HEADERS, body: '{"children": 42}' },
  { status: 200, headers: JSON_HEADERS, body: '[1, 2, 3]' },
  { status: 200, headers: { 'Content-Type': 'text/html' }, body: '<html><body>gateway</body></html>' },
  { status: 502, body: 'Bad Gateway' },
  { status: 200, headers: JSON_HEADERS, body: OVERSIZED },
];

export const hookFaults: Scenario = async (options, report) => {
  const random = seededRandom(options.seed);
  let faulted = 0;
  const faultyScript =
    (mode: Exclude<Mode, 'down'>): HookScript =>
    () => {
      faulted++;
      return mode === 'garbage' ? random.pick(GARBAGE) : mode;
    };
  let hook: ScriptedHook = await startScriptedHook(NO_CHANGE);
  const port = hook.port;
  let calls = 0;
  const cluster = await startChaosCluster({ hookUrl: hook.url });
  const controller = new ScobyRunChild('scoby', {
    kubeconfigFile: await cluster.kubeconfigFile('scoby'),
    leaderElect: false,
    concurrency: options.concurrency,
  });
  const churn = new Churn(cluster.client, cluster.workloads, random);
  const patienceMs = options.patienceSeconds * 1000;
  let downs = 0;
  try {
    await controller.waitForLog(STARTED, patienceMs);
    await churn.seed(options.instances);
    const before = await settle(cluster.client, cluster.workloads, churn.instances, patienceMs);
    report.check('converged before the faults', before.violations.length, before.violations.length === 0);
    const failuresBefore = (await controller.metric('scoby_hook_calls_total', failedCall)) ?? 0;
    churn.start({ paceMs: 100, live: options.instances, updates: false });
    const sampler = startHalfWriteSampler(cluster.client, cluster.workloads, churn.instances, random);
    for (let round = 0; round < options.hookRounds; round++) {
      for (const mode of MODES) {
        if (mode === 'down') {
          calls += hook.requests.length;
          await hook.close();
          downs++;
          await sleep(options.hookPhaseSeconds * 1000);
          hook = await startScriptedHook(NO_CHANGE, { port });
        } else {
          hook.answerWith(faultyScript(mode));
          await sleep(options.hookPhaseSeconds * 1000);
          hook.answerWith(NO_CHANGE);
        }
        await sleep(HEALTHY_GAP_MS);
      }
    }
    await churn.stop();
    const duringChaos = await sampler.stop();
    const settled = await settle(cluster.client, cluster.workloads, churn.instances, patienceMs);
    calls += hook.requests.length;
    const failures =
      ((await controller.metric('scoby_hook_calls_total', failedCall)) ?? NaN) - failuresBefore;
    report.info('hook calls that failed, as the controller counted them', failures, '17');
    report.info('hook calls answered with a reset, a hang or garbage', faulted);
    report.info('times the hook went down and came back', downs);
    report.info('hook calls received', calls);
    reportChurnUnderFaults(report, settled, duringChaos, churn);
  } finally {
    await controller.stop();
    reportControllers(report, [controller]);
    await hook.close();
    await cluster.stop();
  }
};
