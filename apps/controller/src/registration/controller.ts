/**
 * The registration controller (docs/spec/registration.md §6): watches CRDRegistrations, CRDs and Scoby's
 * own ConfigMaps, reconciles registrations and runs one instance controller per active registration.
 */
import { resolveDestination } from '@scoby/address';
import { createObjectReader } from '@scoby/address-kubernetes';
import type { RenderLookups } from '@scoby/env';
import { labelValue, NAME_LABEL, type FormFactorRegistry } from '@scoby/formfactor';
import { compareByteOrder } from '@scoby/kube-objects';
import { AnswerBudget, createHookClient, type HookClient } from '@scoby/hooks-v1/client';
import type { CRDRegistration } from '@scoby/registration';
import {
  ConcurrencyLimit,
  Controller,
  DynamicClient,
  EventRecorder,
  InformerFactory,
  type InformerHandle,
  type ObjectKey,
  QueueHealth,
  type ResourceRef,
  type WorkSharing,
  writeScopes,
} from '@scoby/controller-runtime';
import { inspectCrd } from '../crd/inspect.ts';
import { resolveHookTarget } from '../hook-modules/hook-target.ts';
import { loadedHandlers } from '../hook-modules/load.ts';
import { InstanceControllers } from '../instance/controllers.ts';
import { MANAGED_BY_SELECTOR } from '../instance/controller.ts';
import type { InstanceConfig } from '../instance/instance-config.ts';
import type { ChildCachePolicies } from '../instance/children/child-cache.ts';
import { InstanceReconciler } from '../instance/reconcile.ts';
import type { EventSink } from '../instance/instance-events.ts';
import {
  type ControllerMetrics,
  DEFAULT_HOOK_ADDRESS_REFRESH_MS,
  DEFAULT_RECONCILE_TIMEOUT_MS,
} from '../config/index.ts';
import { AccessReviewer } from './access/access-reviewer.ts';
import { registrationEvents } from './events.ts';
import { REGISTRATION_RESOURCE, RegistrationReconciler } from './reconcile.ts';
import { InstanceSelection } from './instance-selection.ts';
import { EventBudget } from './event-budget.ts';
import type { RegistrationControllerOptions } from './options.ts';

/** InstanceServedByOther Events per registration and minute (docs/spec/registration.md §6.8). */
const SERVED_BY_OTHER_EVENTS_PER_MINUTE = 10;

/** Registrations reconciled at once. */
const REGISTRATION_WORKERS = 2;

/** The process-wide bound on reconciles, in multiples of one registration's. */
const PROCESS_SLOTS_PER_REGISTRATION_SLOT = 4;

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

/**
 * The registration controller and everything it runs while this process leads: the informers on
 * CRDRegistrations, CRDs and Scoby's ConfigMaps, the registration work queue and reconciler, and the
 * instance controllers of the active registrations. With active-active replicas (`sharing`) every
 * replica runs it, and it reconciles, runs controllers for and writes on only the registrations
 * whose Leases this replica holds, each in that registration's write scope (docs/spec/registration.md §9).
 */
export class RegistrationController {
  readonly #controller: Controller<CRDRegistration>;
  readonly #crds: InformerHandle;
  readonly #configMaps: InformerHandle;
  readonly #controllers: InstanceControllers;
  readonly #hookClient: HookClient;
  readonly #unwatchHealth: () => void;
  readonly #registrationReconciler: RegistrationReconciler;
  readonly #access: AccessReviewer;
  readonly #selection: InstanceSelection;
  readonly #sharing: Pick<WorkSharing, 'owns' | 'kick'> | undefined;
  readonly #sink: EventSink;
  #served: Promise<ReadonlySet<string>> | undefined;

