/**
 * One instance reconcile, docs/spec/children-and-status.md §1 steps 1–12. Level-based and idempotent: it reads
 * the instance from the cache, computes what should be, writes only differences, and tells the queue
 * when to come back.
 */
import type { RenderLookups } from '@scoby/env';
import type { HookCall, HookClient, HookFailure, HookResult } from '@scoby/hooks-v1/client';
import { labelValue } from '@scoby/formfactor';
import type { KubeObject } from '@scoby/kube-objects';
import { FINALIZER } from '@scoby/registration';
import type { Logger } from 'pino';
import { formatTime } from '../status/conditions.ts';
import { takeOverLegacyFields } from '../field-manager/take-over.ts';
import { POD_READ_INTERVAL_MS, UnavailablePodReader } from './status/unavailable-pods.ts';
import { startWorkingStatus, type FailureReason, type Status } from './status/instance-status.ts';
import { failureStatus } from './status/failure-status.ts';
import { statusPathAllowed } from '../crd/status-paths.ts';
import {
  DEFAULT_BACKOFF,
  type DynamicClient,
  errorMessage,
  KeyedBackoff,
  hasFinalizer,
  isAbortError,
  isNotFound,
  loadRefusal,
  type ReconcileResult,
  serverRetryAfterMs,
  setFinalizer,
  SupersededVersions,
  writeStatus,
} from '@scoby/controller-runtime';
import { renderInstance } from './render-instance.ts';
import { writeChildren, type ChildChange, type ChildStore } from './children/write-children.ts';
import { parkingFingerprint, ParkingLot } from './parking.ts';
import { OwnWrites } from './own-writes.ts';
import { RetryAfterGate } from './retry-after-gate.ts';
import type { InstanceConfig } from './instance-config.ts';
import { acceptHookAnswer, hookCall, hookObject } from './hook-request.ts';
import { desiredState, failedStatus, type DesiredStateTarget } from './desired-state.ts';
import { HOOK_FAILED_IGNORED, ignoresHookFailure } from './hook-failure-policy.ts';

export interface EventSink {
  emit(object: KubeObject, type: 'Normal' | 'Warning', reason: string, message: string): void;
}

export interface ReconcileDependencies {
  client: DynamicClient;
  lookups: RenderLookups;
  hooks: HookClient;
  events: EventSink;
  /** Where the children created, updated and pruned are logged (info). */
  logger?: Logger;
  /** Hook calls per registration, for the hook metrics. */
  recordHookCall?(registration: string, durationMs: number, outcome: 'success' | 'failure'): void;
  /** A pre-reconcile failure the reconcile went on without (failurePolicy Ignore). */
  recordHookFailureIgnored?(registration: string): void;
  formFactorFormat?: 'string' | 'object';
  clusterDomain: string;
  now(): Date;
}

/** Why a reconcile failed, as its status and Events say. */
export interface ReconcileFailure {
  reason: FailureReason;
  message: string;
  /** The status write that failed too: the failure could not be recorded in the instance's status. */
  statusWriteError?: string;
}

/**
 * The error of a failed instance reconcile, as the runtime's result carries it: `{ error }` to retry
 * (after the hook's Retry-After when it gave one), `{ terminal }` when a permanent hook error parked
 * the instance until its spec or the registration changes (docs/spec/hooks-v1.md §6.3).
 */
export class InstanceReconcileError extends Error {
  readonly failure: ReconcileFailure;

  constructor(failure: ReconcileFailure) {
    super(failure.message);
    this.name = 'InstanceReconcileError';
    this.failure = failure;
  }
}

function retry(failure: ReconcileFailure, retryAfterMs?: number): ReconcileResult {
  const error = new InstanceReconcileError(failure);
  return retryAfterMs === undefined ? { error } : { error, retryAfterMs };
}

