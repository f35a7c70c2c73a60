/**
 * The Scoby controller process: watches CRDRegistrations, CRDs and Scoby's own ConfigMaps, runs one
 * instance controller per active registration, and reconciles only while it holds the leader Lease.
 */
import type { KubeConfig } from '@kubernetes/client-node';
import { resolveDestination } from '@scoby/address';
import { createObjectReader } from '@scoby/address-kubernetes';
import type { RenderLookups } from '@scoby/env';
import { createFormFactorRegistry, type FormFactorPlugin, type FormFactorRegistry } from '@scoby/formfactor';
import { deploymentFormFactor } from '@scoby/formfactor-deployment';
import { knativeServiceFormFactor } from '@scoby/formfactor-ksvc';
import {
  AnswerBudget,
  createHookClient,
  type FormFactorFormat,
  type HookClient,
} from '@scoby/hooks-v1/client';
import type { KubeObject } from '@scoby/kube-objects';
import type { CRDRegistration, Destination } from '@scoby/registration';
import type { Logger } from 'pino';
import { inspectCrd } from '../crd/inspect.ts';
import {
  ConcurrencyLimit,
  DEFAULT_RENEW_DEADLINE_MS,
  DEFAULT_REQUEST_TIMEOUT_MS,
  defaultIdentity,
  DynamicClient,
  dynamicLeaseClient,
  EventRecorder,
  InformerFactory,
  type InformerHandle,
  LeaderElector,
  QueueHealth,
  type ResourceRef,
  stripManagedFields,
  WorkQueue,
} from '@scoby/controller-runtime';
import { InstanceReconciler, type EventSink } from '../instance/reconcile.ts';
import { REGISTRATION_RESOURCE, RegistrationReconciler } from '../registration/reconcile.ts';
import { AccessReviewer } from '../access/access-reviewer.ts';
import {
  COMPONENT,
  type ControllerMetrics,
  createMetrics,
  DEFAULT_HOOK_ADDRESS_REFRESH_MS,
  DEFAULT_RECONCILE_TIMEOUT_MS,
  type LeaderElectionConfig,
} from '../runtime/index.ts';
import { registrationEvents } from '../status/registration-events.ts';
import { InstanceControllers } from './instance-controllers.ts';

export interface ControllerOptions {
  kubeConfig: KubeConfig;
  scobyNamespace: string;
  workingNamespaces?: readonly string[] | undefined;
  clusterDomain: string;
  /**
   * Reconciles at once per registration (controller-runtime's MaxConcurrentReconciles); the
   * process-wide bound is four times this, so one registration never holds every slot.
   */
  concurrency: number;
  plugins?: readonly FormFactorPlugin[];
  hookFormFactorFormat?: FormFactorFormat;
  /** Re-resolution period of hook addresses given by ref (default one minute). */
  hookAddressRefreshMs?: number;
  leaderElection: LeaderElectionConfig;
  leaseDurationMs?: number;
  resyncMs?: number;
  /** How long one API request may go unanswered before it is abandoned (default 30 s). */
  requestTimeoutMs?: number;
  /** A watch that delivers neither an event nor a bookmark for this long is restarted (default 90 s). */
  watchSilenceMs?: number;
  /** A reconcile still running after this long frees its slot and is retried (default 5 min). */
  reconcileTimeoutMs?: number;
  /** A work queue with work and no finished reconcile for this long fails /healthz (default: reconcile timeout + 1 min). */
  stallAfterMs?: number;
  logger: Logger;
  metrics?: ControllerMetrics;
  now?: () => Date;
}

export interface RunningController {
  readonly client: DynamicClient;
  readonly metrics: ControllerMetrics;
  isLeader(): boolean;
  /** Synced and either leading or standing by. */
  isReady(): boolean;
  /** Why the process is not healthy (a stalled work queue), one sentence each; empty when it is. */
  healthProblems(): string[];
  /**
   * Graceful: stops taking work, finishes in-flight reconciles, releases the Lease. With
   * `releaseLease: false` the Lease is left to expire, as after a crash (failover tests).
   */
  stop(options?: { releaseLease?: boolean }): Promise<void>;
}

/** Registrations reconciled at once. */
const REGISTRATION_WORKERS = 2;

/** The process-wide bound on reconciles, in multiples of one registration's. */
const PROCESS_SLOTS_PER_REGISTRATION_SLOT = 4;

/**
 * How much longer than the reconcile deadline a queue may go without a finished reconcile before
 * it counts as stalled: only reconciles that never return can stall a queue.
 */
const STALL_MARGIN_MS = 60_000;

