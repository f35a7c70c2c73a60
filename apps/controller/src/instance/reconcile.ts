/**
 * One instance reconcile, docs/spec/children-and-status.md §1 steps 1–12. Level-based and idempotent: it reads
 * the instance from the cache, computes what should be, writes only differences, and tells the queue
 * when to come back. What should be is the instance's plan (plan/), the same `scoby render` runs;
 * this is its shell: the reads and writes, the hook call, and the decisions carried out.
 */
import type { RenderLookups } from '@scoby/env';
import type { HookCall, HookClient, HookFailureOutcome, HookResult } from '@scoby/hooks-v1/client';
import { labelValue } from '@scoby/formfactor';
import type { KubeObject } from '@scoby/kube-objects';
import { FINALIZER } from '@scoby/registration';
import type { Logger } from 'pino';
import {
  type DynamicClient,
  hasFinalizer,
  isAbortError,
  loadRefusal,
  type ObjectKey,
  type ReconcileResult,
} from '@scoby/controller-runtime';
import { formatTime } from '../status/conditions.ts';
import { takeOverLegacyFields } from '../field-manager/take-over.ts';
import { POD_READ_INTERVAL_MS } from './status/unavailable-pods.ts';
import { writeChildren, type ChildStore } from './children/write-children.ts';
import { parkingFingerprint } from './parking.ts';
import { OwnWrites } from './own-writes.ts';
import type { InstanceConfig } from './instance-config.ts';
import { declaredPhases } from './declared-phases.ts';
import { askHook, deletionGateCalls, hookDestination, type HookDestination } from './hook-request.ts';
import { InstanceEvents, type EventSink } from './instance-events.ts';
import { InstanceMemory } from './instance-memory.ts';
import { InstanceWrites } from './instance-writes.ts';
import { FailureRecording } from './failure-recording.ts';
import { releaseFinalizer, type FinalizerRelease } from './release-finalizer.ts';
import { startRun, type InstanceReconcileContext, type Run } from './reconcile-run.ts';
import { instanceTargetOf, wantsFinalizer, type InstanceTarget } from './plan/instance-target.ts';
import { planBeforeHook } from './plan/before-hook.ts';
import { planAfterHook, type IgnoredHookFailure } from './plan/after-hook.ts';
import { planFinalizeAnswer } from './plan/finalize-answer.ts';

export interface ReconcileDependencies {
  client: DynamicClient;
  lookups: RenderLookups;
  hooks: HookClient;
  events: EventSink;
  /** Where the children created, updated and pruned are logged (info). */
  logger?: Logger;
  /** Hook calls per registration, for the hook metrics. */
  recordHookCall?(
    registration: string,
    phase: string,
    durationMs: number,
    outcome: 'success' | HookFailureOutcome,
  ): void;
  /** A pre-reconcile failure the reconcile went on without (failurePolicy Ignore). */
  recordHookFailureIgnored?(registration: string): void;
  formFactorFormat?: 'string' | 'object';
  clusterDomain: string;
  now(): Date;
}

const MANAGED_BY = 'app.kubernetes.io/managed-by';
const INSTANCE_LABEL = 'app.kubernetes.io/instance';

/**
 * The reconciler of one registration's instances, over that registration's configuration and its
 * view of the child kinds (`store`, the informer caches). What it remembers per instance is in its
 * InstanceMemory, whose keys name an instance only within one registration: every registration's
 * controller has a reconciler of its own.
 */
export class InstanceReconciler {
  readonly #deps: ReconcileDependencies;
  readonly #store: ChildStore;
  #config: InstanceConfig;
  #target: InstanceTarget;
  readonly #memory: InstanceMemory;
  /** What this reconciler wrote last: the watch events of those writes need no reconcile. */
  readonly ownWrites = new OwnWrites();
  readonly #events: InstanceEvents;
  readonly #writes: InstanceWrites;
  readonly #failures: FailureRecording;

  constructor(deps: ReconcileDependencies, config: InstanceConfig, store: ChildStore) {
    this.#deps = deps;
    this.#store = store;
    this.#config = config;
    this.#target = instanceTargetOf(config, deps.clusterDomain);
    this.#memory = new InstanceMemory(deps.client, () => deps.now().getTime(), deps.logger);
    this.#events = new InstanceEvents(deps.events, this.#memory.warned, deps.logger);
    this.#writes = new InstanceWrites(deps.client, this.#memory, this.ownWrites);
    this.#failures = new FailureRecording(this.#events, this.#writes, this.#memory, deps.now);
  }

