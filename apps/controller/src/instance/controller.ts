/**
 * The controller of one registration's instances (docs/spec/children-and-status.md §9): an informer on the
 * registered CRD, shared informers on every managed child kind (owner-mapped to instances), a work
 * queue of its own (so a slow hook in one registration never blocks another), and the reconciler.
 */
import { INSTANCE_LABEL } from '@scoby/formfactor';
import { splitApiVersion, type KubeObject } from '@scoby/kube-objects';
import type { Logger } from 'pino';
import {
  errorMessage,
  type InformerFactory,
  type InformerHandle,
  type QueueHealth,
  type ReconcileResult,
  type ResourceRef,
  type Slots,
  WorkQueue,
  type WorkQueueObserver,
} from '@scoby/controller-runtime';
import type { InstanceConfig } from './instance-config.ts';
import type { InstanceReconciler, ReconcileFailure, ReconcileOutcome } from './reconcile.ts';
import type { ChildStore } from './children/write-children.ts';
import { LabelIndex } from './label-index.ts';

export const MANAGED_BY_SELECTOR = 'app.kubernetes.io/managed-by=scoby-controller';

/** An event that triggers a reconcile whatever its object (a deletion). */
const ALWAYS = Symbol('always');

export interface ChildKind {
  apiVersion: string;
  kind: string;
  resource: ResourceRef;
}

export interface InstanceControllerOptions {
  factory: InformerFactory;
  reconciler: InstanceReconciler;
  concurrency: number | Slots;
  observer?: WorkQueueObserver;
  logger: Logger;
  /** See WorkQueueOptions.reconcileTimeoutMs. */
  reconcileTimeoutMs?: number;
  /** Watches this controller's work queue while it runs. */
  health?: QueueHealth;
}

function instanceKey(object: KubeObject): string {
  return `${object.metadata.namespace ?? ''}/${object.metadata.name ?? ''}`;
}

function kindKey(apiVersion: string, kind: string): string {
  return `${splitApiVersion(apiVersion).group}/${kind}`;
}

function matchesLabels(object: KubeObject, labels: Record<string, string>): boolean {
  const actual = object.metadata.labels ?? {};
  return Object.entries(labels).every(([key, value]) => actual[key] === value);
}

export class InstanceController {
  readonly #options: InstanceControllerOptions;
  #config: InstanceConfig;
  readonly #queue: WorkQueue;
  readonly #unwatchHealth: () => void;
  readonly #instances: InformerHandle;
  #children = new Map<string, { kind: ChildKind; handle: InformerHandle; byInstance: LabelIndex }>();
  /** Watch events that arrived while the instance's reconcile ran (see #trigger). */
  readonly #held = new Map<string, (KubeObject | typeof ALWAYS)[]>();