const CRD_RESOURCE: ResourceRef = {
  group: 'apiextensions.k8s.io',
  version: 'v1',
  resource: 'customresourcedefinitions',
  namespaced: false,
};
const CONFIGMAP_RESOURCE: ResourceRef = {
  group: '',
  version: 'v1',
  resource: 'configmaps',
  namespaced: true,
};

export function builtInFormFactors(plugins: readonly FormFactorPlugin[]): FormFactorRegistry {
  const created = createFormFactorRegistry({
    builtIns: [deploymentFormFactor as FormFactorPlugin, knativeServiceFormFactor as FormFactorPlugin],
    plugins,
  });
  if (!created.ok) throw new Error(created.messages.join('; '));
  return created.registry;
}

class Controller implements RunningController {
  readonly client: DynamicClient;
  readonly metrics: ControllerMetrics;
  readonly #options: ControllerOptions;
  readonly #formFactors: FormFactorRegistry;
  readonly #factory: InformerFactory;
  readonly #events: EventRecorder;
  readonly #elector: LeaderElector | undefined;
  /** The elector's own client: not fenced, since renewing the Lease is what keeps writes allowed. */
  readonly #leaseClient: DynamicClient | undefined;
  readonly #health: QueueHealth;
  /** One for the process, across leadership terms: what hook answers may hold at once. */
  readonly #answerBudget = new AnswerBudget();
  #work: Work | undefined;
  #leading = false;

  constructor(options: ControllerOptions) {
    this.#options = options;
    const requestTimeoutMs = options.requestTimeoutMs ?? DEFAULT_REQUEST_TIMEOUT_MS;
    this.metrics = options.metrics ?? createMetrics();
    const onResponse = this.metrics.recordRequest;
    this.client = new DynamicClient(options.kubeConfig, {
      requestTimeoutMs,
      onResponse,
      // Every write of the controller (children, status, finalizers, Events) passes the fence.
      ...(options.leaderElection.enabled
        ? { writeFence: { refusal: () => this.#elector?.writeRefusal() } }
        : {}),
      onForbidden: () => this.#work?.forbidden(),
    });
    this.#health = new QueueHealth(
      options.stallAfterMs ?? (options.reconcileTimeoutMs ?? DEFAULT_RECONCILE_TIMEOUT_MS) + STALL_MARGIN_MS,
    );
    this.#formFactors = builtInFormFactors(options.plugins ?? []);
    this.#factory = new InformerFactory({
      lister: this.client,
      workingNamespaces: options.workingNamespaces,
      // The caches hold every instance and child; the one reader of managedFields (the hand-over
      // of a created child's fields in write-children.ts) reads the object from the API server.
      transform: stripManagedFields,
      ...(options.resyncMs === undefined ? {} : { resyncMs: options.resyncMs }),
      ...(options.watchSilenceMs === undefined ? {} : { watchSilenceMs: options.watchSilenceMs }),
      logger: options.logger,
    });
    this.#events = new EventRecorder({ client: this.client, component: COMPONENT, logger: options.logger });
    if (options.leaderElection.enabled) {
      const timings =
        options.leaseDurationMs === undefined
          ? {}
          : {
              leaseDurationMs: options.leaseDurationMs,
              renewDeadlineMs: Math.round(options.leaseDurationMs * 0.66),
              retryPeriodMs: Math.round(options.leaseDurationMs * 0.2),
            };
      // As client-go bounds a renewal by the renew deadline, no Lease call may outlast it.
      this.#leaseClient = new DynamicClient(options.kubeConfig, {
        requestTimeoutMs: Math.min(requestTimeoutMs, timings.renewDeadlineMs ?? DEFAULT_RENEW_DEADLINE_MS),
        onResponse,
      });
      const leaseName = options.leaderElection.leaseName;
      this.metrics.setLeader(leaseName, false);
      this.#elector = new LeaderElector({
        client: dynamicLeaseClient(this.#leaseClient),
        namespace: options.leaderElection.namespace,
        name: options.leaderElection.leaseName,
        identity: defaultIdentity(),
        ...timings,
        onStartedLeading: () => {
          this.metrics.setLeader(leaseName, true);
          this.#lead();
        },
        onStoppedLeading: (reason) => {
          this.metrics.setLeader(leaseName, false);
          // Writes already on the wire must not land once another replica may have taken over.
          this.client.abortWrites(`this process stopped leading: ${reason}`);
          void this.#stopWork();
        },
        logger: options.logger,
      });
    }
  }

  start(): void {
    if (this.#elector) this.#elector.start();
    else this.#lead();
  }

  isLeader(): boolean {
    return this.#leading;
  }

  isReady(): boolean {
    if (this.#elector && !this.#leading) return this.#elector.isHealthy();
    return this.#work?.synced() ?? false;
  }

  healthProblems(): string[] {
    return this.#health.problems();
  }

  async stop(options: { releaseLease?: boolean } = {}): Promise<void> {
    await this.#stopWork();
    if (this.#elector) {
      if (options.releaseLease === false) await this.#elector.stop();
      else await this.#elector.release();
    }
    this.#factory.stopAll();
    this.client.close();
    this.#leaseClient?.close();
  }

  #lead(): void {
    this.#leading = true;
    this.#work = new Work(
      this.#options,
      this.client,
      this.#formFactors,
      this.#factory,
      this.#events,
      this.metrics,
      this.#health,
      this.#answerBudget,
    );
  }

  async #stopWork(): Promise<void> {
    this.#leading = false;
    const work = this.#work;
    this.#work = undefined;
    await work?.stop();
  }
}

