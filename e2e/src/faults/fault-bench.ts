/**
 * The work a fault scenario puts Scoby through on the node container, and what it measures. A kind of
 * its own is registered with a finalize hook served by the test process (hookHost()); `live`
 * instances run a pod each, and `held` instances are parked in deletion: deleted while the hook
 * refuses their finalization permanently (hooks-v1.md §6.3). measure() injects a fault, edits the
 * spec of every live instance while it lasts, and reports (fault-report.ts) how long after the
 * fault's end every edit was reflected with the instance Ready, which edits were lost, which
 * instances have two Deployments, and which held instances lost their finalizer without the hook's
 * consent. releaseHeld() gives the consent and sees every held instance go.
 */
import { HookError, startHookServer, type HookServer } from '@scoby/hooks-v1/sdk';
import { ADAPTER_IMAGE } from '../settings.ts';
import type { ClusterHandle } from '../handle.ts';
import { registeredKindYaml } from '../kinds.ts';
import { conditionOf } from '../objects.ts';
import { waitFor } from '../wait.ts';
import {
  childState,
  duplicateChildren,
  EDITED_FIELD,
  formatFaultReport,
  instanceState,
  lostUpdates,
  notConverged,
  SCOBY_FINALIZER,
  unconsentedRemovals,
  type BenchState,
  type Edits,
  type FaultReport,
} from './fault-report.ts';

/** How long after a fault's end the bench waits for every instance to converge. */
export const RECOVERY_LIMIT_MS = 300_000;
const HOLD_MESSAGE = 'finalization held by the fault bench';

export interface FinalizeCall {
  instance: string;
  answer: 'refused' | 'ok';
  at: number;
}

export interface FaultBenchOptions {
  /** A DNS label: the namespace, the kind's group and the registration are named after it. */
  name: string;
  live?: number;
  held?: number;
}

/** The finalize hook's mind: it refuses (permanently) every instance it has not been told to let go. */
class FinalizeGate {
  readonly consented = new Set<string>();
  readonly calls: FinalizeCall[] = [];

  answer(instance: string): void {
    const ok = this.consented.has(instance);
    this.calls.push({ instance, answer: ok ? 'ok' : 'refused', at: Date.now() });
    if (!ok) throw new HookError(HOLD_MESSAGE, { status: 409, permanent: true });
  }
}

/** Runs the fault; calls `duringFault` while it lasts (the spec edits); resolves with the time it ended. */
export type Fault = (duringFault: () => Promise<void>) => Promise<number>;

export class FaultBench {
  readonly namespace: string;
  readonly registration: string;
  readonly apiVersion: string;
  readonly kind = 'Widget';
  readonly live: string[];
  readonly held: string[];
  readonly #cluster: ClusterHandle;
  readonly #hook: HookServer;
  readonly #gate: FinalizeGate;
  #edits: Edits;
  #faults = 0;

  private constructor(
    cluster: ClusterHandle,
    options: Required<FaultBenchOptions>,
    hook: HookServer,
    gate: FinalizeGate,
  ) {
    this.#cluster = cluster;
    this.#hook = hook;
    this.#gate = gate;
    this.namespace = `faults-${options.name}`;
    this.registration = `faults-${options.name}`;
    this.apiVersion = `${options.name}.faults.e2e.scoby.dev/v1`;
    this.live = Array.from({ length: options.live }, (_, index) => `live-${index}`);
    this.held = Array.from({ length: options.held }, (_, index) => `held-${index}`);
    this.#edits = Object.fromEntries(this.live.map((name) => [name, 'initial']));
  }

  /** Registers the kind, creates the instances and parks the held ones in deletion. */
  static async start(
    cluster: ClusterHandle,
    hookHost: string,
    options: FaultBenchOptions,
  ): Promise<FaultBench> {
    const gate = new FinalizeGate();
    const hook = await startHookServer({
      host: hookHost,
      finalize: (request) => gate.answer(String(request.object.metadata.name)),
    });
    const bench = new FaultBench(cluster, { live: 3, held: 2, ...options }, hook, gate);
    try {
      await bench.#setUp(options.name);
    } catch (error) {
      await hook.close();
      throw error;
    }
    return bench;
  }

