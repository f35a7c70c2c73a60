/**
 * Scenario 5: mutated CRDRegistrations and instances with fuzzed specs. Three registrations, each for
 * a CRD of its own, are rewritten M times in all (in parallel, each waiting for the controller's
 * verdict before the next): a spec the API server's schema refuses must be refused with a message; an
 * invalid spec must be reported on the registration with the validator's reason and message; a valid
 * one must become Ready, or say in Ready why not (another registration owns the CRD, the CRD is
 * missing, ...). Meanwhile F instances with fuzzed specs are created. At the end the valid
 * registrations are restored: every fuzzed instance is then Ready with exactly its desired children, or
 * Ready=False saying why, and the controller never crashed.
 */
import type { KubeObject } from '@scoby/kube-objects';
import { validateRegistration } from '@scoby/registration';
import { ApiError, isAlreadyExists, isConflict } from '@scoby/controller-runtime';
import { builtInFormFactors } from '../../src/process/built-in-form-factors.ts';
import { crdFor } from '../../test/support/cluster.ts';
import { REGISTRATIONS, sleep, startChaosCluster, type ChaosCluster, type Workload } from './cluster.ts';
import { instanceObject, type TrackedInstance } from './churn.ts';
import { ScobyRunChild, STARTED } from './controller.ts';
import { baseRegistrationSpec, FUZZ_GROUP, fuzzedSpecs, mutatedRegistrationSpecs } from './fuzz-inputs.ts';
import { settle } from './invariants.ts';
import { reportControllers, reportSettled, type Scenario } from './scenario.ts';

const SLOTS = 3;
const VERDICT_PATIENCE_MS = 20_000;
const formFactors = builtInFormFactors([]);

interface Condition {
  type: string;
  status: string;
  reason?: string;
  message?: string;
}

function slot(index: number): Workload {
  return {
    registration: `fuzz-${index}`,
    apiVersion: `${FUZZ_GROUP}/v1`,
    kind: `Gadget${index}`,
    resource: { group: FUZZ_GROUP, version: 'v1', resource: `gadget${index}s`, namespaced: true },
  };
}

const crdName = (workload: Workload) => `${workload.resource.resource}.${workload.resource.group}`;

function conditionOf(registration: KubeObject, type: string): Condition | undefined {
  const status = registration.status as { conditions?: Condition[] } | undefined;
  return status?.conditions?.find((condition) => condition.type === type);
}

/** Writes `spec` over the registration, retrying conflicts with the controller's own writes. */
async function rewrite(
  cluster: ChaosCluster,
  name: string,
  spec: Record<string, unknown>,
): Promise<{ stored: KubeObject } | { refusal: string }> {
  for (;;) {
    const current = await cluster.client.get(REGISTRATIONS, undefined, name);
    try {
      const stored = await cluster.client.request<KubeObject>(
        'PUT',
        `/apis/scoby.triggermesh.io/v1alpha1/crdregistrations/${name}`,
        { body: { ...current, spec } },
      );
      return { stored };
    } catch (error) {
      if (isConflict(error)) continue;
      if (error instanceof ApiError && error.code >= 400 && error.code < 500)
        return { refusal: error.message };
      throw error;
    }
  }
}

/** The registration once the controller has judged `generation`: Ready is True or False. */
async function verdict(
  cluster: ChaosCluster,
  name: string,
  generation: number,
): Promise<KubeObject | undefined> {
  const deadline = Date.now() + VERDICT_PATIENCE_MS;
  while (Date.now() < deadline) {
    const registration = await cluster.client.get(REGISTRATIONS, undefined, name);
    const observed = (registration.status as { observedGeneration?: number } | undefined)?.observedGeneration;
    const ready = conditionOf(registration, 'Ready')?.status;
    if (observed === generation && (ready === 'True' || ready === 'False')) return registration;
    await sleep(50);
  }
  return undefined;
}

/** What the registration says about one mutated spec; `problem` when that is not what the spec deserves. */
function judge(stored: KubeObject, judged: KubeObject): { outcome: string; problem?: string } {
  const validation = validateRegistration(stored, formFactors);
  const controllerReady = conditionOf(judged, 'ControllerReady');
  const ready = conditionOf(judged, 'Ready') as Condition;
  if (!validation.ok) {
    const saysWhy =
      controllerReady?.status === 'False' &&
      controllerReady.reason === validation.reason &&
      controllerReady.message === validation.message &&
      ready.status === 'False';
    return saysWhy
      ? { outcome: `invalid, says why (${validation.reason})` }
      : {
          outcome: 'invalid, status wrong',
          problem: `expected ControllerReady=False ${validation.reason}: ${validation.message}; found ${JSON.stringify(controllerReady)}`,
        };
  }
  if (ready.status === 'True') return { outcome: 'valid, Ready' };
  return ready.reason && ready.message
    ? { outcome: `valid, not Ready, says why (${ready.reason})` }
    : {
        outcome: 'valid, not Ready, silent',
        problem: `Ready=False without reason or message: ${JSON.stringify(ready)}`,
      };
}

