/**
 * A reconcile's writes to the instance itself: its finalizer and its status (docs/spec/children-and-status.md
 * §1 step 4, §8.11), with the verbs the registration was granted (docs/spec/registration.md §7). Every
 * version a write replaces is superseded, and the written object is an own write unless it carries
 * another change too, so that neither the stale cached copy nor the write's own watch event costs a
 * reconcile.
 */
import type { KubeObject } from '@scoby/kube-objects';
import { FINALIZER } from '@scoby/registration';
import {
  type DynamicClient,
  errorMessage,
  isAbortError,
  isNotFound,
  loadRefusal,
  setFinalizer,
  writeStatus,
} from '@scoby/controller-runtime';
import type { InstanceMemory } from './instance-memory.ts';
import type { OwnWrites } from './own-writes.ts';
import { sameBasis } from './reconcile-basis.ts';
import type { Failure } from './plan/stop.ts';
import type { Status } from './status/instance-status.ts';
import type { Run } from './reconcile-run.ts';

/** A status write the API server refused; `failure` is the failure that status was to record. */
export class StatusWriteError extends Error {
  readonly failure: Failure | undefined;

  constructor(cause: unknown, failure: Failure | undefined) {
    super(errorMessage(cause), { cause });
    this.failure = failure;
  }
}

export class InstanceWrites {
  readonly #client: DynamicClient;
  readonly #memory: InstanceMemory;
  readonly #ownWrites: OwnWrites;

  constructor(client: DynamicClient, memory: InstanceMemory, ownWrites: OwnWrites) {
    this.#client = client;
    this.#memory = memory;
    this.#ownWrites = ownWrites;
  }

  /**
   * setFinalizer, failing with a message that says what was attempted. The version it replaced is
   * superseded: a reconcile of that cached copy would call the finalize hook a second time for an
   * instance whose finalizer is already gone (a child event can requeue the key before the watch
   * brings the removal). Undefined when the instance is gone.
   */
  async setFinalizer(run: Run, instance: KubeObject, present: boolean): Promise<KubeObject | undefined> {
    const reread: KubeObject[] = [];
    try {
      const updated = await setFinalizer(
        this.#client,
        run.config.instanceResource,
        instance,
        FINALIZER,
        present,
        {
          signal: run.signal,
          verb: run.config.writeVerbs.finalizers ?? 'patch',
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
        if (gone) this.#memory.superseded.wroteGone(run.slot, version);
        else this.#memory.superseded.wrote(run.slot, version, updated.metadata.resourceVersion);
      }
      if (updated !== undefined) this.#wrote(instance, updated);
      return updated;
    } catch (error) {
      if (isAbortError(error) || loadRefusal(error)) throw error;
      const action = present ? 'adding' : 'removing';
      throw new Error(`${action} finalizer ${FINALIZER} failed: ${errorMessage(error)}`, { cause: error });
    }
  }

  /**
   * Writes `desired` when it differs from the stored status (`partial`: only the fields given, the
   * others as stored); null writes nothing. Every status write of the instance reconcile goes
   * through here. A refusal throws StatusWriteError carrying the failure the status was to record.
   */
  async writeStatus(
    run: Run,
    instance: KubeObject,
    desired: Status | null,
    options: { failure?: Failure; partial?: boolean } = {},
  ): Promise<void> {
    if (desired === null) return;
    const reread: KubeObject[] = [];
    try {
      const written = await writeStatus(this.#client, run.config.instanceResource, instance, desired, {
        signal: run.signal,
        ...(options.partial ? { partial: true } : {}),
        verb: run.config.writeVerbs.status ?? 'patch',
        onReread: (object) => reread.push(object),
      });
      if (written === undefined) return;
      for (const read of [instance, ...reread]) {
        this.#memory.superseded.wrote(
          run.slot,
          read.metadata.resourceVersion,
          written.metadata.resourceVersion,
        );
      }
      this.#wrote(instance, written);
    } catch (error) {
      if (isNotFound(error)) return;
      if (isAbortError(error) || loadRefusal(error)) throw error;
      throw new StatusWriteError(error, options.failure);
    }
  }

  /**
   * The written instance is an own write, its watch event an echo to skip, only when nothing but
   * this write changed it since `read`, on which the reconcile based its work: a status patch lands
   * on whatever is stored, and an informer that lists afresh delivers only this newest version, so
   * its event may be the only one of a change the reconcile never saw (reconcile-basis.ts).
   */
  #wrote(read: KubeObject, written: KubeObject): void {
    if (sameBasis(read, written)) this.#ownWrites.wrote(written);
  }
}