  get config(): InstanceConfig {
    return this.#config;
  }

  /** A new effective configuration, for the reconciles that start from now on (docs/spec/registration.md §6.2). */
  reconfigure(config: InstanceConfig): void {
    this.#config = config;
    this.#target = instanceTargetOf(config, this.#deps.clusterDomain);
  }

  /**
   * `cached` is the instance as the informer has it, undefined once it is gone. Once the context's
   * signal fires (its deadline, or its controller stopping) no write is sent and the reconcile ends
   * with the AbortError, recording nothing. Hook calls wait outside the process-wide slots
   * (docs/spec/children-and-status.md §9.1).
   */
  async reconcile(
    key: ObjectKey,
    cached: KubeObject | undefined,
    context: InstanceReconcileContext,
  ): Promise<ReconcileResult> {
    if (!cached) {
      this.#memory.forget(key);
      return undefined;
    }
    const run = startRun(key, context, this.#config, this.#target);
    const memory = this.#memory;
    const skipped = (why: string) =>
      this.#deps.logger?.debug(
        { instance: run.name, resourceVersion: cached.metadata.resourceVersion },
        `reconcile skipped: ${why}`,
      );
    // The watch event of our last write brings the newer object and another reconcile: no longer
    // an echo to skip, since this trigger was not handled.
    if (memory.superseded.isStale(run.slot, cached.metadata.resourceVersion)) {
      this.ownWrites.forget(cached);
      skipped("the cache holds a version this reconciler's write replaced");
      return undefined;
    }
    // Parked: the reconcile that parked it ended terminal; this trigger changed nothing that counts.
    if (memory.parking.isParked(run.slot, () => parkingFingerprint(cached, run.config.revision))) {
      skipped('parked');
      return undefined;
    }
    const waitMs = memory.retryAfter.remainingMs(run.slot, run.config.revision, this.#deps.now().getTime());
    if (waitMs > 0) {
      skipped(`held ${waitMs} ms more by a Retry-After`);
      return { requeueAfterMs: waitMs };
    }
    try {
      return cached.metadata.deletionTimestamp
        ? await this.#finalize(run, cached)
        : await this.#reconcileLive(run, cached);
    } catch (error) {
      if (isAbortError(error)) throw error;
      if (loadRefusal(error)) return this.#failures.refusedForLoad(run, error);
      return this.#failures.unexpected(run, cached, error);
    }
  }

  /** Steps 4–12 for an instance that is not being deleted. */
  async #reconcileLive(run: Run, cached: KubeObject): Promise<ReconcileResult> {
    const deps = this.#deps;
    const instance = await this.#withFinalizerSettled(run, await this.#takeOver(run, cached));
    if (instance === undefined) return undefined;

    const before = await planBeforeHook(run.target, instance, formatTime(deps.now()), deps.lookups);
    this.#events.warn(run, instance, before.warnings);
    if (before.kind === 'stop') return this.#failures.stop(run, instance, before.stop);
    const destination = this.#destination(run);
    const answers = destination
      ? await askHook(destination, before.hookRequests, (call) => this.#callHook(run, call))
      : [];
    const after = planAfterHook(before.prepared, answers);
    if (after.kind === 'stop') return this.#failures.stop(run, instance, after.stop);
    if (after.hookFailureIgnored) deps.recordHookFailureIgnored?.(run.config.registrationName);
    this.#events.warn(run, instance, after.warnings);

    const { desired } = after;
    const { identity } = desired;
    const outcome = await writeChildren(
      deps.client,
      this.#store,
      desired.children,
      identity,
      { [MANAGED_BY]: 'scoby-controller', [INSTANCE_LABEL]: labelValue(identity.name) },
      { signal: run.signal },
    );
    for (const child of outcome.written) this.ownWrites.wrote(child);
    this.#events.announce(run, instance, outcome.changes);
    if (outcome.errors.length > 0)
      return this.#failures.stop(run, instance, desired.applyFailed(outcome.errors));

    // §8.3: why a Deployment is not available, from its Pods; looked at again while it is not.
    const read = this.#memory.pods.read(run.key, outcome.observed, run.signal);
    const pods = read instanceof Promise ? await read : read;
    const status = desired.statusFor(outcome.observed, formatTime(deps.now()), pods.pods);
    await this.#writes.writeStatus(run, instance, status);
    const next: ReconcileResult = pods.unavailable ? { requeueAfterMs: POD_READ_INTERVAL_MS } : undefined;
    return this.#nextHookCall(run, after.hookFailureIgnored, next);
  }

  /** Fields written as `unknown` by earlier versions, handed to this controller (docs/spec/registration.md §5.4). */
  async #takeOver(run: Run, cached: KubeObject): Promise<KubeObject> {
    // The hand-over is a JSON patch: skipped where the role grants no patch (docs/spec/registration.md §7).
    if (run.config.writeVerbs.finalizers !== 'patch') return cached;
    const deps = this.#deps;
    const takenOver = await takeOverLegacyFields(deps.client, run.config.instanceResource, cached, {
      signal: run.signal,
      ...(deps.logger === undefined ? {} : { logger: deps.logger }),
    });
    if (takenOver === undefined) return cached;
    this.#memory.superseded.wrote(
      run.slot,
      cached.metadata.resourceVersion,
      takenOver.metadata.resourceVersion,
    );
    this.ownWrites.wrote(takenOver);
    return takenOver;
  }

  /** Step 4: the finalizer added while the hook finalizes, else released; undefined when the instance is gone. */
  async #withFinalizerSettled(run: Run, instance: KubeObject): Promise<KubeObject | undefined> {
    const wanted = wantsFinalizer(run.target);
    if (hasFinalizer(instance, FINALIZER) === wanted) return instance;
    if (wanted) return this.#writes.setFinalizer(run, instance, true);
    return releaseFinalizer(instance, this.#release(run));
  }

  /**
   * After a pre-reconcile failure the reconcile went on without, the hook is called again (so that
   * HookSucceeded clears once it answers): after its Retry-After, else with backoff; not after a
   * `permanent` answer, which waits for the next trigger. A requeue, not an error: the reconcile did
   * its work (docs/spec/hooks-v1.md §6.6).
   */
  #nextHookCall(run: Run, ignored: IgnoredHookFailure | undefined, next: ReconcileResult): ReconcileResult {
    const backoff = this.#memory.ignoredHookBackoff;
    if (ignored === undefined) {
      backoff.reset(run.slot);
      return next;
    }
    const backoffMs = backoff.next(run.slot);
    if (ignored.recall.kind === 'next-trigger') return next;
    const delayMs = ignored.recall.kind === 'after' ? ignored.recall.delayMs : backoffMs;
    const requeueMs = next && 'requeueAfterMs' in next ? next.requeueAfterMs : undefined;
    return { requeueAfterMs: requeueMs === undefined ? delayMs : Math.min(requeueMs, delayMs) };
  }

  /** docs/spec/hooks-v1.md §7. */
  async #finalize(run: Run, instance: KubeObject): Promise<ReconcileResult> {
    if (!hasFinalizer(instance, FINALIZER)) return undefined;
    const destination = this.#destination(run);
    if (!destination || !wantsFinalizer(run.target)) {
      await releaseFinalizer(instance, this.#release(run));
      return undefined;
    }
    // Every deletion gate the hook declares, in the table's order, lets the instance go, or it stays.
    for (const call of deletionGateCalls(destination, instance, declaredPhases(run.target.spec.hook))) {
      const answer = await this.#callHook(run, call);
      const planned = planFinalizeAnswer(run.target, instance, answer, formatTime(this.#deps.now()));
      if (planned.kind === 'stop') return this.#failures.stop(run, instance, planned.stop);
      this.#events.warn(run, instance, planned.warnings);
    }
    await this.#writes.setFinalizer(run, instance, false);
    return undefined;
  }

  /** Where the registration's hook is called; absent without a hook. */
  #destination(run: Run): HookDestination | undefined {
    return run.config.hook && hookDestination(run.config.plugin, run.config.hook);
  }

  /** The finalizer released as this reconcile would: its hook call counted, its writes tracked. */
  #release(run: Run): FinalizerRelease {
    return {
      destination: this.#destination(run),
      callHook: (call) => this.#callHook(run, call),
      removeFinalizer: (instance) => this.#writes.setFinalizer(run, instance, false),
      events: {
        emit: (object, type, reason, message) => this.#events.emit(run, object, type, reason, message),
      },
    };
  }

  async #callHook(run: Run, call: HookCall): Promise<HookResult> {
    const started = performance.now();
    const result = await run.waitOutside(() => this.#deps.hooks.call(call));
    this.#deps.recordHookCall?.(
      run.config.registrationName,
      call.phase,
      performance.now() - started,
      result.ok ? 'success' : result.outcome,
    );
    return result;
  }
}
