/**
 * Attack: SIGTERM must end the controller within the grace period (`--grace-seconds`, 30: the
 * chart's terminationGracePeriodSeconds, passed as --graceful-shutdown-timeout) in every state where
 * it once did not: an instance parked in deletion (its finalize hook answered a permanent error),
 * registrations whose hooks hang (calls in flight with a 10-minute timeout), and watches open after
 * two more replicas joined and one of them was SIGKILLed. Each state has a cluster of its own.
 */
import {
  errorReply,
  NO_CHANGE,
  startScriptedHook,
  type ScriptedHook,
} from '../../test/support/hooks-server.ts';
import { NAMESPACE } from '../world.ts';
import { RELAYS, sleep, startChaosCluster, type ChaosCluster } from './cluster.ts';
import { Churn } from './churn.ts';
import {
  ScobyRunChild,
  STARTED,
  STARTED_LEADING,
  type ControllerSettings,
  type Termination,
} from './controller.ts';
import { createHangingRegistrations } from './hanging-registrations.ts';
import { settle } from './invariants.ts';
import { seededRandom } from './random.ts';
import type { Report } from './report.ts';
import { reportControllers, type Scenario } from './scenario.ts';
import type { ChaosOptions } from './scenario.ts';

const FINALIZER = 'scoby.triggermesh.io/finalizer';
/** After the grace period, this long more before the harness SIGKILLs a process that did not exit. */
const KILL_AFTER_GRACE_MS = 30_000;

interface State {
  cluster: ChaosCluster;
  hook: ScriptedHook;
  controllers: ScobyRunChild[];
}

async function eventually(what: string, probe: () => Promise<boolean> | boolean, timeoutMs: number) {
  const deadline = Date.now() + timeoutMs;
  while (!(await probe())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(100);
  }
}

function settingsFor(
  options: ChaosOptions,
  kubeconfigFile: string,
  leaderElect: boolean,
): ControllerSettings {
  return {
    kubeconfigFile,
    leaderElect,
    concurrency: options.concurrency,
    extraArgs: ['--graceful-shutdown-timeout', `${options.graceSeconds}s`],
  };
}

function reportTermination(report: Report, options: ChaosOptions, state: string, ended: Termination): void {
  const holds = ended.code === 0 && ended.signal === null && ended.ms < options.graceSeconds * 1000;
  report.check(
    `SIGTERM ${state}: seconds to exit (code ${ended.code ?? '-'}, signal ${ended.signal ?? '-'})`,
    ended.ms / 1000,
    holds,
    `never (issue), < ${options.graceSeconds}`,
  );
}

/** An instance whose finalize hook answers a permanent error: it stays, deleted, with the finalizer. */
async function parkedInDeletion(options: ChaosOptions, report: Report, state: State): Promise<void> {
  const { cluster, hook } = state;
  hook.answerWith((request) =>
    request.body.phase === 'finalize'
      ? errorReply(422, { message: 'the relay still holds messages', permanent: true })
      : NO_CHANGE(request),
  );
  const controller = new ScobyRunChild(
    'scoby',
    settingsFor(options, await cluster.kubeconfigFile('scoby'), false),
  );
  state.controllers.push(controller);
  await controller.waitForLog(STARTED, options.patienceSeconds * 1000);
  const churn = new Churn(cluster.client, [RELAYS], seededRandom(options.seed));
  const parked = await churn.create(RELAYS);
  await eventually(
    'the finalizer',
    async () =>
      (await cluster.client.get(RELAYS.resource, NAMESPACE, parked.name)).metadata.finalizers?.includes(
        FINALIZER,
      ) ?? false,
    options.patienceSeconds * 1000,
  );
  await churn.delete(parked);
  await eventually(
    'the refused finalize call',
    () => hook.callsFor('finalize').length > 0,
    options.patienceSeconds * 1000,
  );
  await sleep(1_000);
  reportTermination(
    report,
    options,
    'parked in deletion',
    await controller.terminate(options.graceSeconds * 1000 + KILL_AFTER_GRACE_MS),
  );
}

async function hooksHanging(options: ChaosOptions, report: Report, state: State): Promise<void> {
  const { cluster } = state;
  const hanging = await startScriptedHook(() => 'hang');
  try {
    await createHangingRegistrations(cluster, {
      count: 3,
      instances: 4,
      hookUrl: hanging.url,
      timeout: 'PT10M',
    });
    const controller = new ScobyRunChild(
      'scoby',
      settingsFor(options, await cluster.kubeconfigFile('scoby'), false),
    );
    state.controllers.push(controller);
    await controller.waitForLog(STARTED, options.patienceSeconds * 1000);
    await eventually(
      'hanging hook calls',
      () => hanging.requests.length >= 3,
      options.patienceSeconds * 1000,
    );
    report.info('hook calls hanging at SIGTERM', hanging.requests.length);
    reportTermination(
      report,
      options,
      'hooks hanging',
      await controller.terminate(options.graceSeconds * 1000 + KILL_AFTER_GRACE_MS),
    );
  } finally {
    await hanging.close();
  }
}

async function replicasJoinedOneKilled(options: ChaosOptions, report: Report, state: State): Promise<void> {
  const { cluster } = state;
  const start = async (name: string) => {
    const controller = new ScobyRunChild(
      name,
      settingsFor(options, await cluster.kubeconfigFile(name), true),
    );
    state.controllers.push(controller);
    return controller;
  };
  const patienceMs = options.patienceSeconds * 1000;
  const leader = await start('scoby-0');
  await leader.waitForLog(STARTED_LEADING, patienceMs);
  const churn = new Churn(cluster.client, cluster.workloads, seededRandom(options.seed));
  await churn.seed(10);
  const joined = [await start('scoby-1'), await start('scoby-2')];
  await Promise.all(joined.map((controller) => controller.waitForLog(STARTED, patienceMs)));
  await settle(cluster.client, cluster.workloads, churn.instances, patienceMs);
  await joined[0]!.kill();
  for (const [state, controller] of [
    ['leader, a replica killed', leader],
    ['standby, a replica killed', joined[1]!],
  ] as const) {
    reportTermination(
      report,
      options,
      state,
      await controller.terminate(options.graceSeconds * 1000 + KILL_AFTER_GRACE_MS),
    );
  }
}

const STATES = [parkedInDeletion, hooksHanging, replicasJoinedOneKilled];

export const shutdown: Scenario = async (options, report) => {
  for (const run of STATES) {
    const hook = await startScriptedHook(NO_CHANGE);
    const state: State = { cluster: await startChaosCluster({ hookUrl: hook.url }), hook, controllers: [] };
    try {
      await run(options, report, state);
    } finally {
      await Promise.all(state.controllers.map((controller) => controller.stop()));
      reportControllers(report, state.controllers);
      await hook.close();
      await state.cluster.stop();
    }
  }
};
