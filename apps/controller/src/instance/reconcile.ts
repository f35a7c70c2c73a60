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
import { startWorkingStatus, type FailureReason, type Status } from './status/instance-status.ts';
import { failureStatusPatch } from './status/failure-status.ts';
import { statusPathAllowed } from '../crd/status-paths.ts';
import {
  type DynamicClient,
  errorMessage,
  hasFinalizer,
  isNotFound,
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

export type ReconcileOutcome =
  | { kind: 'done'; writes: number }
  | { kind: 'retry'; failure: ReconcileFailure; retryAfterMs?: number }
  /** The hook's Retry-After has not passed yet: nothing was attempted. */
  | { kind: 'wait'; retryAfterMs: number }
  /** Left alone after a permanent hook error; `failure` is set by the reconcile that parked it. */
  | { kind: 'parked'; failure?: ReconcileFailure };

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

  constructor(deps: ReconcileDependencies) {
    this.#deps = deps;
  }

  /** `children` is the registration's view of its managed child kinds (informer caches). */
  async reconcile(
    config: InstanceConfig,
    children: ChildStore,
    cached: KubeObject | undefined,
    key: string,
  ): Promise<ReconcileOutcome> {
    const deps = this.#deps;
    if (!cached) {
      this.#parking.release(key);
      this.#retryAfter.release(key);
      this.#superseded.forget(key);
      for (const slot of this.#warned.keys()) if (slot.startsWith(`${key}\u0000`)) this.#warned.delete(slot);
      return { kind: 'done', writes: 0 };
    }
    // The watch event of our last write brings the newer object and another reconcile: no longer
    // an echo to skip, since this trigger was not handled.
    if (this.#superseded.isStale(key, cached.metadata.resourceVersion)) {
      this.ownWrites.forget(cached);
      return { kind: 'done', writes: 0 };
    }
    if (this.#parking.isParked(key, () => parkingFingerprint(cached, config.revision)))
      return { kind: 'parked' };
    const waitMs = this.#retryAfter.remainingMs(key, config.revision, deps.now().getTime());
    if (waitMs > 0) return { kind: 'wait', retryAfterMs: waitMs };
    try {
      return cached.metadata.deletionTimestamp
        ? await this.#finalize(config, cached, key)
        : await this.#reconcileLive(config, children, cached, key);
    } catch (error) {
      return this.#recordUnexpected(config, cached, error);
    }
  }

  /** Steps 4–12 for an instance that is not being deleted. */
  async #reconcileLive(
    config: InstanceConfig,
    children: ChildStore,
    cached: KubeObject,
    key: string,
  ): Promise<ReconcileOutcome> {
    const deps = this.#deps;
    let instance = cached;
    let writes = 0;
    const wantsFinalizer = config.hook?.finalize === true;
    if (hasFinalizer(instance, FINALIZER) !== wantsFinalizer) {
      const updated = await this.#setFinalizer(config, instance, key, wantsFinalizer);
      if (!updated) return { kind: 'done', writes: 1 };
      writes++;
      if (!wantsFinalizer)
        deps.events.emit(instance, 'Normal', 'FinalizerReleased', `removed finalizer ${FINALIZER}`);
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
    this.#warnOnChange(key, 'EnvNameCollision', instance, rendered.warnings);
    if (!rendered.ok) {
      const failure: Failure = { reason: 'RenderFailed', message: rendered.errors.join('; ') };
      await this.#recordFailure(config, instance, working, failure);
      return { kind: 'retry', failure };
    }
    working = rendered.status;
    let desired = rendered.children;

    if (config.hook?.preReconcile) {
      const answer = await this.#callHook(
        config,
        hookCall(config.plugin, config.hook, 'pre-reconcile', hookObject(instance, working), desired),
      );
      if (answer.ok) {
        const accepted = acceptHookAnswer(answer, working, desired, config, now);
        if (!accepted.ok) {
          // An answer Scoby cannot take counts as a malformed answer: transient (docs/spec/hooks-v1.md §6.4).
          const failure: Failure = { reason: 'HookFailed', message: accepted.message };
          await this.#recordFailure(config, instance, working, failure);
          return { kind: 'retry', failure };
        }
        const ignored = accepted.ignoredChanges;
        this.#warnOnChange(key, 'HookObjectChangesIgnored', instance, ignored === undefined ? [] : [ignored]);
        working = accepted.status;
        desired = accepted.children;
      } else {
        deps.events.emit(instance, 'Warning', 'HookFailed', answer.message);
        if (!answer.continue) {
          await this.#writeFailedStatus(config, instance, working, {
            reason: 'HookFailed',
            message: answer.message,
          });
          return this.#hookFailureOutcome(answer, instance, config, key);
        }
      }
    }

    const state = desiredState({
      instance,
      target: desiredStateTarget(config, deps),
      working,
      children: desired,
    });
    const { identity } = state;
    const outcome = await writeChildren(
      deps.client,
      children,
      state.children,
      { kind: instance.kind, name: identity.name, uid: identity.uid, namespace: identity.namespace },
      { [MANAGED_BY]: 'scoby-controller', [INSTANCE_LABEL]: labelValue(identity.name) },
    );
    writes += outcome.writes;
    for (const child of outcome.written) this.ownWrites.wrote(child);
    this.#announce(instance, outcome.changes);
    if (outcome.errors.length > 0) {
      const failure: Failure = { reason: 'ApplyFailed', message: outcome.errors.join('; ') };
      await this.#recordFailure(config, instance, working, failure);
      return { kind: 'retry', failure };
    }

    writes += await this.#writeStatus(
      config,
      instance,
      state.statusFor(outcome.observed, formatTime(deps.now())),
    );
    return { kind: 'done', writes };
  }

  /** docs/spec/hooks-v1.md §7. */
  async #finalize(config: InstanceConfig, instance: KubeObject, key: string): Promise<ReconcileOutcome> {
    const deps = this.#deps;
    if (!hasFinalizer(instance, FINALIZER)) return { kind: 'done', writes: 0 };
    const hook = config.hook;
    if (hook?.finalize) {
      const answer = await this.#callHook(
        config,
        hookCall(config.plugin, hook, 'finalize', hookObject(instance)),
      );
      if (!answer.ok) {
        deps.events.emit(instance, 'Warning', 'HookFailed', answer.message);
        if (!answer.continue) {
          const now = formatTime(deps.now());
          const working = startWorkingStatus(instance.status, config.conditionTypes, now);
          await this.#writeFailedStatus(config, instance, working, {
            reason: 'HookFailed',
            message: answer.message,
          });
          return this.#hookFailureOutcome(answer, instance, config, key);
        }
      }
      await this.#setFinalizer(config, instance, key, false);
      return { kind: 'done', writes: 1 };
    }
    if (hook) {
      await this.#callHook(config, hookCall(config.plugin, hook, 'finalize', hookObject(instance)));
    }
    await this.#setFinalizer(config, instance, key, false);
    deps.events.emit(instance, 'Normal', 'FinalizerReleased', `removed finalizer ${FINALIZER}`);
    return { kind: 'done', writes: 1 };
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
    key: string,
    present: boolean,
  ): Promise<KubeObject | undefined> {
    try {
      const updated = await setFinalizer(
        this.#deps.client,
        config.instanceResource,
        instance,
        FINALIZER,
        present,
      );
      if (updated === undefined) {
        this.#superseded.wroteGone(key, instance.metadata.resourceVersion);
        return undefined;
      }
      this.#superseded.wrote(key, instance.metadata.resourceVersion, updated.metadata.resourceVersion);
      this.ownWrites.wrote(updated);
      return updated;
    } catch (error) {
      const action = present ? 'adding' : 'removing';
      throw new Error(`${action} finalizer ${FINALIZER} failed: ${errorMessage(error)}`, { cause: error });
    }
  }

  /**
   * An info line per child created, updated or pruned, and one Normal Event per action naming every
   * child it touched (`created Deployment shop/mailer-orders, Service shop/mailer-orders`): an Event
   * is an API write, and one per child doubled the writes of a new instance.
   */
  #announce(instance: KubeObject, changes: readonly ChildChange[]): void {
    const subject = `${instance.metadata.namespace ?? ''}/${instance.metadata.name ?? ''}`;
    const byAction = new Map<ChildChange['action'], string[]>();
    for (const { action, child } of changes) {
      this.#deps.logger?.info({ instance: subject, kind: instance.kind, child }, `child ${action}`);
      const children = byAction.get(action);
      if (children) children.push(child);
      else byAction.set(action, [child]);
    }
    for (const [action, children] of byAction) {
      this.#deps.events.emit(instance, 'Normal', CHANGE_REASONS[action], `${action} ${children.join(', ')}`);
    }
  }

  #warnOnChange(key: string, reason: string, instance: KubeObject, messages: readonly string[]): void {
    const slot = `${key}\u0000${reason}`;
    const fingerprint = messages.join('\n');
    if ((this.#warned.get(slot) ?? '') === fingerprint) return;
    if (fingerprint === '') this.#warned.delete(slot);
    else this.#warned.set(slot, fingerprint);
    for (const message of messages) this.#deps.events.emit(instance, 'Warning', reason, message);
  }

  async #callHook(config: InstanceConfig, call: HookCall): Promise<HookResult> {
    const started = performance.now();
    const result = await this.#deps.hooks.call(call);
    this.#deps.recordHookCall?.(
      config.registrationName,
      performance.now() - started,
      result.ok ? 'success' : 'failure',
    );
    return result;
  }

  #hookFailureOutcome(
    answer: HookFailure,
    instance: KubeObject,
    config: InstanceConfig,
    key: string,
  ): ReconcileOutcome {
    const failure: Failure = { reason: 'HookFailed', message: answer.message };
    if (answer.permanent) {
      this.#parking.park(key, parkingFingerprint(instance, config.revision));
      return { kind: 'parked', failure };
    }
    if (answer.retryAfterMs === undefined) return { kind: 'retry', failure };
    this.#retryAfter.hold(key, config.revision, this.#deps.now().getTime() + answer.retryAfterMs);
    return { kind: 'retry', failure, retryAfterMs: answer.retryAfterMs };
  }

  /** Steps 10–11: write the desired status when it changed. Returns the number of writes. */
  async #writeStatus(
    config: InstanceConfig,
    instance: KubeObject,
    desired: Status | null,
    failure?: Failure,
  ): Promise<number> {
    if (desired === null) return 0;
    try {
      const written = await writeStatus(this.#deps.client, config.instanceResource, instance, desired);
      if (written === undefined) return 0;
      this.#wroteStatus(instance, written);
      return 1;
    } catch (error) {
      if (isNotFound(error)) return 0;
      throw new StatusWriteError(error, failure);
    }
  }

  /** §8.5: Ready=False with `failure` in the status. */
  async #writeFailedStatus(
    config: InstanceConfig,
    instance: KubeObject,
    working: Status,
    failure: Failure,
  ): Promise<number> {
    const desired = failedStatus(instance, working, failure, config.crd.status, formatTime(this.#deps.now()));
    return this.#writeStatus(config, instance, desired, failure);
  }

  /** §8.5: the Warning Event of a failed reconcile, and Ready=False with it in the status. */
  async #recordFailure(
    config: InstanceConfig,
    instance: KubeObject,
    working: Status,
    failure: Failure,
  ): Promise<void> {
    this.#deps.events.emit(instance, 'Warning', failure.reason, failure.message);
    await this.#writeFailedStatus(config, instance, working, failure);
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
  ): Promise<ReconcileOutcome> {
    const events = this.#deps.events;
    const statusWriteErrors: string[] = [];
    let failure: Failure;
    if (error instanceof StatusWriteError) {
      events.emit(instance, 'Warning', 'StatusWriteFailed', error.message);
      statusWriteErrors.push(error.message);
      failure = error.failure ?? { reason: 'StatusWriteFailed', message: error.message };
    } else {
      failure = { reason: 'ReconcileFailed', message: errorMessage(error) };
      events.emit(instance, 'Warning', failure.reason, failure.message);
    }
    try {
      await this.#writeFailureStatus(config, instance, failure);
    } catch (fallbackError) {
      events.emit(instance, 'Warning', 'StatusWriteFailed', errorMessage(fallbackError));
      statusWriteErrors.push(errorMessage(fallbackError));
    }
    return {
      kind: 'retry',
      failure: {
        ...failure,
        ...(statusWriteErrors.length > 0 ? { statusWriteError: statusWriteErrors.join('; ') } : {}),
      },
    };
  }

  /** The smallest status write recording `failure` (see failureStatusPatch). */
  async #writeFailureStatus(config: InstanceConfig, instance: KubeObject, failure: Failure): Promise<void> {
    if (!config.crd.status.subresource) return;
    const patch = failureStatusPatch({
      stored: instance.status,
      failure,
      generation: instance.metadata.generation,
      conditionTypes: config.conditionTypes,
      features: config.crd.status,
      now: formatTime(this.#deps.now()),
    });
    if (!patch) return;
    try {
      const written = await this.#deps.client.patch(
        config.instanceResource,
        instance.metadata.namespace,
        instance.metadata.name ?? '',
        patch,
        { subresource: 'status' },
      );
      this.#wroteStatus(instance, written);
    } catch (error) {
      if (!isNotFound(error)) throw error;
    }
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
