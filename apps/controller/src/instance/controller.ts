/**
 * The controller of one registration's instances (docs/spec/children-and-status.md §9): an informer on the
 * registered CRD, shared informers on every managed child kind (owner-mapped to instances), a work
 * queue of its own (so a slow hook in one registration never blocks another), and the reconciler.
 */
import { INSTANCE_LABEL } from '@scoby/formfactor';
import { splitApiVersion, type KubeObject } from '@scoby/kube-objects';
import type { Logger } from 'pino';
import {
  Controller,
  type ControllerEvent,
  errorMessage,
  isAbortError,
  type InformerFactory,
  type InformerHandle,
  type ObjectKey,
  type QueueHealth,
  type ReconcileContext,
  type ReconcileResult,
  type ResourceRef,
  type ResyncPolicy,
  type Slots,
  type WorkQueueObserver,
} from '@scoby/controller-runtime';
import type { InstanceConfig } from './instance-config.ts';
import type { InstanceReconciler } from './reconcile.ts';
import { InstanceReconcileError, type ReconcileFailure } from './reconcile-failure.ts';
import type { ChildStore } from './children/write-children.ts';
import { LabelIndex } from './label-index.ts';
import { isReady } from '../status/conditions.ts';
import type { ChildCachePolicies, ChildCachePolicy } from './children/child-cache.ts';
import { namespaceWatch, SelectionGate, type SelectionGateOptions } from './selection-gate.ts';

/** How soon an instance is judged again while Namespace labels are not known yet. */
const NAMESPACES_SYNC_POLL_MS = 200;

export const MANAGED_BY_SELECTOR = 'app.kubernetes.io/managed-by=scoby-controller';

export interface ChildKind {
  apiVersion: string;
  kind: string;
  resource: ResourceRef;
}

export interface InstanceControllerOptions {
  factory: InformerFactory;
  /** Scoby's own ConfigMaps (docs/spec/env.md §6.6), held by the registration controller. */
  controllerConfigMaps?: InformerHandle;
  /** The reconciler of this registration's instances, over its configuration and this controller's child store. */
  newReconciler(config: InstanceConfig, store: ChildStore): InstanceReconciler;
  concurrency: number | Slots;
  observer?: WorkQueueObserver;
  logger: Logger;
  /** See WorkQueueOptions.reconcileTimeoutMs. */
  reconcileTimeoutMs?: number;
  /** See the process's ProcessOptions.resyncPeriodDivisor. */
  resyncPeriodDivisor?: number;
  /** Watches this controller's work queue while it runs. */
  health?: QueueHealth;
  /** What the child informers keep of each child kind (one policy per kind for the process). */
  childCaches: ChildCachePolicies;
  /** Which registration serves which instance (docs/spec/registration.md §6.8); absent: all of them. */
  selection?: SelectionGateOptions;
  /**
   * Active-active replicas: reconciles run in the registration's write scope, so their writes are
   * fenced by its Lease (docs/spec/registration.md §9).
   */
  scopedWrites?: boolean;
  /**
   * The label selector of the child informers; default MANAGED_BY_SELECTOR (every child Scoby
   * manages, one informer per kind for the process). Active-active replicas narrow it to the
   * children of this registration's CRD (docs/spec/registration.md §9.6).
   */
  childSelector?: string;
}

function kindKey(apiVersion: string, kind: string): string {
  return `${splitApiVersion(apiVersion).group}/${kind}`;
}

function matchesLabels(object: KubeObject, labels: Record<string, string>): boolean {
  const actual = object.metadata.labels ?? {};
  return Object.entries(labels).every(([key, value]) => actual[key] === value);
}

/** spec.resyncPeriod as the runtime's policy (docs/spec/registration.md §6.9); absent: none. */
function resyncPolicy(config: InstanceConfig, divisor = 1): ResyncPolicy | undefined {
  const periodMs = config.spec.resyncPeriodMs;
  return periodMs === undefined ? undefined : { periodMs: periodMs / divisor };
}

/** An instance as log lines and the selection gate name it: namespace/name, unique within one registration. */
function instanceName(key: Pick<ObjectKey, 'namespace' | 'name'>): string {
  return `${key.namespace}/${key.name}`;
}

export class InstanceController {
  readonly #options: InstanceControllerOptions;
  readonly #reconciler: InstanceReconciler;
  readonly #controller: Controller;
  readonly #unwatchHealth: () => void;
  readonly #gate: SelectionGate | undefined;
  #children = new Map<
    string,
    {
      kind: ChildKind;
      handle: InformerHandle;
      byInstance: LabelIndex;
      policy: ChildCachePolicy;
      unwatch: () => void;
      selector: string;
    }
  >();
  #childSelector: string;
  /** The Namespaces' informer this controller watches, and how to stop. */
  #namespaces: { handle: InformerHandle; unwatch: () => void } | undefined;