  async #setUp(name: string): Promise<void> {
    const cluster = this.#cluster;
    const group = `${name}.faults.e2e.scoby.dev`;
    await cluster.apply(registeredKindYaml({ group, kind: this.kind, plural: 'widgets' }, this.namespace));
    await cluster.apply(`
apiVersion: scoby.triggermesh.io/v1alpha1
kind: CRDRegistration
metadata: {name: ${this.registration}}
spec:
  crd: widgets.${group}
  workload:
    fromImage: {repo: ${ADAPTER_IMAGE}}
  hook:
    version: v1
    address: {uri: ${this.#hook.url}}
    timeout: PT5S
    capabilities: [finalize]
`);
    for (const instance of [...this.live, ...this.held]) await this.#write(instance, 'initial');
    await this.#converged(this.#edits, RECOVERY_LIMIT_MS);
    for (const instance of this.held) {
      await cluster.waitForObject(
        this.apiVersion,
        this.kind,
        this.namespace,
        instance,
        'to carry the finalizer',
        (object) => (object.metadata.finalizers ?? []).includes(SCOBY_FINALIZER),
      );
      await cluster.remove({
        apiVersion: this.apiVersion,
        kind: this.kind,
        metadata: { namespace: this.namespace, name: instance },
      });
    }
    for (const instance of this.held)
      await cluster.waitForObject(
        this.apiVersion,
        this.kind,
        this.namespace,
        instance,
        'to be held by its refused finalization',
        (object) =>
          object.metadata.deletionTimestamp !== undefined &&
          conditionOf(object, 'Ready')?.reason === 'HookFailed' &&
          (object.metadata.finalizers ?? []).includes(SCOBY_FINALIZER),
      );
  }

  /** The spec edit, retried while the API server does not answer (a fault may be stopping it). */
  async #write(instance: string, message: string): Promise<void> {
    await waitFor(
      `the edit of ${instance} to be accepted`,
      () =>
        this.#cluster.client.apply({
          apiVersion: this.apiVersion,
          kind: this.kind,
          metadata: { namespace: this.namespace, name: instance },
          spec: { [EDITED_FIELD]: message },
        }),
      { timeoutMs: RECOVERY_LIMIT_MS, intervalMs: 500 },
    );
  }

  async state(): Promise<BenchState> {
    const [instances, deployments] = await Promise.all([
      this.#cluster.list(this.apiVersion, this.kind, this.namespace),
      this.#cluster.list('apps/v1', 'Deployment', this.namespace),
    ]);
    return { instances: instances.map(instanceState), children: deployments.map(childState) };
  }

  /** Resolves with the time every instance of `edits` had converged; rejects after `withinMs`. */
  async #converged(edits: Edits, withinMs: number): Promise<number> {
    let waiting: string[] = [];
    try {
      return await waitFor(
        'every instance to converge',
        async () => {
          waiting = notConverged(await this.state(), edits);
          return waiting.length === 0 ? Date.now() : undefined;
        },
        { timeoutMs: withinMs, intervalMs: 250 },
      );
    } catch (error) {
      throw new Error(`${(error as Error).message}; not converged: ${waiting.join(', ')}`, { cause: error });
    }
  }

  /**
   * Injects `fault` once every instance has converged and the held ones are still held; the edits of
   * `duringFault` give every live instance a new spec.message. Prints the report and resolves with it.
   */
  async measure(fault: string, inject: Fault): Promise<FaultReport> {
    await this.#converged(this.#edits, RECOVERY_LIMIT_MS);
    this.#faults += 1;
    const value = `${fault} #${this.#faults}`;
    const edits: Edits = Object.fromEntries(this.live.map((name) => [name, value]));
    let edited = false;
    const started = Date.now();
    const ended = await inject(async () => {
      await Promise.all(this.live.map((instance) => this.#write(instance, value)));
      edited = true;
    });
    if (!edited) throw new Error(`the fault "${fault}" made no edit while it lasted`);
    this.#edits = edits;
    const convergedAt = await this.#converged(edits, RECOVERY_LIMIT_MS).catch((error: Error) => {
      console.log(`[e2e] fault "${fault}": ${error.message}`);
      return undefined;
    });
    const state = await this.state();
    const report: FaultReport = {
      fault,
      faultSeconds: (ended - started) / 1000,
      recoverySeconds: convergedAt === undefined ? undefined : Math.max(0, convergedAt - ended) / 1000,
      lost: lostUpdates(state, edits),
      duplicates: duplicateChildren(state),
      unconsented: unconsentedRemovals(state, this.held, this.#gate.consented),
    };
    console.log(`[e2e] ${formatFaultReport(report)}`);
    return report;
  }

  /** Finalize calls answered since `since` for the held instances. */
  callsSince(since: number): FinalizeCall[] {
    return this.#gate.calls.filter((call) => call.at >= since);
  }

  /**
   * The hook consents, and each held instance is touched (a label or annotation edit triggers a new
   * attempt of a parked instance, hooks-v1.md §7.1); resolves once every held instance is gone, with
   * those that went wrongly: before the consent, or without the hook answering their finalization
   * with its consent (none, when all is well).
   */
  async releaseHeld(): Promise<string[]> {
    const early = unconsentedRemovals(await this.state(), this.held, this.#gate.consented);
    for (const instance of this.held) this.#gate.consented.add(instance);
    const stamp = String(Date.now());
    for (const instance of this.held) {
      const object = await this.#cluster.get(this.apiVersion, this.kind, this.namespace, instance);
      if (object === undefined) continue;
      await this.#cluster.client.jsonPatch(object, [
        {
          op: 'add',
          path: '/metadata/annotations',
          value: { ...object.metadata.annotations, 'faults.e2e.scoby.dev/consented': stamp },
        },
      ]);
    }
    for (const instance of this.held)
      await this.#cluster.waitForGone(this.apiVersion, this.kind, this.namespace, instance);
    const agreed = new Set(
      this.#gate.calls.filter((call) => call.answer === 'ok').map((call) => call.instance),
    );
    return [
      ...early.map((instance) => `${instance}: gone before the hook consented`),
      ...this.held
        .filter((instance) => !early.includes(instance) && !agreed.has(instance))
        .map((instance) => `${instance}: gone without a finalize call the hook agreed to`),
    ];
  }

  close(): Promise<void> {
    return this.#hook.close();
  }
}
