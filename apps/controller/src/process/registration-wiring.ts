/**
 * The composition root of one leadership term: builds the registration controller's collaborators
 * (hook client, informers, instance selection, instance controllers, access reviewer, registration
 * reconciler) from the process's shared parts and the options, and hands them to it. Wiring only:
 * what each part does is in its own module.
 */
import { resolveDestination } from '@scoby/address';
import { createObjectReader } from '@scoby/address-kubernetes';
import type { RenderLookups } from '@scoby/env';
import type { FormFactorRegistry } from '@scoby/formfactor';
import type { CRDRegistration } from '@scoby/registration';
import { type AnswerBudget, createHookClient } from '@scoby/hooks-v1/client';
import {
  ConcurrencyLimit,
  type DynamicClient,
  type EventRecorder,
  type InformerFactory,
  type QueueHealth,
  type ResourceRef,
  type WorkSharing,
} from '@scoby/controller-runtime';
import { inspectCrd } from '../crd/inspect.ts';
import { resolveHookTarget } from '../hook-modules/hook-target.ts';
import { loadedHandlers } from '../hook-modules/load.ts';
import { InstanceControllers } from '../instance/controllers.ts';
import type { InstanceConfig } from '../instance/instance-config.ts';
import type { ChildCachePolicies } from '../instance/children/child-cache.ts';
import { InstanceReconciler } from '../instance/reconcile.ts';
import type { EventSink } from '../instance/instance-events.ts';
import {
  type ControllerMetrics,
  type HookCallOutcome,
  DEFAULT_HOOK_ADDRESS_REFRESH_MS,
  DEFAULT_RECONCILE_TIMEOUT_MS,
} from '../config/index.ts';
import { AccessReviewer } from '../registration/access/access-reviewer.ts';
import { RegistrationReconciler } from '../registration/reconcile.ts';
import { discoverGroupVersions, ServedGroupVersions } from '../registration/served-group-versions.ts';
import { InstanceSelection } from '../registration/instance-selection.ts';
import { childSelectorOf, RegistrationController } from '../registration/controller.ts';
import type { RegistrationControllerOptions } from '../registration/options.ts';

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

/** What the process holds across leadership terms and lends to each registration controller. */
export interface ProcessServices {
  client: DynamicClient;
  formFactors: FormFactorRegistry;
  factory: InformerFactory;
  events: EventRecorder;
  metrics: ControllerMetrics;
  health: QueueHealth;
  answerBudget: AnswerBudget;
  childCaches: ChildCachePolicies;
  sharing?: Pick<WorkSharing, 'owns' | 'kick'> | undefined;
}

/** A registration controller and its collaborators, wired. */
export function wireRegistrationController(
  options: RegistrationControllerOptions,
  services: ProcessServices,
): RegistrationController {
  const { client, factory, metrics, sharing } = services;
  const now = options.now ?? (() => new Date());
  const reconcileTimeoutMs = options.reconcileTimeoutMs ?? DEFAULT_RECONCILE_TIMEOUT_MS;
  const reader = createObjectReader(options.kubeConfig, { requestTimeoutMs: options.requestTimeoutMs });
  const clusterDomain = options.clusterDomain;
  const hookModules = options.hookModules ?? new Map();
  const hookClient = createHookClient({
    formFactorFormat: options.hookFormFactorFormat ?? 'string',
    answerBudget: services.answerBudget,
    modules: loadedHandlers(hookModules),
  });
  const crds = factory.acquire({ resource: CRD_RESOURCE });
  const configMaps = factory.acquire({ resource: CONFIGMAP_RESOURCE, namespace: options.scobyNamespace });
  const events: EventSink = {
    emit: (object, type, reason, message) => void services.events.emit(object, type, reason, message),
  };
  const lookups: RenderLookups = {
    resolveAddress: (destination, namespace) =>
      resolveDestination(destination, { namespace, clusterDomain, reader }),
    controllerConfigMap: (name) => {
      const configMap = configMaps.informer.get(options.scobyNamespace, name);
      return configMap ? ((configMap.data ?? {}) as Record<string, string>) : undefined;
    },
    controllerNamespace: options.scobyNamespace,
  };
  const reconcilerDependencies = {
    client,
    lookups,
    hooks: hookClient,
    events,
    clusterDomain,
    now,
    logger: options.logger,
    recordHookCall: (registration: string, phase: string, ms: number, outcome: HookCallOutcome) =>
      metrics.recordHookCall(registration, phase, ms, outcome),
    recordHookFailureIgnored: (registration: string) => metrics.recordHookFailureIgnored(registration),
  };
  // The parts below call back into the registration controller, built last: only ever after
  // construction, from informer events and reconciles.
  const registrations = (): CRDRegistration[] => registrationController.registrations();
  const enqueue = (name: string): void => registrationController.enqueue(name);
  const selection = new InstanceSelection({ factory, registrations });
  const instanceControllers: InstanceControllers = new InstanceControllers({
    selection,
    servedByOther: (name, instance, by) => registrationController.servedByOther(name, instance, by),
    selectionChanged: enqueue,
    client,
    factory,
    controllerConfigMaps: configMaps,
    newReconciler: (config, store) => new InstanceReconciler(reconcilerDependencies, config, store),
    hooks: hookClient,
    events,
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
    health: services.health,
    crdResource: (name) => {
      const crd = crds.informer.get(undefined, name);
      const info = crd ? inspectCrd(crd) : undefined;
      return info?.version
        ? { group: info.group, version: info.version, resource: info.plural, namespaced: true }
        : undefined;
    },
    onSynced: enqueue,
    childCaches: services.childCaches,
    ...(sharing === undefined
      ? {}
      : {
          holds: (name: string) => sharing.owns(name),
          childSelector: (config: InstanceConfig) => childSelectorOf(config, registrations()),
        }),
  });
  metrics.reportNotReadyInstances(() => instanceControllers.notReadyInstances());
  const access = new AccessReviewer(client, {
    namespaces: options.workingNamespaces,
    now: () => now().getTime(),
  });
  const served = new ServedGroupVersions(() => discoverGroupVersions(client));
  const forgetServed = () => served.forget();
  crds.addHandlers({ add: forgetServed, update: forgetServed, delete: forgetServed });
  const reconciler = new RegistrationReconciler({
    client,
    access,
    events,
    formFactors: services.formFactors,
    controllers: instanceControllers,
    crd: (name) => crds.informer.get(undefined, name),
    crdsSynced: () => crds.informer.hasSynced(),
    registrations,
    servedGroupVersions: () => served.get(),
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
    selection,
    releaseSettled: enqueue,
    now,
    logger: options.logger,
  });
  const registrationController: RegistrationController = new RegistrationController({
    factory,
    crds,
    configMaps,
    hookClient,
    instanceControllers,
    selection,
    access,
    reconciler,
    events,
    metrics,
    health: services.health,
    sharing,
    reconcileTimeoutMs,
    now,
    logger: options.logger,
  });
  return registrationController;
}
