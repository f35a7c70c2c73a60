/**
 * The running instance controllers, one per active and ready registration, and finalizer release
 * when a registration stops managing a CRD (docs/spec/registration.md §6.6–§6.7).
 */
import type { HookClient } from '@scoby/hooks-v1/client';
import { compareByteOrder, type KubeObject } from '@scoby/kube-objects';
import { FINALIZER } from '@scoby/registration';
import type { Logger } from 'pino';
import {
  CappedShare,
  type ConcurrencyLimit,
  type DynamicClient,
  errorMessage,
  hasFinalizer,
  type InformerFactory,
  type InformerHandle,
  LOW_PRIORITY,
  type QueueHealth,
  type ResourceRef,
  setFinalizer,
  type WriteVerb,
} from '@scoby/controller-runtime';
import type { InstanceConfig } from './instance-config.ts';
import type { InstanceReconciler } from './reconcile.ts';
import type { EventSink } from './instance-events.ts';
import type { HookDestination } from './hook-request.ts';
import { releaseFinalizer } from './release-finalizer.ts';
import type { ChildStore } from './children/write-children.ts';
import type { ControllerOutcome, InstanceControllerHost } from './controller-host.ts';
import type { ControllerMetrics } from '../config/index.ts';
import { InstanceController, type ChildKind } from './controller.ts';
import type { ChildCachePolicies } from './children/child-cache.ts';
import type { SelectionDecider } from '../selection/selection-decision.ts';
import type { SelectionGateOptions } from './selection-gate.ts';

export interface InstanceControllersOptions {
  client: DynamicClient;
  factory: InformerFactory;
  /** Scoby's own ConfigMaps, which instances' env may read (their informer is the registration controller's). */
  controllerConfigMaps: InformerHandle;
  /** A reconciler for one registration's controller: its per-instance state is that registration's. */
  newReconciler(config: InstanceConfig, store: ChildStore): InstanceReconciler;
  hooks: HookClient;
  events: EventSink;
  metrics: ControllerMetrics;
  /** Slots shared by every registration's reconciles, and the part one registration may hold. */
  concurrency: { shared: ConcurrencyLimit; perRegistration: number };
  workingNamespaces: readonly string[] | undefined;
  logger: Logger;
  /** See WorkQueueOptions.reconcileTimeoutMs. */
  reconcileTimeoutMs?: number;
  /** See the process's ProcessOptions.resyncPeriodDivisor. */
  resyncPeriodDivisor?: number;
  /** Watches each running controller's work queue. */
  health?: QueueHealth;
  /** The registered CRD's resource, for releasing finalizers when no controller runs. */
  crdResource(crdName: string): ResourceRef | undefined;
  /** Called when a starting controller has synced: its registration reports ControllerReady. */
  onSynced(registrationName: string): void;
  /** See the process's ProcessOptions.syncWarnAfterMs. */
  syncWarnAfterMs?: number;
  /** What the child informers keep of each child kind. */
  childCaches: ChildCachePolicies;
  /** Which registration serves which instance (docs/spec/registration.md §6.8). */
  selection?: SelectionDecider;
  /** Says on the registration that an older registration serves an instance it selects. */
  servedByOther?(registrationName: string, instance: string, by: string): void;
  /** The registration's status.instances counts are due again. */
  selectionChanged?(registrationName: string): void;
  /**
   * Active-active replicas: whether this replica holds the registration (docs/spec/registration.md
   * §9); a controller starts only then, and its reconciles' writes are fenced by the registration's
   * Lease. Absent: every registration runs here.
   */
  holds?(registrationName: string): boolean;
  /** The child informers' label selector for this configuration; absent: every child Scoby manages. */
  childSelector?(config: InstanceConfig): string;
}

const DEFAULT_SYNC_WARN_AFTER_MS = 60_000;

/** Runs `task` for every item, at most `limit` at once. */
async function forEachConcurrently<T>(
  items: readonly T[],
  limit: number,
  task: (item: T) => Promise<void>,
): Promise<void> {
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < items.length) await task(items[next++] as T);
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
}