/** One reconcile's own: its key and its cancellation (no write is sent once the signal fired). */
interface Run {
  key: string;
  signal: AbortSignal | undefined;
  waitOutside: WaitOutside | undefined;
}

/** Runs a wait on a hook without holding a process-wide reconcile slot (ReconcileContext.withoutSharedSlot). */
export type WaitOutside = <T>(wait: () => Promise<T>) => Promise<T>;

type Failure = Pick<ReconcileFailure, 'reason' | 'message'>;

/** A status patch the API server refused; `failure` is the failure that status was to record. */
class StatusWriteError extends Error {
  readonly failure: Failure | undefined;

  constructor(cause: unknown, failure: Failure | undefined) {
    super(errorMessage(cause), { cause });
    this.failure = failure;
  }
}

/** The registration as desiredState needs it. */
function desiredStateTarget(config: InstanceConfig, deps: ReconcileDependencies): DesiredStateTarget {
  return {
    registrationName: config.registrationName,
    plugin: config.plugin,
    formFactorBlock: config.spec.formFactor.config,
    instanceApiVersion: `${config.crd.group}/${config.crd.version}`,
    conditionTypes: config.conditionTypes,
    features: config.crd.status,
    clusterDomain: deps.clusterDomain,
  };
}

const CHANGE_REASONS = { created: 'Created', updated: 'Updated', pruned: 'Pruned' } as const;

const MANAGED_BY = 'app.kubernetes.io/managed-by';
const INSTANCE_LABEL = 'app.kubernetes.io/instance';

/**
 * The reconciler of one registration's instances. What it remembers per instance (parking, a hook's
 * Retry-After, superseded versions, warnings, own writes) is keyed by namespace/name, which names an
 * instance only within one registration: every registration's controller has a reconciler of its own.
 */
export class InstanceReconciler {
  readonly #deps: ReconcileDependencies;
  /** Instances left alone after a permanent hook error (docs/spec/hooks-v1.md §6.3). */
  readonly #parking = new ParkingLot();
  /** Last warnings emitted per instance and reason: a steady state repeats none (no Event writes). */
  readonly #warned = new Map<string, string>();
  readonly #retryAfter = new RetryAfterGate();
  /** Versions replaced by this reconciler's writes: a cache still showing one is stale. */
  readonly #superseded = new SupersededVersions();
  /** What this reconciler wrote last: the watch events of those writes need no reconcile. */
  readonly ownWrites = new OwnWrites();
  /** Consecutive ignored pre-reconcile failures per instance: the hook is called again with backoff. */
  readonly #ignoredHookBackoff = new KeyedBackoff(DEFAULT_BACKOFF);

  readonly #pods: UnavailablePodReader;

  constructor(deps: ReconcileDependencies) {
    this.#deps = deps;
    this.#pods = new UnavailablePodReader(deps.client, () => deps.now().getTime(), deps.logger);
  }

