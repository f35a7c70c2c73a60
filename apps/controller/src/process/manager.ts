/**
 * The Scoby controller process: one API client, the shared informers, the Events recorder and leader
 * election. In leader mode the registration controller (registration/controller.ts) runs while this
 * process leads; in active-active mode it runs all along and reconciles only the registrations whose
 * Leases this replica holds (docs/spec/registration.md §9).
 */
import type { FormFactorRegistry } from '@scoby/formfactor';
import { AnswerBudget } from '@scoby/hooks-v1/client';
import {
  DEFAULT_API_RATE_LIMIT,
  DEFAULT_RENEW_DEADLINE_MS,
  DEFAULT_REQUEST_TIMEOUT_MS,
  defaultIdentity,
  DynamicClient,
  dynamicLeaseClient,
  dynamicShardLeaseClient,
  EventRecorder,
  InformerFactory,
  LeaderElector,
  QueueHealth,
  type ResourceRef,
  WorkSharing,
} from '@scoby/controller-runtime';
import type { KubeObject } from '@scoby/kube-objects';
import { stripManagedFieldsUnlessLegacy } from '../field-manager/legacy-ownership.ts';
import {
  COMPONENT,
  type ControllerMetrics,
  createMetrics,
  DEFAULT_RECONCILE_TIMEOUT_MS,
  FIELD_MANAGER,
  userAgent,
} from '../config/index.ts';
import type { RegistrationController } from '../registration/controller.ts';
import { wireRegistrationController } from './registration-wiring.ts';
import { ChildCachePolicies } from '../instance/children/child-cache.ts';
import { DEPLOYMENT_FIELDS_READ } from '../instance/status/unavailable-pods.ts';
import { builtInFormFactors } from './built-in-form-factors.ts';
import type { ProcessOptions, RunningProcess } from './options.ts';

export type { ProcessOptions, RunningProcess } from './options.ts';

/**
 * How much longer than the reconcile deadline a queue may go without a finished reconcile before
 * it counts as stalled: only reconciles that never return can stall a queue.
 */
const STALL_MARGIN_MS = 60_000;

/** Prefix of the Leases of active-active mode: `scoby-member-…`, `scoby-registration-…`. */
const SHARING_LEASE_PREFIX = 'scoby-';

/** Who the controller's writes are from: its field manager, and a User-Agent with its version. */
const CLIENT_IDENTITY = { fieldManager: FIELD_MANAGER, userAgent: userAgent() };

/** The Scoby controller process (see the file's comment); started by startProcess. */
class ControllerProcess implements RunningProcess {
  readonly client: DynamicClient;
  readonly metrics: ControllerMetrics;
  readonly #options: ProcessOptions;
  readonly #formFactors: FormFactorRegistry;
  /** What the child informers keep of each kind: the factory's informers outlive a leadership term. */
  readonly #childCaches: ChildCachePolicies;
  readonly #factory: InformerFactory;
  readonly #events: EventRecorder;
  readonly #elector: LeaderElector | undefined;
  /** Active-active mode: which registrations this replica holds. */
  readonly #sharing: WorkSharing | undefined;
  /** The elector's own client: not fenced, since renewing the Lease is what keeps writes allowed. */
  readonly #leaseClient: DynamicClient | undefined;
  readonly #health: QueueHealth;
  /** One for the process, across leadership terms: what hook answers may hold at once. */
  readonly #answerBudget = new AnswerBudget();
  #work: RegistrationController | undefined;
  /** Registration controllers whose stop is under way (their hook calls can still be cut). */
  readonly #stopping = new Set<RegistrationController>();
  #leading = false;