  constructor(
    options: RegistrationControllerOptions,
    client: DynamicClient,
    formFactors: FormFactorRegistry,
    factory: InformerFactory,
    events: EventRecorder,
    metrics: ControllerMetrics,
    health: QueueHealth,
    answerBudget: AnswerBudget,
    childCaches: ChildCachePolicies,
    sharing?: Pick<WorkSharing, 'owns' | 'kick'>,
  ) {
    this.#sharing = sharing;
    const now = options.now ?? (() => new Date());
    const reconcileTimeoutMs = options.reconcileTimeoutMs ?? DEFAULT_RECONCILE_TIMEOUT_MS;
    const reader = createObjectReader(options.kubeConfig, { requestTimeoutMs: options.requestTimeoutMs });
    const clusterDomain = options.clusterDomain;
    const hookModules = options.hookModules ?? new Map();
    this.#hookClient = createHookClient({
      formFactorFormat: options.hookFormFactorFormat ?? 'string',
      answerBudget,
      modules: loadedHandlers(hookModules),
    });
    this.#crds = factory.acquire({ resource: CRD_RESOURCE });
    this.#configMaps = factory.acquire({ resource: CONFIGMAP_RESOURCE, namespace: options.scobyNamespace });
    const sink: EventSink = {
      emit: (object, type, reason, message) => void events.emit(object, type, reason, message),
    };
    this.#sink = sink;
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
      recordHookFailureIgnored: (registration: string) => metrics.recordHookFailureIgnored(registration),
    };
    this.#selection = new InstanceSelection({
      factory,
      registrations: () => this.#registrations(),
      namespaceChanged: (namespace, priority) => this.#controllers.namespaceChanged(namespace, priority),
    });
    const servedByOtherBudget = new EventBudget(SERVED_BY_OTHER_EVENTS_PER_MINUTE, 60_000, () =>
      now().getTime(),
    );
    this.#controllers = new InstanceControllers({
      selection: this.#selection,
      servedByOther: (name, instance, by) => {
        const registration = this.#controller.get(this.#controller.keyFor('', name));
        if (!registration || !servedByOtherBudget.take(name)) return;
        sink.emit(
          registration,
          'Normal',
          'InstanceServedByOther',
          `instance ${instance} is served by CRDRegistration "${by}", which is older and selects it too`,
        );
      },
      selectionChanged: (name) => this.#enqueue(name),
      client,
      factory,
      controllerConfigMaps: this.#configMaps,
      newReconciler: (config, store) => new InstanceReconciler(reconcilerDependencies, config, store),
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
      ...(options.resyncPeriodDivisor === undefined
        ? {}
        : { resyncPeriodDivisor: options.resyncPeriodDivisor }),
      ...(options.syncWarnAfterMs === undefined ? {} : { syncWarnAfterMs: options.syncWarnAfterMs }),
      health,
      crdResource: (name) => {
        const crd = this.#crds.informer.get(undefined, name);
        const info = crd ? inspectCrd(crd) : undefined;
        return info?.version
          ? { group: info.group, version: info.version, resource: info.plural, namespaced: true }
          : undefined;
      },
      onSynced: (name) => this.#enqueue(name),
      childCaches,
      ...(sharing === undefined
        ? {}
        : {
            holds: (name: string) => sharing.owns(name),
            childSelector: (config: InstanceConfig) => childSelectorOf(config, this.#registrations()),
          }),
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
      registrations: () => this.#registrations(),
      servedGroupVersions: () => (this.#served ??= servedGroupVersions(client)),
      resolveHook: (hook) =>
        resolveHookTarget(
          hook,
          (address) => resolveDestination(address, { clusterDomain, reader }),
          hookModules,
        ),
      resourceForCrd: (info) => ({
        group: info.group,
        version: info.version,
        resource: info.plural,
        namespaced: true,
      }),
      hookRefreshMs: options.hookAddressRefreshMs ?? DEFAULT_HOOK_ADDRESS_REFRESH_MS,
      selection: this.#selection,
      releaseSettled: (name) => this.#enqueue(name),
      now,
      logger: options.logger,
    });
    this.#registrationReconciler = registrationReconciler;
    this.#controller = new Controller<CRDRegistration>({
      name: 'crdregistrations',
      factory,
      for: { resource: REGISTRATION_RESOURCE, group: REGISTRATION_RESOURCE.group, kind: 'CRDRegistration' },
      reconcile: async (key, context) => {
        // Another replica holds it; the hand-over that brings it here enqueues it again.
        if (sharing && !sharing.owns(key.name)) return;
        const result = await registrationReconciler.reconcile(
          this.#controller.get(key),
          key.name,
          context.signal,
        );
        if (result && 'error' in result) {
          const message = result.error instanceof Error ? result.error.message : String(result.error);
          options.logger.error({ registration: key.name, message }, 'registration reconcile failed');
        }
        return result;
      },
      ...(sharing === undefined ? {} : { writeScope: (key: ObjectKey) => key.name }),
      concurrency: REGISTRATION_WORKERS,
      observer: metrics.queueObserver('crdregistrations', REGISTRATION_WORKERS),
      reconcileTimeoutMs,
      logger: options.logger,
    });
    this.#unwatchHealth = health.watch('crdregistrations', this.#controller);
    this.#wire();
    // A registration that comes or goes changes the assignment: the replicas look at once.
    if (sharing) {
      this.#controller.informer.addHandlers({ add: () => sharing.kick(), delete: () => sharing.kick() });
    }
    // Condition changes become Events; an error line for each Warning.
    this.#controller.informer.addHandlers({
      update: (registration, old) => {
        const name = registration.metadata.name ?? '';
        // Only the replica that wrote the status says so.
        if (sharing && !sharing.owns(name)) return;
        this.#inScope(name, () => {
          for (const { type, reason, message } of registrationEvents(old, registration)) {
            sink.emit(registration, type, reason, message);
            const fields = { registration: name, reason, message };
            if (type === 'Warning') options.logger.error(fields, 'registration not ready');
          }
        });
      },
    });
  }

  /** A request was refused (403): permissions changed, so the registrations are checked again. */
  forbidden(): void {
    if (!this.#access.forgetAfterForbidden()) return;
    this.#controller.enqueueAll();
  }

  /** Every registration's name, as the cache holds them. */
  registrationNames(): string[] {
    return this.#registrations().map((registration) => registration.metadata.name ?? '');
  }

  /** Active-active: this replica now holds the registration; it is reconciled here from now on. */
  acquired(name: string, replica: string): void {
    const registration = this.#controller.get(this.#controller.keyFor('', name));
    if (registration) {
      this.#inScope(name, () =>
        this.#sink.emit(
          registration,
          'Normal',
          'RegistrationAcquired',
          `registration acquired by replica ${replica}`,
        ),
      );
    }
    this.#enqueue(name);
  }

  /**
   * Active-active: this replica no longer holds the registration: its instance controller stops
   * (in-flight reconciles end, their writes already fenced) before its Lease is released.
   */
  async released(name: string): Promise<void> {
    await this.#controllers.pause(name);
  }

  /** Writes made by `run` are the registration's: fenced by its Lease in active-active mode. */
  #inScope(name: string, run: () => void): void {
    if (this.#sharing) writeScopes.run(name, run);
    else run();
  }

  synced(): boolean {
    return this.#controller.hasSynced() && this.#configMaps.informer.hasSynced();
  }

  /**
   * Cuts every hook call in flight and later: a reconcile waiting on a hook (whose timeout may be
   * days) ends without recording anything instead of holding a stopping process past its grace period.
   */
  cutHookCalls(): void {
    this.#hookClient.cutCalls();
  }

  async stop(): Promise<void> {
    await this.#controller.stop();
    this.#unwatchHealth();
    await this.#registrationReconciler.drainReleases();
    await this.#controllers.stopAll();
    this.#selection.stop();
    this.#crds.release();
    this.#configMaps.release();
    this.#hookClient.close();
  }

  #registrations(): CRDRegistration[] {
    return this.#controller.informer.informer.list();
  }

  #enqueue(name: string): void {
    this.#controller.enqueue(this.#controller.keyFor('', name));
  }

  /** The registrations naming the CRD `crdName`. */
  #registrationsFor(crdName: string): ObjectKey[] {
    return this.#registrations()
      .filter((registration) => registration.spec?.crd === crdName)
      .map((registration) => this.#controller.keyFor('', registration.metadata.name ?? ''));
  }

  #wire(): void {
    // Ownership of a CRD can move between registrations (docs/spec/registration.md §6.4): an event
    // of one registration reconciles every registration of its CRD, before and after the change.
    this.#controller.watch<CRDRegistration>({
      source: this.#controller.informer,
      map: ({ object, old }) =>
        [...new Set([object.spec?.crd, old?.spec?.crd])].flatMap((crd) =>
          crd ? this.#registrationsFor(crd) : [],
        ),
    });
    const forgetServed = () => {
      this.#served = undefined;
    };
    this.#crds.addHandlers({ add: forgetServed, update: forgetServed, delete: forgetServed });
    this.#controller.watch({
      source: this.#crds,
      map: ({ object }) => this.#registrationsFor(object.metadata.name ?? ''),
    });
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

/**
 * Active-active replicas cache only the children of the registrations they hold: those of the
 * registrations of the same CRD, since an instance moving between them (§6.4, §6.8) prunes the
 * other's children and a deleted instance is finalized by the one whose children it has
 * (docs/spec/registration.md §9.6).
 */
export function childSelectorOf(config: InstanceConfig, registrations: readonly CRDRegistration[]): string {
  const names = new Set([config.registrationName]);
  for (const registration of registrations) {
    if (registration.spec?.crd === config.crd.name && registration.metadata.name)
      names.add(registration.metadata.name);
  }
  const values = [...new Set([...names].map(labelValue))].sort(compareByteOrder);
  return `${MANAGED_BY_SELECTOR},${NAME_LABEL} in (${values.join(',')})`;
}