  constructor(options: InstanceControllerOptions, config: InstanceConfig, childKinds: readonly ChildKind[]) {
    this.#options = options;
    this.#config = config;
    this.#queue = new WorkQueue({
      reconcile: (key) => this.#reconcile(key),
      concurrency: options.concurrency,
      ...(options.observer ? { observer: options.observer } : {}),
      ...(options.reconcileTimeoutMs === undefined ? {} : { reconcileTimeoutMs: options.reconcileTimeoutMs }),
      logger: options.logger,
    });
    this.#unwatchHealth = options.health?.watch(config.registrationName, this.#queue) ?? (() => {});
    this.#instances = options.factory.acquire({ resource: config.instanceResource });
    this.#instances.addHandlers({
      add: (object) => this.#trigger(instanceKey(object), object),
      update: (object) => this.#trigger(instanceKey(object), object),
      delete: (object) => {
        options.reconciler.ownWrites.forget(object);
        this.#trigger(instanceKey(object), ALWAYS);
      },
    });
    this.#watchChildren(childKinds);
  }

  get config(): InstanceConfig {
    return this.#config;
  }

  /** True once the instance and child informers have listed. */
  hasSynced(): boolean {
    return (
      this.#instances.informer.hasSynced() &&
      [...this.#children.values()].every(({ handle }) => handle.informer.hasSynced())
    );
  }

  async waitForSync(timeoutMs: number): Promise<boolean> {
    const all = [this.#instances, ...[...this.#children.values()].map(({ handle }) => handle)];
    const results = await Promise.all(all.map((handle) => handle.informer.waitForSync(timeoutMs)));
    return results.every(Boolean);
  }

  /** A new effective configuration: every instance is reconciled again (docs/spec/registration.md §6.2). */
  reconfigure(config: InstanceConfig, childKinds: readonly ChildKind[]): void {
    this.#config = config;
    this.#watchChildren(childKinds);
    this.enqueueAll();
  }

  enqueueAll(): void {
    for (const instance of this.#instances.informer.list()) this.#queue.add(instanceKey(instance));
  }

  instances(): KubeObject[] {
    return this.#instances.informer.list();
  }

  async stop(): Promise<void> {
    await this.#queue.shutdown({ drain: true });
    this.#unwatchHealth();
    this.#instances.release();
    for (const { handle } of this.#children.values()) handle.release();
    this.#children.clear();
  }

  /** The ChildStore of the reconciler, over the shared child informers' caches. */
  readonly store: ChildStore = {
    resourceFor: (apiVersion, kind) => this.#children.get(kindKey(apiVersion, kind))?.kind.resource,
    get: (apiVersion, kind, namespace, name) =>
      this.#children.get(kindKey(apiVersion, kind))?.handle.informer.get(namespace, name),
    list: (namespace, labels) => {
      const instance = labels[INSTANCE_LABEL];
      return [...this.#children.values()].flatMap(({ handle, byInstance }) =>
        (instance === undefined
          ? handle.informer.list().filter((object) => object.metadata.namespace === namespace)
          : byInstance.get(namespace, instance)
        ).filter((object) => matchesLabels(object, labels)),
      );
    },
  };

  #watchChildren(childKinds: readonly ChildKind[]): void {
    const wanted = new Map(childKinds.map((kind) => [kindKey(kind.apiVersion, kind.kind), kind]));
    for (const [key, entry] of this.#children) {
      if (!wanted.has(key)) {
        entry.handle.release();
        this.#children.delete(key);
      }
    }
    for (const [key, kind] of wanted) {
      if (this.#children.has(key)) continue;
      const handle = this.#options.factory.acquire({
        resource: kind.resource,
        labelSelector: MANAGED_BY_SELECTOR,
      });
      const byInstance = new LabelIndex(INSTANCE_LABEL);
      handle.addHandlers({
        add: (child) => {
          byInstance.upsert(child);
          this.#enqueueOwner(child, child);
        },
        update: (child, old) => {
          byInstance.upsert(child, old);
          this.#enqueueOwner(child, child);
        },
        delete: (child) => {
          byInstance.remove(child);
          this.#options.reconciler.ownWrites.forget(child);
          this.#enqueueOwner(child, ALWAYS);
        },
      });
      this.#children.set(key, { kind, handle, byInstance });
    }
  }

  /**
   * A child's controller owner reference names its instance when group and kind are the registered
   * ones (checked first: child informers are shared, and only the owner's controller may take an echo).
   */
  #enqueueOwner(child: KubeObject, event: KubeObject | typeof ALWAYS): void {
    const { crd } = this.#config;
    const owner = (child.metadata.ownerReferences ?? []).find((reference) => reference.controller === true);
    if (!owner || owner.kind !== crd.kind || splitApiVersion(owner.apiVersion).group !== crd.group) return;
    this.#trigger(`${child.metadata.namespace ?? ''}/${owner.name}`, event);
  }

  /**
   * A watch event about the instance `key` or one of its children. The echo of the reconciler's own
   * write shows what the reconcile that wrote it already saw, so it enqueues nothing. While that
   * reconcile runs its writes are not known yet (an echo can arrive before the write's answer), so
   * the events are held and judged when it ends.
   */
  #trigger(key: string, event: KubeObject | typeof ALWAYS): void {
    const held = this.#held.get(key);
    if (held) held.push(event);
    else if (event === ALWAYS || !this.#options.reconciler.ownWrites.isEcho(event)) this.#queue.add(key);
  }

  /** Enqueues `key` again if an event held during its reconcile was more than an echo. */
  #judgeHeld(key: string, held: readonly (KubeObject | typeof ALWAYS)[]): void {
    let news = false;
    // Every echo is looked at, so each is taken off the reconciler's record.
    for (const event of held) {
      if (event === ALWAYS || !this.#options.reconciler.ownWrites.isEcho(event)) news = true;
    }
    if (news) this.#queue.add(key);
  }

  async #reconcile(key: string): Promise<ReconcileResult> {
    const slash = key.indexOf('/');
    const namespace = key.slice(0, slash);
    const name = key.slice(slash + 1);
    const config = this.#config;
    const cached = this.#instances.informer.get(namespace, name);
    const context = { instance: key, kind: config.crd.kind };
    const held: (KubeObject | typeof ALWAYS)[] = [];
    this.#held.set(key, held);
    let outcome: ReconcileOutcome;
    try {
      outcome = await this.#options.reconciler.reconcile(config, this.store, cached, key);
    } catch (error) {
      // The reconciler turns failures into outcomes; this is the last resort for one that escaped it.
      this.#options.logger.error(
        { ...context, reason: 'ReconcileFailed', message: errorMessage(error), err: error },
        'reconcile failed',
      );
      return { error };
    } finally {
      // A reconcile past its deadline may still run beside its successor: only the latest holds events.
      if (this.#held.get(key) === held) this.#held.delete(key);
      this.#judgeHeld(key, held);
    }
    switch (outcome.kind) {
      case 'wait':
        return { requeueAfterMs: outcome.retryAfterMs };
      case 'parked':
        if (outcome.failure) this.#logFailure(context, outcome.failure, 'parked');
        return undefined;
      case 'retry': {
        this.#logFailure(context, outcome.failure, 'retry');
        const error = new Error(outcome.failure.message);
        return outcome.retryAfterMs === undefined ? { error } : { error, retryAfterMs: outcome.retryAfterMs };
      }
      case 'done':
        return undefined;
    }
  }

  /** One error line per failed reconcile: which object, why, and what happens next. */
  #logFailure(
    context: { instance: string; kind: string },
    failure: ReconcileFailure,
    next: 'retry' | 'parked',
  ): void {
    this.#options.logger.error({ ...context, ...failure, next }, 'reconcile failed');
  }
}