  /**
   * `children` is the registration's view of its managed child kinds (informer caches); `signal`
   * the reconcile's (its deadline, or its controller stopping): once it fires no write is sent and
   * the reconcile ends with the AbortError, recording nothing. `waitOutside` runs its hook calls
   * (docs/spec/children-and-status.md §9.1).
   */
  async reconcile(
    config: InstanceConfig,
    children: ChildStore,
    cached: KubeObject | undefined,
    key: string,
    signal?: AbortSignal,
    waitOutside?: WaitOutside,
  ): Promise<ReconcileResult> {
    const deps = this.#deps;
    const run: Run = { key, signal, waitOutside };
    if (!cached) {
      this.#parking.release(key);
      this.#retryAfter.release(key);
      this.#superseded.forget(key);
      this.#pods.forget(key);
      this.#ignoredHookBackoff.reset(key);
      for (const slot of this.#warned.keys()) if (slot.startsWith(`${key}\u0000`)) this.#warned.delete(slot);
      return undefined;
    }
    // The watch event of our last write brings the newer object and another reconcile: no longer
    // an echo to skip, since this trigger was not handled.
    if (this.#superseded.isStale(key, cached.metadata.resourceVersion)) {
      this.ownWrites.forget(cached);
      return undefined;
    }
    // Parked: the reconcile that parked it ended terminal; this trigger changed nothing that counts.
    if (this.#parking.isParked(key, () => parkingFingerprint(cached, config.revision))) return undefined;
    const waitMs = this.#retryAfter.remainingMs(key, config.revision, deps.now().getTime());
    if (waitMs > 0) return { requeueAfterMs: waitMs };
    try {
      return cached.metadata.deletionTimestamp
        ? await this.#finalize(config, cached, run)
        : await this.#reconcileLive(config, children, cached, run);
    } catch (error) {
      if (isAbortError(error)) throw error;
      if (loadRefusal(error)) return this.#refusedForLoad(config, key, error);
      return this.#recordUnexpected(config, cached, error, run);
    }
  }

  /** Steps 4–12 for an instance that is not being deleted. */
  async #reconcileLive(
    config: InstanceConfig,
    children: ChildStore,
    cached: KubeObject,
    run: Run,
  ): Promise<ReconcileResult> {
    const deps = this.#deps;
    let instance = cached;
    // The hand-over is a JSON patch: skipped where the role grants no patch (docs/spec/registration.md §7).
    const takenOver =
      config.writeVerbs.finalizers !== 'patch'
        ? undefined
        : await takeOverLegacyFields(deps.client, config.instanceResource, instance, {
            ...(run.signal === undefined ? {} : { signal: run.signal }),
            ...(deps.logger === undefined ? {} : { logger: deps.logger }),
          });
    if (takenOver !== undefined) {
      this.#superseded.wrote(run.key, instance.metadata.resourceVersion, takenOver.metadata.resourceVersion);
      this.ownWrites.wrote(takenOver);
      instance = takenOver;
    }
    const wantsFinalizer = config.hook?.finalize === true;
    if (hasFinalizer(instance, FINALIZER) !== wantsFinalizer) {
      const updated = await this.#setFinalizer(config, instance, run, wantsFinalizer);
      if (!updated) return undefined;
      if (!wantsFinalizer)
        this.#emit(run, instance, 'Normal', 'FinalizerReleased', `removed finalizer ${FINALIZER}`);
      instance = updated;
    }

    const now = formatTime(deps.now());
    let working = startWorkingStatus(instance.status, config.conditionTypes, now);
    const rendered = await renderInstance(
      instance,
      working,
      {
        registrationName: config.registrationName,
        spec: config.spec,
        plugin: config.plugin,
        instanceApiVersion: `${config.crd.group}/${config.crd.version}`,
        statusPathAllowed: (segments) => statusPathAllowed(config.crd.status.schema, segments),
      },
      deps.lookups,
    );
    this.#warnOnChange(run, 'EnvNameCollision', instance, rendered.warnings);
    if (!rendered.ok) {
      const failure: Failure = { reason: 'RenderFailed', message: rendered.errors.join('; ') };
      await this.#recordFailure(config, instance, working, failure, run);
      // Rendering the same spec with the same registration fails the same way: retrying is load.
      if (rendered.needsSpecChange) return this.#park(config, instance, failure, run);
      return retry(failure);
    }
    working = rendered.status;
    let desired = rendered.children;

    let ignored: HookFailure | undefined;
    if (config.hook?.preReconcile) {
      const answer = await this.#callHook(
        config,
        hookCall(config.plugin, config.hook, 'pre-reconcile', hookObject(instance, working), desired),
        run,
      );
      if (answer.ok) {
        const accepted = acceptHookAnswer(answer, working, desired, config, now);
        if (!accepted.ok) {
          // An answer Scoby cannot take counts as a malformed answer: transient (docs/spec/hooks-v1.md §6.4).
          const failure: Failure = { reason: 'HookFailed', message: accepted.message };
          await this.#recordFailure(config, instance, working, failure, run);
          return retry(failure);
        }
        const ignored = accepted.ignoredChanges;
        this.#warnOnChange(run, 'HookObjectChangesIgnored', instance, ignored === undefined ? [] : [ignored]);
        const repeated = accepted.repeatedConditions;
        if (
          this.#warnOnChange(run, 'HookConditionRepeated', instance, repeated === undefined ? [] : [repeated])
        )
          this.#deps.logger?.warn({ instance: run.key, kind: instance.kind }, repeated);
        working = accepted.status;
        desired = accepted.children;
      } else if (ignoresHookFailure(config.spec.hook?.failurePolicy, 'pre-reconcile', answer)) {
        ignored = answer;
        deps.recordHookFailureIgnored?.(config.registrationName);
      } else {
        this.#emit(run, instance, 'Warning', 'HookFailed', answer.message);
        if (!answer.continue) return this.#stopOnHookFailure(config, instance, working, answer, run);
      }
      const ignoredMessages = ignored === undefined ? [] : [ignored.message];
      if (this.#warnOnChange(run, HOOK_FAILED_IGNORED, instance, ignoredMessages))
        deps.logger?.warn(
          { instance: run.key, kind: instance.kind, reason: HOOK_FAILED_IGNORED },
          ignored?.message ?? '',
        );
    }

    const state = desiredState({
      instance,
      target: desiredStateTarget(config, deps),
      working,
      children: desired,
      ...(ignored === undefined ? {} : { hookFailureIgnored: ignored.message }),
    });
    const { identity } = state;
    const outcome = await writeChildren(
      deps.client,
      children,
      state.children,
      { kind: instance.kind, name: identity.name, uid: identity.uid, namespace: identity.namespace },
      { [MANAGED_BY]: 'scoby-controller', [INSTANCE_LABEL]: labelValue(identity.name) },
      signalOf(run),
    );
    for (const child of outcome.written) this.ownWrites.wrote(child);
    this.#announce(run, instance, outcome.changes);
    if (outcome.errors.length > 0) {
      const failure: Failure = { reason: 'ApplyFailed', message: outcome.errors.join('; ') };
      await this.#recordFailure(config, instance, working, failure, run);
      return retry(failure);
    }

    // §8.3: why a Deployment is not available, from its Pods; looked at again while it is not.
    const read = this.#pods.read(run.key, outcome.observed, run.signal);
    const pods = read instanceof Promise ? await read : read;
    await this.#writeStatus(
      config,
      instance,
      state.statusFor(outcome.observed, formatTime(deps.now()), pods.pods),
      run,
    );
    const next: ReconcileResult = pods.unavailable ? { requeueAfterMs: POD_READ_INTERVAL_MS } : undefined;
    return this.#nextHookCall(run.key, ignored, next);
  }