/** The fields of an instance controller's log lines: the registration it runs for and what it serves. */
function describeController(config: InstanceConfig): Record<string, unknown> {
  return {
    registration: config.registrationName,
    crd: config.crd.name,
    version: config.crd.version,
    formFactor: config.plugin.name,
  };
}

export class InstanceControllers implements InstanceControllerHost {
  readonly #options: InstanceControllersOptions;
  readonly #running = new Map<string, InstanceController>();
  /** Controllers whose sync is being waited for, to be announced to their registration. */
  readonly #announcing = new WeakSet<InstanceController>();

  constructor(options: InstanceControllersOptions) {
    this.#options = options;
  }

  crdOf(registrationName: string): string | undefined {
    return this.#running.get(registrationName)?.config.crd.name;
  }

  async ensure(config: InstanceConfig): Promise<ControllerOutcome> {
    const childKinds = await this.#childKinds(config);
    // A registration reconcile that began before a hand-over must not start the controller again.
    if (this.#options.holds?.(config.registrationName) === false) return { kind: 'starting' };
    const existing = this.#running.get(config.registrationName);
    const childSelector = this.#options.childSelector?.(config);
    if (existing && existing.config.instanceResource.version === config.instanceResource.version) {
      if (
        existing.config.revision !== config.revision ||
        (childSelector !== undefined && childSelector !== existing.childSelector)
      ) {
        existing.reconfigure(config, childKinds, childSelector);
        this.#options.logger.info(describeController(config), 'instance controller reconfigured');
      }
    } else {
      if (existing) await this.pause(config.registrationName);
      if (this.#options.holds?.(config.registrationName) === false) return { kind: 'starting' };
      const controller = new InstanceController(
        {
          factory: this.#options.factory,
          childCaches: this.#options.childCaches,
          controllerConfigMaps: this.#options.controllerConfigMaps,
          newReconciler: this.#options.newReconciler,
          concurrency: new CappedShare(
            this.#options.concurrency.shared,
            this.#options.concurrency.perRegistration,
          ),
          observer: this.#options.metrics.queueObserver(
            config.registrationName,
            this.#options.concurrency.perRegistration,
          ),
          logger: this.#options.logger.child({ registration: config.registrationName }),
          ...(this.#options.reconcileTimeoutMs === undefined
            ? {}
            : { reconcileTimeoutMs: this.#options.reconcileTimeoutMs }),
          ...(this.#options.resyncPeriodDivisor === undefined
            ? {}
            : { resyncPeriodDivisor: this.#options.resyncPeriodDivisor }),
          ...(this.#options.health === undefined ? {} : { health: this.#options.health }),
          ...this.#selectionOptions(config.registrationName),
          ...(this.#options.holds === undefined ? {} : { scopedWrites: true }),
          ...(childSelector === undefined ? {} : { childSelector }),
        },
        config,
        childKinds,
      );
      this.#running.set(config.registrationName, controller);
      this.#options.logger.info(describeController(config), 'instance controller started');
    }
    const controller = this.#running.get(config.registrationName)!;
    if (controller.hasSynced()) return { kind: 'started' };
    // A new controller, or one reconfigured to informers that have to list first (another child
    // kind, another selector): the registration hears of their sync, or it stays "starting".
    this.#announceSyncOnce(controller);
    return { kind: 'starting' };
  }

  /** Starts announcing the controller's sync unless an announcement of it is under way. */
  #announceSyncOnce(controller: InstanceController): void {
    if (this.#announcing.has(controller)) return;
    this.#announcing.add(controller);
    void this.#announceSync(controller).finally(() => this.#announcing.delete(controller));
  }

  /**
   * Tells the registration once the controller's caches have synced, however long that takes: a
   * registration is reconciled again only then (ControllerReady stays Unknown until it is). A slow
   * sync is logged each time the wait runs out, and waited for again while the controller runs.
   */
  async #announceSync(controller: InstanceController): Promise<void> {
    const name = controller.config.registrationName;
    const waitMs = this.#options.syncWarnAfterMs ?? DEFAULT_SYNC_WARN_AFTER_MS;
    while (this.#running.get(name) === controller) {
      if (await controller.waitForSync(waitMs)) {
        if (this.#running.get(name) !== controller) return;
        // As the initial list's adds: behind the changes (docs/spec/children-and-status.md §9).
        controller.enqueueAll(LOW_PRIORITY);
        this.#options.onSynced(name);
        return;
      }
      if (this.#running.get(name) === controller) {
        this.#options.logger.warn(
          // Its configuration now: a reconfiguration may have come while this wait ran.
          { ...describeController(controller.config), waitedMs: waitMs },
          'instance controller caches not synced yet; still waiting',
        );
      }
    }
  }

  #selectionOptions(name: string): { selection?: SelectionGateOptions } {
    const { selection, servedByOther, selectionChanged } = this.#options;
    return selection === undefined
      ? {}
      : {
          selection: {
            selection,
            servedByOther: (instance, by) => servedByOther?.(name, instance, by),
            selectionChanged: () => selectionChanged?.(name),
          },
        };
  }

  selectionCounts(registrationName: string): { served: number; servedByOthers: number } | undefined {
    const controller = this.#running.get(registrationName);
    return controller?.hasSynced() ? controller.selectionCounts() : undefined;
  }

  /** Per running, synced registration controller: its served instances whose Ready is not True. */
  notReadyInstances(): Map<string, number> {
    const counts = new Map<string, number>();
    for (const [name, controller] of this.#running) {
      if (controller.hasSynced()) counts.set(name, controller.notReadyCount());
    }
    return counts;
  }

  async pause(registrationName: string): Promise<void> {
    const controller = this.#running.get(registrationName);
    if (!controller) return;
    this.#running.delete(registrationName);
    await controller.stop();
    this.#options.logger.info({ registration: registrationName }, 'instance controller stopped');
  }

  async release(
    registrationName: string,
    crdName: string,
    finalize: () => Promise<HookDestination | undefined>,
  ): Promise<void> {
    const controller = this.#running.get(registrationName);
    const resource = controller?.config.instanceResource ?? this.#options.crdResource(crdName);
    const verb = controller?.config.writeVerbs.finalizers ?? 'patch';
    await this.pause(registrationName);
    if (!resource) return;
    const target = await finalize();
    // An instance an older registration serves keeps its finalizer: that one holds it (§6.8).
    const held = (await this.#listInstances(resource)).filter(
      (instance) =>
        hasFinalizer(instance, FINALIZER) &&
        this.#options.selection?.decide(registrationName, crdName, instance).kind !== 'other',
    );
    const failures: string[] = [];
    // One finalize call per held instance may wait out the hook timeout: several at once, bounded.
    await forEachConcurrently(held, this.#options.concurrency.perRegistration, async (instance) => {
      try {
        await this.#releaseInstance(instance, resource, target, verb);
      } catch (error) {
        failures.push(`${instance.metadata.namespace}/${instance.metadata.name}: ${errorMessage(error)}`);
      }
    });
    if (failures.length > 0) {
      throw new Error(`releasing finalizers failed: ${failures.sort(compareByteOrder).join('; ')}`);
    }
  }

  async #releaseInstance(
    instance: KubeObject,
    resource: ResourceRef,
    destination: HookDestination | undefined,
    verb: WriteVerb,
  ): Promise<void> {
    const { client, hooks, events } = this.#options;
    await releaseFinalizer(instance, {
      destination,
      callHook: (call) => hooks.call(call),
      removeFinalizer: (current) => setFinalizer(client, resource, current, FINALIZER, false, { verb }),
      events,
    });
  }

  async stopAll(): Promise<void> {
    await Promise.all([...this.#running.keys()].map((name) => this.pause(name)));
  }

  async #listInstances(resource: ResourceRef): Promise<KubeObject[]> {
    const namespaces = this.#options.workingNamespaces ?? [undefined];
    const lists = await Promise.all(
      namespaces.map((namespace) => this.#options.client.list(resource, namespace)),
    );
    return lists.flatMap((list) => list.items);
  }

  async #childKinds(config: InstanceConfig): Promise<ChildKind[]> {
    const kinds: ChildKind[] = [];
    for (const { apiVersion, kind } of config.prunableKinds) {
      const resource = await this.#options.client.resourceFor(apiVersion, kind);
      if (resource) kinds.push({ apiVersion, kind, resource });
    }
    return kinds;
  }
}