  constructor(options: InstanceControllerOptions, config: InstanceConfig, childKinds: readonly ChildKind[]) {
    this.#options = options;
    this.#reconciler = options.newReconciler(config, this.store);
    this.#childSelector = options.childSelector ?? MANAGED_BY_SELECTOR;
    this.#gate = options.selection ? new SelectionGate(options.selection) : undefined;
    const ownWrites = this.#reconciler.ownWrites;
    const resync = resyncPolicy(config, options.resyncPeriodDivisor);
    this.#controller = new Controller({
      name: config.registrationName,
      factory: options.factory,
      for: { resource: config.instanceResource, group: config.crd.group, kind: config.crd.kind },
      // The echo of the reconciler's own write shows what the reconcile that wrote it already saw,
      // so it enqueues nothing. While that reconcile runs its writes are not known yet (an echo can
      // arrive before the write's answer), so the events are held and judged when it ends.
      filter: {
        holdWhileReconciling: true,
        admit: (event: ControllerEvent) => {
          const echo = event.type !== 'delete' && ownWrites.isEcho(event.object);
          // Every event of every instance and child passes here: its fields only for a line written.
          const level = echo ? 'debug' : 'trace';
          if (options.logger.isLevelEnabled(level)) {
            options.logger[level](
              {
                instance: `${event.object.metadata.namespace ?? ''}/${event.object.metadata.name ?? ''}`,
                event: event.type,
                resourceVersion: event.object.metadata.resourceVersion,
              },
              echo ? 'event of own write skipped' : 'event admitted',
            );
          }
          return !echo;
        },
      },
      reconcile: (key, context) => this.#reconcile(key, context),
      ...(options.scopedWrites ? { writeScope: () => this.config.registrationName } : {}),
      ...(resync === undefined ? {} : { resync }),
      concurrency: options.concurrency,
      ...(options.observer ? { observer: options.observer } : {}),
      ...(options.reconcileTimeoutMs === undefined ? {} : { reconcileTimeoutMs: options.reconcileTimeoutMs }),
      logger: options.logger,
    });
    this.#controller.informer.addHandlers({ delete: (object) => ownWrites.forget(object) });
    // Its reconciles hold only the registration's own places while they wait on its hook.
    this.#unwatchHealth =
      options.health?.watch(config.registrationName, this.#controller, { isolated: true }) ?? (() => {});
    if (options.controllerConfigMaps) {
      // A controller ConfigMap the registration's env reads changed: every instance is reconciled again.
      this.#controller.watch({
        source: options.controllerConfigMaps,
        map: ({ object }) => (this.#readsConfigMap(object.metadata.name ?? '') ? this.#instanceKeys() : []),
      });
    }
    this.#watchChildren(childKinds);
    this.#watchNamespaces();
  }

  get config(): InstanceConfig {
    return this.#reconciler.config;
  }

  /** True once the instance and child informers have listed. */
  hasSynced(): boolean {
    return this.#controller.hasSynced();
  }

  waitForSync(timeoutMs: number): Promise<boolean> {
    return this.#controller.waitForSync(timeoutMs);
  }

  /** A new effective configuration: every instance is reconciled again (docs/spec/registration.md §6.2). */
  get childSelector(): string {
    return this.#childSelector;
  }

  reconfigure(config: InstanceConfig, childKinds: readonly ChildKind[], childSelector?: string): void {
    this.#reconciler.reconfigure(config);
    if (childSelector !== undefined) this.#childSelector = childSelector;
    this.#controller.setResync(resyncPolicy(config, this.#options.resyncPeriodDivisor));
    this.#watchChildren(childKinds);
    this.#watchNamespaces();
    this.enqueueAll();
  }

  /** Every instance, at `priority` (default normal: a change asks for it). */
  enqueueAll(priority?: number): void {
    this.#controller.enqueueAll(priority);
  }

  /** Whether the registration's env reads the controller ConfigMap `name` (docs/spec/env.md §6.6). */
  #readsConfigMap(name: string): boolean {
    return this.config.spec.parameterConfiguration.add.toEnv.some(
      (entry) => entry.valueFromControllerConfigMap?.name === name,
    );
  }

  #instanceKeys(): ObjectKey[] {
    return this.instances().map((instance) =>
      this.#controller.keyFor(instance.metadata.namespace ?? '', instance.metadata.name ?? ''),
    );
  }

  instances(): KubeObject[] {
    return this.#controller.informer.informer.list();
  }

  /**
   * Watches the Namespaces while a candidate of the CRD selects by their labels, as a reconfiguration
   * finds (the candidates are part of the configuration's revision); stops watching when none does.
   */
  #watchNamespaces(): void {
    const namespaces = this.#options.selection?.selection.namespaces(this.config.crd.name);
    if (namespaces === this.#namespaces?.handle) return;
    this.#namespaces?.unwatch();
    this.#namespaces =
      namespaces === undefined
        ? undefined
        : {
            handle: namespaces,
            unwatch: this.#controller.watch(
              namespaceWatch(namespaces, (namespace) => this.#instanceKeysIn(namespace)),
            ),
          };
  }

  #instanceKeysIn(namespace: string): ObjectKey[] {
    return this.instances()
      .filter((instance) => instance.metadata.namespace === namespace)
      .map((instance) => this.#controller.keyFor(namespace, instance.metadata.name ?? ''));
  }

  /** The counts of status.instances (docs/spec/registration.md §5.1), from the instance cache. */
  selectionCounts(): { served: number; servedByOthers: number } {
    const instances = this.instances();
    return this.#gate
      ? this.#gate.counts(this.config.registrationName, this.config.crd.name, instances)
      : { served: instances.length, servedByOthers: 0 };
  }

  /** Served instances whose Ready condition is not True (scoby_instances_not_ready), from the instance cache. */
  notReadyCount(): number {
    const { registrationName, crd } = this.config;
    let count = 0;
    for (const instance of this.instances()) {
      if (this.#gate && !this.#gate.serves(registrationName, crd.name, instance)) continue;
      if (!isReady(instance)) count++;
    }
    return count;
  }

  async stop(): Promise<void> {
    await this.#controller.stop();
    this.#unwatchHealth();
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
    upToDate: (child) => {
      const entry = this.#children.get(kindKey(child.apiVersion, child.kind));
      entry?.policy.upToDate(child, (slim) => entry.handle.informer.recache(slim));
    },
  };

  /**
   * Child informers are shared between registrations: the owned-kind watch enqueues a child's
   * controlling owner only when its group and kind are this registration's (only the owner's
   * controller may take an echo).
   */
  #watchChildren(childKinds: readonly ChildKind[]): void {
    const wanted = new Map(childKinds.map((kind) => [kindKey(kind.apiVersion, kind.kind), kind]));
    for (const [key, entry] of this.#children) {
      if (!wanted.has(key) || entry.selector !== this.#childSelector) {
        entry.unwatch();
        entry.handle.release();
        this.#children.delete(key);
      }
    }
    for (const [key, kind] of wanted) {
      if (this.#children.has(key)) continue;
      const policy = this.#options.childCaches.for(kind.apiVersion, kind.kind);
      const handle = this.#options.factory.acquire({
        resource: kind.resource,
        labelSelector: this.#childSelector,
        transform: policy.transform,
      });
      const byInstance = new LabelIndex(INSTANCE_LABEL, (namespace, name) =>
        handle.informer.get(namespace, name),
      );
      const ownWrites = this.#reconciler.ownWrites;
      // Indexed before the controller's own handler enqueues, so the reconcile sees the child.
      handle.addHandlers({
        add: (child) => byInstance.upsert(child),
        update: (child, old) => byInstance.upsert(child, old),
        delete: (child) => {
          byInstance.remove(child);
          ownWrites.forget(child);
          policy.forget(child);
        },
      });
      const unwatch = this.#controller.own(handle);
      this.#children.set(key, { kind, handle, byInstance, policy, unwatch, selector: this.#childSelector });
    }
  }

  async #reconcile(key: ObjectKey, context: ReconcileContext): Promise<ReconcileResult> {
    const config = this.config;
    const cached = this.#controller.get(key);
    const name = instanceName(key);
    const fields = { instance: name, kind: config.crd.kind };
    const gate = this.#gate;
    if (gate && !cached) gate.forget(config.registrationName, config.crd.name, name);
    if (gate && cached) {
      const verdict = gate.judge(config.registrationName, config.crd.name, name, cached, this.store);
      if (verdict === 'wait') return { requeueAfterMs: NAMESPACES_SYNC_POLL_MS };
      // Another registration's, or nobody's: children and finalizer stay as they are until one takes it.
      if (verdict === 'leave') return undefined;
    }
    let result: ReconcileResult;
    try {
      result = await this.#reconciler.reconcile(key, cached, context);
    } catch (error) {
      if (isAbortError(error)) throw error;
      // The reconciler turns failures into results; this is the last resort for one that escaped it.
      this.#options.logger.error(
        { ...fields, reason: 'ReconcileFailed', message: errorMessage(error), err: error },
        'reconcile failed',
      );
      return { error };
    }
    if (result && 'terminal' in result && result.terminal instanceof InstanceReconcileError)
      this.#logFailure(fields, result.terminal.failure, 'parked');
    if (result && 'error' in result && result.error instanceof InstanceReconcileError)
      this.#logFailure(fields, result.error.failure, 'retry');
    return result;
  }

  /** One error line per failed reconcile: which object, why, and what happens next. */
  #logFailure(
    fields: { instance: string; kind: string },
    failure: ReconcileFailure,
    next: 'retry' | 'parked',
  ): void {
    this.#options.logger.error({ ...fields, ...failure, next }, 'reconcile failed');
  }
}
