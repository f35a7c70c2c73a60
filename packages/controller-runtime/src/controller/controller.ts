/**
 * A controller declared as controller-runtime's builder declares one: the kind it reconciles (each
 * add, update and delete enqueues the object), the kinds it owns (an event enqueues the object's
 * controlling owner when that is of the reconciled group and kind), and the reconcile, run by a
 * work queue of its own with typed keys.
 */
import { splitApiVersion, type KubeObject } from '@scoby/kube-objects';
import type { Logger } from 'pino';
import type { InformerFactory, InformerHandle, InformerRequest } from '../informer/informer-factory.ts';
import type { Slots } from '../queue/concurrency-limit.ts';
import {
  type ReconcileContext,
  type ReconcileResult,
  WorkQueue,
  type WorkQueueObserver,
} from '../queue/work-queue.ts';
import type { Clock } from '../time/clock.ts';
import { formatObjectKey, type GroupKind, type ObjectKey, parseObjectKey } from './object-key.ts';

export interface ControllerOptions {
  name: string;
  factory: InformerFactory;
  /** The reconciled kind: its informer, and its group and kind for the keys and owner references. */
  for: InformerRequest & GroupKind;
  /** Owned kinds: their events enqueue the controlling owner. */
  owns?: readonly InformerRequest[];
  reconcile(key: ObjectKey, context: ReconcileContext): Promise<ReconcileResult> | ReconcileResult;
  concurrency?: number | Slots;
  observer?: WorkQueueObserver;
  reconcileTimeoutMs?: number;
  clock?: Clock;
  logger?: Logger;
}

export class Controller {
  readonly #options: ControllerOptions;
  readonly #queue: WorkQueue;
  readonly #primary: InformerHandle;
  readonly #owned: InformerHandle[];

  constructor(options: ControllerOptions) {
    this.#options = options;
    this.#queue = new WorkQueue({
      reconcile: (key, context) => options.reconcile(parseObjectKey(key), context),
      ...(options.concurrency === undefined ? {} : { concurrency: options.concurrency }),
      ...(options.observer ? { observer: options.observer } : {}),
      ...(options.reconcileTimeoutMs === undefined ? {} : { reconcileTimeoutMs: options.reconcileTimeoutMs }),
      ...(options.clock ? { clock: options.clock } : {}),
      ...(options.logger ? { logger: options.logger.child({ controller: options.name }) } : {}),
    });
    this.#primary = options.factory.acquire(options.for);
    const enqueue = (object: KubeObject) => this.#enqueueFor(object);
    this.#primary.addHandlers({ add: enqueue, update: enqueue, delete: enqueue });
    this.#owned = (options.owns ?? []).map((request) => {
      const handle = options.factory.acquire(request);
      const enqueueOwner = (object: KubeObject) => this.#enqueueOwner(object);
      handle.addHandlers({ add: enqueueOwner, update: enqueueOwner, delete: enqueueOwner });
      return handle;
    });
  }

  /** The reconciled object as the cache holds it. */
  get(key: ObjectKey): KubeObject | undefined {
    return this.#primary.informer.get(key.namespace === '' ? undefined : key.namespace, key.name);
  }

  enqueue(key: ObjectKey): void {
    this.#queue.add(formatObjectKey(key));
  }

  hasSynced(): boolean {
    return [this.#primary, ...this.#owned].every((handle) => handle.informer.hasSynced());
  }

  async waitForSync(timeoutMs: number): Promise<boolean> {
    const synced = await Promise.all(
      [this.#primary, ...this.#owned].map((handle) => handle.informer.waitForSync(timeoutMs)),
    );
    return synced.every(Boolean);
  }

  /** Stops taking work and waits for the running reconciles; `abort` fires their signals first. */
  async stop(options: { abort?: string } = {}): Promise<void> {
    await this.#queue.shutdown({
      drain: true,
      ...(options.abort === undefined ? {} : { abort: options.abort }),
    });
    this.#primary.release();
    for (const handle of this.#owned) handle.release();
  }

  #enqueueFor(object: KubeObject): void {
    const { group, kind } = this.#options.for;
    this.enqueue({
      group,
      kind,
      namespace: object.metadata.namespace ?? '',
      name: object.metadata.name ?? '',
    });
  }

  #enqueueOwner(object: KubeObject): void {
    const { group, kind } = this.#options.for;
    const owner = (object.metadata.ownerReferences ?? []).find((reference) => reference.controller === true);
    if (!owner || owner.kind !== kind || splitApiVersion(owner.apiVersion).group !== group) return;
    this.enqueue({ group, kind, namespace: object.metadata.namespace ?? '', name: owner.name });
  }
}