export const fuzz: Scenario = async (options, report) => {
  const cluster = await startChaosCluster();
  const workloads = Array.from({ length: SLOTS }, (_, index) => slot(index));
  const controller = new ScobyRunChild('scoby', {
    kubeconfigFile: await cluster.kubeconfigFile('scoby'),
    leaderElect: false,
    concurrency: options.concurrency,
  });
  const outcomes = new Map<string, number>();
  const problems: string[] = [];
  const count = (outcome: string) => outcomes.set(outcome, (outcomes.get(outcome) ?? 0) + 1);
  const patienceMs = options.patienceSeconds * 1000;
  try {
    for (const workload of workloads) {
      const { group, resource } = workload.resource;
      await cluster.createCrd(crdFor({ group, kind: workload.kind, plural: resource }));
      await cluster.client.create(REGISTRATIONS, {
        apiVersion: 'scoby.triggermesh.io/v1alpha1',
        kind: 'CRDRegistration',
        metadata: { name: workload.registration },
        spec: baseRegistrationSpec(crdName(workload)),
      });
    }
    await controller.waitForLog(STARTED, patienceMs);

    const tracked: TrackedInstance[] = [];
    let specsRefused = 0;
    const creating = (async () => {
      for (const [index, spec] of fuzzedSpecs(options.specs, options.seed).entries()) {
        const workload = workloads[index % SLOTS] as Workload;
        const name = `${workload.kind.toLowerCase()}-${index}`;
        try {
          await cluster.client.create(workload.resource, instanceObject(workload, name, spec));
        } catch (error) {
          // AlreadyExists: a create sent again after a reset had landed the first time.
          if (!isAlreadyExists(error)) {
            if (!(error instanceof ApiError) || error.message === '') throw error;
            specsRefused++;
            continue;
          }
        }
        tracked.push({ workload, name, revision: 1, deleted: false, mayFail: true });
      }
    })();
    const mutating = workloads.map(async (workload, index) => {
      const share =
        Math.floor(options.registrations / SLOTS) + (index < options.registrations % SLOTS ? 1 : 0);
      for (const spec of mutatedRegistrationSpecs(crdName(workload), share, options.seed + index)) {
        const written = await rewrite(cluster, workload.registration, spec);
        if ('refusal' in written) {
          count('refused by the API server, says why');
          continue;
        }
        const judged = await verdict(cluster, workload.registration, written.stored.metadata.generation ?? 0);
        if (!judged) {
          count('no verdict');
          problems.push(`${workload.registration}: no verdict on ${JSON.stringify(spec).slice(0, 300)}`);
          continue;
        }
        const { outcome, problem } = judge(written.stored, judged);
        count(outcome);
        if (problem) problems.push(`${workload.registration}: ${problem}`);
      }
    });
    await Promise.all([creating, ...mutating]);

    for (const workload of workloads) {
      const restored = await rewrite(cluster, workload.registration, baseRegistrationSpec(crdName(workload)));
      if ('refusal' in restored) throw new Error(`restoring ${workload.registration}: ${restored.refusal}`);
    }
    const settled = await settle(cluster.client, workloads, tracked, patienceMs);
    const applied = [...outcomes.values()].reduce((sum, value) => sum + value, 0);
    report.info('mutated registrations applied', applied, '300');
    for (const [outcome, times] of [...outcomes].sort()) report.info(`  ${outcome}`, times);
    report.zero('registrations without the status they deserve', problems.length);
    report.info('instances with fuzzed specs', options.specs, '150');
    report.info('  refused by the API server', specsRefused);
    report.info('  Ready with exactly their children', settled.converged);
    for (const [reason, times] of settled.refused) report.info(`  Ready=False, says why (${reason})`, times);
    reportSettled(report, settled, [], ['half-write']);
    for (const problem of problems.slice(0, 10)) report.note(problem);
  } finally {
    await controller.stop();
    reportControllers(report, [controller], '0');
    await cluster.stop();
  }
};