  constructor(options: ProcessOptions) {
    this.#options = options;
    const requestTimeoutMs = options.requestTimeoutMs ?? DEFAULT_REQUEST_TIMEOUT_MS;
    this.metrics = options.metrics ?? createMetrics();
    const onResponse = this.metrics.recordRequest;
    this.client = new DynamicClient(options.kubeConfig, {
      requestTimeoutMs,
      onResponse,
      rateLimit: options.apiRateLimit ?? DEFAULT_API_RATE_LIMIT,
      onRateLimited: this.metrics.recordRateLimiterWait,
      // Every write of the controller (children, status, finalizers, Events) passes the fence; in
      // active-active mode a write made for a registration (its write scope) needs that
      // registration's Lease, any other the membership Lease.
      ...(options.leaderElection.enabled
        ? {
            writeFence: {
              refusal: (scope?: string) =>
                this.#sharing
                  ? scope === undefined
                    ? this.#sharing.memberRefusal()
                    : this.#sharing.writeRefusal(scope)
                  : this.#elector?.writeRefusal(),
            },
          }
        : {}),
      onForbidden: () => this.#work?.forbidden(),
      ...CLIENT_IDENTITY,
    });
    this.#health = new QueueHealth(
      options.stallAfterMs ?? (options.reconcileTimeoutMs ?? DEFAULT_RECONCILE_TIMEOUT_MS) + STALL_MARGIN_MS,
    );
    this.metrics.reportStalledRegistrations(() => ({
      running: this.#health.isolatedNames(),
      stalled: this.#health.stalled().map(({ name }) => name),
    }));
    this.#formFactors = builtInFormFactors(options.plugins ?? []);
    const formFactors = this.#formFactors;
    this.#childCaches = new ChildCachePolicies(
      formFactors.names().flatMap((name) => formFactors.get(name) ?? []),
      [DEPLOYMENT_FIELDS_READ],
    );
    this.#factory = new InformerFactory({
      lister: this.client,
      workingNamespaces: options.workingNamespaces,
      // The caches hold every instance and child; the one reader of managedFields (the hand-over
      // of a created child's fields in write-children.ts) reads the object from the API server.
      // Objects where `unknown` still holds fields keep theirs until the reconcile hands them over.
      transform: stripManagedFieldsUnlessLegacy,
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
        ...CLIENT_IDENTITY,
      });
      const leaseName = options.leaderElection.leaseName;
      const identity = defaultIdentity();
      if (options.leaderElection.mode === 'active-active') {
        this.#sharing = new WorkSharing({
          client: dynamicShardLeaseClient(this.#leaseClient),
          namespace: options.leaderElection.namespace,
          identity,
          leasePrefix: SHARING_LEASE_PREFIX,
          keyKind: 'registration',
          // Replicas of leader mode (a rolling upgrade) compete for it: while one holds it, this one waits.
          legacyLeaseName: leaseName,
          ...timings,
          keys: () => this.#work?.registrationNames() ?? [],
          keysSynced: () => this.#work?.synced() ?? false,
          onAcquired: (name) => {
            this.metrics.setRegistrationOwned(name, true);
            this.metrics.recordHandover(name, 'acquired');
            this.#work?.acquired(name, identity);
          },
          onStopping: async (name, reason, how) => {
            // Writes already on the wire must not land once another replica may hold the registration.
            this.client.abortWrites(`this replica stopped holding registration "${name}": ${reason}`, name);
            this.metrics.setRegistrationOwned(name, false);
            this.metrics.recordHandover(name, how);
            await this.#work?.released(name);
          },
          onMembers: (count) => this.metrics.setReplicaMembers(count),
          logger: options.logger,
        });
        this.#elector = undefined;
        return;
      }
      this.metrics.setLeader(leaseName, false);
      this.#elector = new LeaderElector({
        client: dynamicLeaseClient(this.#leaseClient),
        namespace: options.leaderElection.namespace,
        name: options.leaderElection.leaseName,
        identity,
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
    if (this.#sharing) {
      this.#lead();
      this.#sharing.start();
    } else if (this.#elector) this.#elector.start();
    else this.#lead();
  }

  get identity(): string | undefined {
    return this.#sharing?.identity ?? this.#elector?.identity;
  }

  isLeader(): boolean {
    return this.#sharing ? this.#sharing.mayWork() : this.#leading;
  }

  ownedRegistrations(): string[] | undefined {
    return this.#sharing?.owned();
  }

  isReady(): boolean {
    if (this.#sharing) return this.#sharing.isHealthy() && (this.#work?.synced() ?? false);
    if (this.#elector && !this.#leading) return this.#elector.isHealthy();
    return this.#work?.synced() ?? false;
  }

  cached(resource: ResourceRef, namespace: string | undefined, name: string): KubeObject | undefined {
    return this.#factory.cached(resource, namespace, name);
  }

  healthProblems(): string[] {
    return this.#health.problems();
  }

  healthNotes(): string[] {
    return this.#health.stalled().map(({ name, detail }) => `registration ${name} is stalled: ${detail}`);
  }

  async stop(options: { releaseLease?: boolean } = {}): Promise<void> {
    // Active-active: every registration is handed over (its controllers stopped, then its Lease
    // emptied) before the registration controller stops.
    await this.#sharing?.stop({ release: options.releaseLease !== false });
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
    this.#work = wireRegistrationController(this.#options, {
      client: this.client,
      formFactors: this.#formFactors,
      factory: this.#factory,
      events: this.#events,
      metrics: this.metrics,
      health: this.#health,
      answerBudget: this.#answerBudget,
      childCaches: this.#childCaches,
      sharing: this.#sharing,
    });
  }

  cutHookCalls(): void {
    this.#work?.cutHookCalls();
    for (const stopping of this.#stopping) stopping.cutHookCalls();
  }

  async #stopWork(): Promise<void> {
    this.#leading = false;
    const work = this.#work;
    this.#work = undefined;
    if (work === undefined) return;
    this.#stopping.add(work);
    try {
      await work.stop();
    } finally {
      this.#stopping.delete(work);
    }
  }
}

export function startProcess(options: ProcessOptions): RunningProcess {
  const started = new ControllerProcess(options);
  started.start();
  return started;
}