  /**
   * After a pre-reconcile failure the reconcile went on without, the hook is called again (so that
   * HookSucceeded clears once it answers): after its Retry-After, else with backoff; not after a
   * `permanent` answer, which waits for the next trigger. A requeue, not an error: the reconcile did
   * its work (docs/spec/hooks-v1.md §6.6).
   */
  #nextHookCall(key: string, ignored: HookFailure | undefined, next: ReconcileResult): ReconcileResult {
    if (ignored === undefined) {
      this.#ignoredHookBackoff.reset(key);
      return next;
    }
    const backoffMs = this.#ignoredHookBackoff.next(key);
    if (ignored.permanent) return next;
    const delayMs = ignored.retryAfterMs ?? backoffMs;
    const requeueMs = next && 'requeueAfterMs' in next ? next.requeueAfterMs : undefined;
    return { requeueAfterMs: requeueMs === undefined ? delayMs : Math.min(requeueMs, delayMs) };
  }

  /** docs/spec/hooks-v1.md §7. */
  async #finalize(config: InstanceConfig, instance: KubeObject, run: Run): Promise<ReconcileResult> {
    const deps = this.#deps;
    if (!hasFinalizer(instance, FINALIZER)) return undefined;
    const hook = config.hook;
    if (hook?.finalize) {
      const answer = await this.#callHook(
        config,
        hookCall(config.plugin, hook, 'finalize', hookObject(instance)),
        run,
      );
      if (!answer.ok) {
        this.#emit(run, instance, 'Warning', 'HookFailed', answer.message);
        if (!answer.continue) {
          const working = startWorkingStatus(instance.status, config.conditionTypes, formatTime(deps.now()));
          return this.#stopOnHookFailure(config, instance, working, answer, run);
        }
      }
      await this.#setFinalizer(config, instance, run, false);
      return undefined;
    }
    if (hook) {
      await this.#callHook(config, hookCall(config.plugin, hook, 'finalize', hookObject(instance)), run);
    }
    await this.#setFinalizer(config, instance, run, false);
    this.#emit(run, instance, 'Normal', 'FinalizerReleased', `removed finalizer ${FINALIZER}`);
    return undefined;
  }

  /**
   * setFinalizer, failing with a message that says what was attempted. The version it replaced is
   * superseded: a reconcile of that cached copy would call the finalize hook a second time for an
   * instance whose finalizer is already gone (a child event can requeue the key before the watch
   * brings the removal).
   */
  async #setFinalizer(
    config: InstanceConfig,
    instance: KubeObject,
    run: Run,
    present: boolean,
  ): Promise<KubeObject | undefined> {
    const reread: KubeObject[] = [];
    try {
      const updated = await setFinalizer(
        this.#deps.client,
        config.instanceResource,
        instance,
        FINALIZER,
        present,
        {
          ...signalOf(run),
          verb: config.writeVerbs.finalizers ?? 'patch',
          onReread: (object) => reread.push(object),
        },
      );
      const replaced = [instance, ...reread].map((object) => object.metadata.resourceVersion);
      // Gone, or its last finalizer removed after deletion (it went with it, and kube-apiserver may
      // answer with the version it read, which the cache can still deliver).
      const gone =
        updated === undefined ||
        (updated.metadata.deletionTimestamp !== undefined &&
          (updated.metadata.finalizers ?? []).length === 0);
      for (const version of replaced) {
        if (gone) this.#superseded.wroteGone(run.key, version);
        else this.#superseded.wrote(run.key, version, updated.metadata.resourceVersion);
      }
      if (updated !== undefined) this.ownWrites.wrote(updated);
      return updated;
    } catch (error) {
      if (isAbortError(error) || loadRefusal(error)) throw error;
      const action = present ? 'adding' : 'removing';
      throw new Error(`${action} finalizer ${FINALIZER} failed: ${errorMessage(error)}`, { cause: error });
    }
  }

  /** An Event is an API write too: none is sent once the reconcile's signal fired. */
  #emit(run: Run, object: KubeObject, type: 'Normal' | 'Warning', reason: string, message: string): void {
    if (run.signal?.aborted) return;
    this.#deps.events.emit(object, type, reason, message);
  }

  /**
   * An info line per child created, updated or pruned, and one Normal Event per action naming every
   * child it touched (`created Deployment shop/mailer-orders, Service shop/mailer-orders`): an Event
   * is an API write, and one per child doubled the writes of a new instance.
   */
  #announce(run: Run, instance: KubeObject, changes: readonly ChildChange[]): void {
    const subject = `${instance.metadata.namespace ?? ''}/${instance.metadata.name ?? ''}`;
    const byAction = new Map<ChildChange['action'], string[]>();
    for (const { action, child } of changes) {
      this.#deps.logger?.info({ instance: subject, kind: instance.kind, child }, `child ${action}`);
      const children = byAction.get(action);
      if (children) children.push(child);
      else byAction.set(action, [child]);
    }
    for (const [action, children] of byAction) {
      this.#emit(run, instance, 'Normal', CHANGE_REASONS[action], `${action} ${children.join(', ')}`);
    }
  }

  /** Warning Events for messages that changed since the last reconcile of the instance; true when any was sent. */
  #warnOnChange(run: Run, reason: string, instance: KubeObject, messages: readonly string[]): boolean {
    const slot = `${run.key}\u0000${reason}`;
    const fingerprint = messages.join('\n');
    if ((this.#warned.get(slot) ?? '') === fingerprint) return false;
    if (fingerprint === '') this.#warned.delete(slot);
    else this.#warned.set(slot, fingerprint);
    for (const message of messages) this.#emit(run, instance, 'Warning', reason, message);
    return messages.length > 0;
  }

  async #callHook(config: InstanceConfig, call: HookCall, run: Run): Promise<HookResult> {
    const started = performance.now();
    const calling = () => this.#deps.hooks.call(call);
    const result = await (run.waitOutside ? run.waitOutside(calling) : calling());
    this.#deps.recordHookCall?.(
      config.registrationName,
      performance.now() - started,
      result.ok ? 'success' : 'failure',
    );
    return result;
  }

  /**
   * A hook failure that stops the reconcile (docs/spec/hooks-v1.md §6): Ready=False with it in the
   * status, then parked (terminal), held until its Retry-After, or retried with backoff.
   */
  async #stopOnHookFailure(
    config: InstanceConfig,
    instance: KubeObject,
    working: Status,
    answer: HookFailure,
    run: Run,
  ): Promise<ReconcileResult> {
    const failure: Failure = { reason: 'HookFailed', message: answer.message };
    await this.#writeFailedStatus(config, instance, working, failure, run);
    if (answer.permanent) return this.#park(config, instance, failure, run);
    if (answer.retryAfterMs === undefined) return retry(failure);
    this.#retryAfter.hold(run.key, config.revision, this.#deps.now().getTime() + answer.retryAfterMs);
    return retry(failure, answer.retryAfterMs);
  }

  /**
   * A request refused for load (docs/spec/children-and-status.md §1 step 12): recording it would
   * send the overloaded server a status write and an Event, so nothing is. The instance waits for
   * the server's Retry-After, also when events of its children or of itself come meanwhile.
   */
  #refusedForLoad(config: InstanceConfig, key: string, error: unknown): ReconcileResult {
    const retryAfterMs = serverRetryAfterMs(error);
    if (retryAfterMs === undefined) return { error };
    this.#retryAfter.hold(key, config.revision, this.#deps.now().getTime() + retryAfterMs);
    return { error, retryAfterMs };
  }

  /**
   * Parks the instance (docs/spec/hooks-v1.md §6.3): a failure only a change of its spec, labels,
   * annotations or the registration can fix ends the reconcile terminal, and triggers that change
   * none of those do nothing until then.
   */
  #park(config: InstanceConfig, instance: KubeObject, failure: Failure, run: Run): ReconcileResult {
    this.#parking.park(run.key, parkingFingerprint(instance, config.revision));
    return { terminal: new InstanceReconcileError(failure) };
  }

  /**
   * Steps 10–11: write the desired status when it changed (`partial`: only the fields given, the
   * others as stored). Every status write of the instance reconcile goes through here.
   */
  async #writeStatus(
    config: InstanceConfig,
    instance: KubeObject,
    desired: Status | null,
    run: Run,
    options: { failure?: Failure; partial?: boolean } = {},
  ): Promise<void> {
    if (desired === null) return;
    const reread: KubeObject[] = [];
    try {
      const written = await writeStatus(this.#deps.client, config.instanceResource, instance, desired, {
        ...signalOf(run),
        ...(options.partial ? { partial: true } : {}),
        verb: config.writeVerbs.status ?? 'patch',
        onReread: (object) => reread.push(object),
      });
      if (written !== undefined) for (const read of [instance, ...reread]) this.#wroteStatus(read, written);
    } catch (error) {
      if (isNotFound(error)) return;
      if (isAbortError(error) || loadRefusal(error)) throw error;
      throw new StatusWriteError(error, options.failure);
    }
  }

  /** §8.5: Ready=False with `failure` in the status. */
  async #writeFailedStatus(
    config: InstanceConfig,
    instance: KubeObject,
    working: Status,
    failure: Failure,
    run: Run,
  ): Promise<void> {
    const desired = failedStatus(instance, working, failure, config.crd.status, formatTime(this.#deps.now()));
    await this.#writeStatus(config, instance, desired, run, { failure });
  }

  /** §8.5: the Warning Event of a failed reconcile, and Ready=False with it in the status. */
  async #recordFailure(
    config: InstanceConfig,
    instance: KubeObject,
    working: Status,
    failure: Failure,
    run: Run,
  ): Promise<void> {
    this.#emit(run, instance, 'Warning', failure.reason, failure.message);
    await this.#writeFailedStatus(config, instance, working, failure, run);
  }

  /**
   * A reconcile that threw: its status write was refused, or something failed unexpectedly. The
   * failure still reaches the instance (an Event, and the smallest status saying Ready=False for the
   * current generation), so no earlier Ready=True outlives it.
   */
  async #recordUnexpected(
    config: InstanceConfig,
    instance: KubeObject,
    error: unknown,
    run: Run,
  ): Promise<ReconcileResult> {
    const statusWriteErrors: string[] = [];
    let failure: Failure;
    if (error instanceof StatusWriteError) {
      this.#emit(run, instance, 'Warning', 'StatusWriteFailed', error.message);
      statusWriteErrors.push(error.message);
      failure = error.failure ?? { reason: 'StatusWriteFailed', message: error.message };
    } else {
      failure = { reason: 'ReconcileFailed', message: errorMessage(error) };
      this.#emit(run, instance, 'Warning', failure.reason, failure.message);
    }
    try {
      await this.#writeFailureStatus(config, instance, failure, run);
    } catch (fallbackError) {
      if (isAbortError(fallbackError)) throw fallbackError;
      if (loadRefusal(fallbackError)) return this.#refusedForLoad(config, run.key, fallbackError);
      const message = errorMessage(
        fallbackError instanceof StatusWriteError ? fallbackError.cause : fallbackError,
      );
      this.#emit(run, instance, 'Warning', 'StatusWriteFailed', message);
      statusWriteErrors.push(message);
    }
    return retry({
      ...failure,
      ...(statusWriteErrors.length > 0 ? { statusWriteError: statusWriteErrors.join('; ') } : {}),
    });
  }

  /** The smallest status write recording `failure` (see failureStatus): conditions and observedGeneration. */
  async #writeFailureStatus(
    config: InstanceConfig,
    instance: KubeObject,
    failure: Failure,
    run: Run,
  ): Promise<void> {
    if (!config.crd.status.subresource) return;
    const status = failureStatus({
      stored: instance.status,
      failure,
      generation: instance.metadata.generation,
      conditionTypes: config.conditionTypes,
      features: config.crd.status,
      now: formatTime(this.#deps.now()),
    });
    if (status) await this.#writeStatus(config, instance, status, run, { partial: true });
  }

  #wroteStatus(instance: KubeObject, written: KubeObject): void {
    this.#superseded.wrote(
      `${instance.metadata.namespace ?? ''}/${instance.metadata.name ?? ''}`,
      instance.metadata.resourceVersion,
      written.metadata.resourceVersion,
    );
    this.ownWrites.wrote(written);
  }
}

function signalOf(run: Run): { signal?: AbortSignal } {
  return run.signal === undefined ? {} : { signal: run.signal };
}