/** Everything that runs while leading. */
class Work {
  readonly #registrations: InformerHandle<CRDRegistration>;
  readonly #crds: InformerHandle;
  readonly #configMaps: InformerHandle;
  readonly #queue: WorkQueue;
  readonly #controllers: InstanceControllers;
  readonly #hookClient: HookClient;
  readonly #unwatchHealth: () => void;
  readonly #registrationReconciler: RegistrationReconciler;
  readonly #access: AccessReviewer;
  #served: Promise<ReadonlySet<string>> | undefined;

  constructor(
    options: ControllerOptions,
    client: DynamicClient,
    formFactors: FormFactorRegistry,
    factory: InformerFactory,
    events: EventRecorder,
    metrics: ControllerMetrics,
    health: QueueHealth,
    answerBudget: AnswerBudget,
  ) {
    const now = options.now ?? (() => new Date());
    const reconcileTimeoutMs = options.reconcileTimeoutMs ?? DEFAULT_RECONCILE_TIMEOUT_MS;
    const reader = createObjectReader(options.kubeConfig, { requestTimeoutMs: options.requestTimeoutMs });
    const clusterDomain = options.clusterDomain;
    this.#hookClient = createHookClient({
      formFactorFormat: options.hookFormFactorFormat ?? 'string',
      answerBudget,
    });
    this.#registrations = factory.acquire<CRDRegistration>({ resource: REGISTRATION_RESOURCE });
    this.#crds = factory.acquire({ resource: CRD_RESOURCE });
    this.#configMaps = factory.acquire({ resource: CONFIGMAP_RESOURCE, namespace: options.scobyNamespace });
    const sink: EventSink = {
      emit: (object, type, reason, message) => void events.emit(object, type, reason, message),
    };
    const lookups: RenderLookups = {
      resolveAddress: (destination, namespace) =>
        resolveDestination(destination, { namespace, clusterDomain, reader }),
      controllerConfigMap: (name) => {
        const configMap = this.#configMaps.informer.get(options.scobyNamespace, name);
        return configMap ? ((configMap.data ?? {}) as Record<string, string>) : undefined;
      },
      controllerNamespace: options.scobyNamespace,
    };
    const reconcilerDependencies = {
      client,
      lookups,
      hooks: this.#hookClient,
      events: sink,
      clusterDomain,
      now,
      logger: options.logger,
      recordHookCall: (registration: string, ms: number, outcome: 'success' | 'failure') =>
        metrics.recordHookCall(registration, ms, outcome),
    };
    this.#controllers = new InstanceControllers({
      client,
      factory,
      newReconciler: () => new InstanceReconciler(reconcilerDependencies),
      hooks: this.#hookClient,
      events: sink,
      metrics,
      concurrency: {
        shared: new ConcurrencyLimit(options.concurrency * PROCESS_SLOTS_PER_REGISTRATION_SLOT),
        perRegistration: options.concurrency,
      },
      workingNamespaces: options.workingNamespaces,
      logger: options.logger,
      reconcileTimeoutMs,
      health,
      crdResource: (name) => {
        const crd = this.#crds.informer.get(undefined, name);
        const info = crd ? inspectCrd(crd) : undefined;
        return info?.version
          ? { group: info.group, version: info.version, resource: info.plural, namespaced: true }
          : undefined;
      },
      onSynced: (name) => this.#queue.add(name),
    });
    this.#access = new AccessReviewer(client, {
      namespaces: options.workingNamespaces,
      now: () => now().getTime(),
    });
    const registrationReconciler = new RegistrationReconciler({
      client,
      access: this.#access,
      events: sink,
      formFactors,
      controllers: this.#controllers,
      crd: (name) => this.#crds.informer.get(undefined, name),
      crdsSynced: () => this.#crds.informer.hasSynced(),
      registrations: () => this.#registrations.informer.list(),
      servedGroupVersions: () => (this.#served ??= servedGroupVersions(client)),
      resolveHookAddress: (address: Destination) => resolveDestination(address, { clusterDomain, reader }),
      resourceForCrd: (info) => ({
        group: info.group,
        version: info.version,
        resource: info.plural,
        namespaced: true,
      }),
      hookRefreshMs: options.hookAddressRefreshMs ?? DEFAULT_HOOK_ADDRESS_REFRESH_MS,
      releaseSettled: (name) => this.#queue.add(name),
      now,
    });
    this.#registrationReconciler = registrationReconciler;
    this.#queue = new WorkQueue({
      reconcile: async (name) => {
        const outcome = await registrationReconciler.reconcile(
          this.#registrations.informer.get(undefined, name),
          name,
        );
        if (outcome.kind === 'retry') {
          options.logger.error(
            { registration: name, message: outcome.reason },
            'registration reconcile failed',
          );
          return { error: new Error(outcome.reason) };
        }
        return outcome.kind === 'done' && outcome.refreshAfterMs !== undefined
          ? { requeueAfterMs: outcome.refreshAfterMs }
          : undefined;
      },
      concurrency: REGISTRATION_WORKERS,
      observer: metrics.queueObserver('crdregistrations', REGISTRATION_WORKERS),
      reconcileTimeoutMs,
      logger: options.logger.child({ queue: 'crdregistrations' }),
    });
    this.#unwatchHealth = health.watch('crdregistrations', this.#queue);
    this.#wire();
    this.#registrations.addHandlers({
      update: (registration, old) => {
        for (const { type, reason, message } of registrationEvents(old, registration)) {
          sink.emit(registration, type, reason, message);
          const fields = { registration: registration.metadata.name, reason, message };
          if (type === 'Warning') options.logger.error(fields, 'registration not ready');
        }
      },
    });
  }

  /** A request was refused (403): permissions changed, so the registrations are checked again. */
  forbidden(): void {
    if (!this.#access.forgetAfterForbidden()) return;
    for (const registration of this.#registrations.informer.list())
      this.#queue.add(registration.metadata.name ?? '');
  }

  synced(): boolean {
    return (
      this.#registrations.informer.hasSynced() &&
      this.#crds.informer.hasSynced() &&
      this.#configMaps.informer.hasSynced()
    );
  }

  async stop(): Promise<void> {
    await this.#queue.shutdown({ drain: true });
    this.#unwatchHealth();
    await this.#registrationReconciler.drainReleases();
    await this.#controllers.stopAll();
    this.#registrations.release();
    this.#crds.release();
    this.#configMaps.release();
    this.#hookClient.close();
  }

  #wire(): void {
    const registrationsFor = (crdName: string) =>
      this.#registrations.informer.list().filter((registration) => registration.spec?.crd === crdName);
    const onRegistration = (registration: CRDRegistration, old?: CRDRegistration) => {
      this.#queue.add(registration.metadata.name ?? '');
      // Ownership of a CRD can move between registrations (docs/spec/registration.md §6.4).
      for (const crd of new Set([registration.spec?.crd, old?.spec?.crd])) {
        if (crd) for (const other of registrationsFor(crd)) this.#queue.add(other.metadata.name ?? '');
      }
    };
    this.#registrations.addHandlers({
      add: (r) => onRegistration(r),
      update: (r, old) => onRegistration(r, old),
      delete: (r) => onRegistration(r),
    });
    const onCrd = (crd: KubeObject) => {
      this.#served = undefined;
      for (const registration of registrationsFor(crd.metadata.name ?? ''))
        this.#queue.add(registration.metadata.name ?? '');
    };
    this.#crds.addHandlers({ add: onCrd, update: onCrd, delete: onCrd });
    const onConfigMap = (configMap: KubeObject) => {
      for (const controller of this.#controllers.readingConfigMap(configMap.metadata.name ?? ''))
        controller.enqueueAll();
    };
    this.#configMaps.addHandlers({ add: onConfigMap, update: onConfigMap, delete: onConfigMap });
  }
}

/** Served group/versions as apiVersion strings, from discovery. */
async function servedGroupVersions(client: DynamicClient): Promise<ReadonlySet<string>> {
  const core = await client.request<{ versions?: string[] }>('GET', '/api');
  const groups = await client.request<{ groups?: { versions?: { groupVersion: string }[] }[] }>(
    'GET',
    '/apis',
  );
  return new Set([
    ...(core.versions ?? []),
    ...(groups.groups ?? []).flatMap((group) =>
      (group.versions ?? []).map((version) => version.groupVersion),
    ),
  ]);
}

export function startController(options: ControllerOptions): RunningController {
  const controller = new Controller(options);
  controller.start();
  return controller;
}
