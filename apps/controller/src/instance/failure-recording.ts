/**
 * Recording a failed instance reconcile (docs/spec/children-and-status.md §8.5, §10): the plan's stops,
 * requests refused for load, and what failed unexpectedly. Each ends the reconcile with the result
 * the work queue acts on (reconcile-failure.ts).
 */
import type { KubeObject } from '@scoby/kube-objects';
import {
  errorMessage,
  isAbortError,
  loadRefusal,
  type ReconcileResult,
  serverRetryAfterMs,
} from '@scoby/controller-runtime';
import { formatTime } from '../status/conditions.ts';
import type { InstanceEvents } from './instance-events.ts';
import type { InstanceMemory } from './instance-memory.ts';
import { StatusWriteError, type InstanceWrites } from './instance-writes.ts';
import { parkingFingerprint } from './parking.ts';
import type { Failure, Stop } from './plan/stop.ts';
import { parked, retry } from './reconcile-failure.ts';
import type { Run } from './reconcile-run.ts';
import { failureStatus } from './status/failure-status.ts';

export class FailureRecording {
  readonly #events: InstanceEvents;
  readonly #writes: InstanceWrites;
  readonly #memory: InstanceMemory;
  readonly #now: () => Date;

  constructor(events: InstanceEvents, writes: InstanceWrites, memory: InstanceMemory, now: () => Date) {
    this.#events = events;
    this.#writes = writes;
    this.#memory = memory;
    this.#now = now;
  }

  /**
   * A stop the plan decided: the Warning Event of its reason, Ready=False with it in the status,
   * then parked (terminal: triggers that change nothing that counts do nothing, docs/spec/hooks-v1.md
   * §6.3), held until its Retry-After (§6.4), or retried with backoff.
   */
  async stop(run: Run, instance: KubeObject, stop: Stop): Promise<ReconcileResult> {
    const { failure, next } = stop;
    this.#events.emit(run, instance, 'Warning', failure.reason, failure.message);
    await this.#writes.writeStatus(run, instance, stop.statusAt(formatTime(this.#now())), { failure });
    switch (next.kind) {
      case 'park':
        this.#memory.parking.park(run.slot, parkingFingerprint(instance, run.config.revision));
        return parked(failure);
      case 'retry-after':
        this.#memory.retryAfter.hold(run.slot, run.config.revision, this.#now().getTime() + next.delayMs);
        return retry(failure, next.delayMs);
      case 'retry':
        return retry(failure);
    }
  }

  /**
   * A request refused for load (docs/spec/children-and-status.md §1 step 12): recording it would
   * send the overloaded server a status write and an Event, so nothing is. The instance waits for
   * the server's Retry-After, also when events of its children or of itself come meanwhile.
   */
  refusedForLoad(run: Run, error: unknown): ReconcileResult {
    const retryAfterMs = serverRetryAfterMs(error);
    if (retryAfterMs === undefined) return { error };
    this.#memory.retryAfter.hold(run.slot, run.config.revision, this.#now().getTime() + retryAfterMs);
    return { error, retryAfterMs };
  }

  /**
   * A reconcile that threw: its status write was refused, or something failed unexpectedly. The
   * failure still reaches the instance (an Event, and the smallest status saying Ready=False for the
   * current generation), so no earlier Ready=True outlives it.
   */
  async unexpected(run: Run, instance: KubeObject, error: unknown): Promise<ReconcileResult> {
    const statusWriteErrors: string[] = [];
    let failure: Failure;
    if (error instanceof StatusWriteError) {
      this.#events.emit(run, instance, 'Warning', 'StatusWriteFailed', error.message);
      statusWriteErrors.push(error.message);
      failure = error.failure ?? { reason: 'StatusWriteFailed', message: error.message };
    } else {
      failure = { reason: 'ReconcileFailed', message: errorMessage(error) };
      this.#events.emit(run, instance, 'Warning', failure.reason, failure.message);
    }
    try {
      await this.#writeFailureStatus(run, instance, failure);
    } catch (fallbackError) {
      if (isAbortError(fallbackError)) throw fallbackError;
      if (loadRefusal(fallbackError)) return this.refusedForLoad(run, fallbackError);
      const message = errorMessage(
        fallbackError instanceof StatusWriteError ? fallbackError.cause : fallbackError,
      );
      this.#events.emit(run, instance, 'Warning', 'StatusWriteFailed', message);
      statusWriteErrors.push(message);
    }
    return retry({
      ...failure,
      ...(statusWriteErrors.length > 0 ? { statusWriteError: statusWriteErrors.join('; ') } : {}),
    });
  }

  /** The smallest status write recording `failure` (see failureStatus): conditions and observedGeneration. */
  async #writeFailureStatus(run: Run, instance: KubeObject, failure: Failure): Promise<void> {
    const { config } = run;
    if (!config.crd.status.subresource) return;
    const status = failureStatus({
      stored: instance.status,
      failure,
      generation: instance.metadata.generation,
      conditionTypes: config.conditionTypes,
      features: config.crd.status,
      now: formatTime(this.#now()),
    });
    if (status) await this.#writes.writeStatus(run, instance, status, { partial: true });
  }
}
