/**
 * What the Scoby controller process is started with, and what a started one offers (the CLI's
 * `scoby run`, the tests and the benchmarks start it through startController).
 */
import type { KubeConfig } from '@kubernetes/client-node';
import type { FormFactorPlugin } from '@scoby/formfactor';
import type { FormFactorFormat } from '@scoby/hooks-v1/client';
import type { Logger } from 'pino';
import type { ApiRateLimit, DynamicClient, ResourceRef } from '@scoby/controller-runtime';
import type { KubeObject } from '@scoby/kube-objects';
import type { ControllerMetrics, LeaderElectionConfig } from '../config/index.ts';
import type { HookModules } from '../hook-modules/load.ts';

export interface ControllerOptions {
  kubeConfig: KubeConfig;
  scobyNamespace: string;
  workingNamespaces?: readonly string[] | undefined;
  clusterDomain: string;
  /**
   * Reconciles at once per registration (controller-runtime's MaxConcurrentReconciles); the
   * process-wide bound is four times this, so one registration never holds every slot; a reconcile
   * waiting on its hook holds no process-wide slot (docs/spec/children-and-status.md §9.1).
   */
  concurrency: number;
  plugins?: readonly FormFactorPlugin[];
  hookFormFactorFormat?: FormFactorFormat;
  /** The in-process hooks the operator allowed, loaded (hook-modules/load.ts); default none. */
  hookModules?: HookModules;
  /** Re-resolution period of hook addresses given by ref (default one minute). */
  hookAddressRefreshMs?: number;
  leaderElection: LeaderElectionConfig;
  leaseDurationMs?: number;
  resyncMs?: number;
  /** How long one API request may go unanswered before it is abandoned (default 30 s). */
  requestTimeoutMs?: number;
  /** The client-side rate limit of API requests (default DEFAULT_API_RATE_LIMIT; qps 0: none). */
  apiRateLimit?: ApiRateLimit;
  /** A watch that delivers neither an event nor a bookmark for this long is restarted (default 90 s). */
  watchSilenceMs?: number;
  /** A reconcile still running after this long frees its slot and is retried (default 5 min). */
  reconcileTimeoutMs?: number;
  /**
   * Divides every registration's spec.resyncPeriod (default 1). No flag sets it: it lets a test see
   * several periods of the PT30S minimum in seconds.
   */
  resyncPeriodDivisor?: number;
  /** A work queue with work and no finished reconcile for this long fails /healthz (default: reconcile timeout + 1 min). */
  stallAfterMs?: number;
  /**
   * A starting instance controller whose caches have not synced after this long is logged, and
   * waited for again (default 60 s). No flag sets it: it lets a test see a slow sync in seconds.
   */
  syncWarnAfterMs?: number;
  logger: Logger;
  metrics?: ControllerMetrics;
  now?: () => Date;
}

export interface RunningController {
  readonly client: DynamicClient;
  readonly metrics: ControllerMetrics;
  /** The identity Lease holders name this process by (`<hostname>_<uuid>`); undefined without leader election. */
  readonly identity: string | undefined;
  /** Leader mode: holds the leader Lease. Active-active mode: no replica of leader mode holds it. */
  isLeader(): boolean;
  /** Active-active mode: the registrations whose Leases this replica holds, sorted; undefined in leader mode. */
  ownedRegistrations(): string[] | undefined;
  /** Synced and either leading or standing by. */
  isReady(): boolean;
  /** The object as the controller's informers cache it (what its reconciles read); undefined when not cached. */
  cached(resource: ResourceRef, namespace: string | undefined, name: string): KubeObject | undefined;
  /** Why the process is not healthy (a stalled work queue), one sentence each; empty when it is. */
  healthProblems(): string[];
  /** Registrations stalled on their own hooks, one sentence each: reported, not the process's problem (children-and-status.md §9.2). */
  healthNotes(): string[];
  /**
   * Cuts every hook call in flight (and later ones): the reconciles waiting on them end without
   * recording anything. A stopping process calls it when half its grace period has passed.
   */
  cutHookCalls(): void;
  /**
   * Graceful: stops taking work, finishes in-flight reconciles, releases the Lease. With
   * `releaseLease: false` the Lease is left to expire, as after a crash (failover tests).
   */
  stop(options?: { releaseLease?: boolean }): Promise<void>;
}
