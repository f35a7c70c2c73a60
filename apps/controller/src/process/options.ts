/**
 * What the Scoby controller process is started with, and what a started one offers (the CLI's
 * `scoby run`, the tests and the benchmarks start it through startController).
 */
import type { FormFactorPlugin } from '@scoby/formfactor';
import type { ApiRateLimit, DynamicClient, ResourceRef } from '@scoby/controller-runtime';
import type { KubeObject } from '@scoby/kube-objects';
import type { ControllerMetrics, LeaderElectionConfig } from '../config/index.ts';
import type { RegistrationControllerOptions } from '../registration/options.ts';

/** The registration controller's options and the process's own. */
export interface ProcessOptions extends RegistrationControllerOptions {
  plugins?: readonly FormFactorPlugin[];
  leaderElection: LeaderElectionConfig;
  leaseDurationMs?: number;
  resyncMs?: number;
  /** The client-side rate limit of API requests (default DEFAULT_API_RATE_LIMIT; qps 0: none). */
  apiRateLimit?: ApiRateLimit;
  /** A watch that delivers neither an event nor a bookmark for this long is restarted (default 90 s). */
  watchSilenceMs?: number;
  /** A work queue with work and no finished reconcile for this long fails /healthz (default: reconcile timeout + 1 min). */
  stallAfterMs?: number;
  metrics?: ControllerMetrics;
}

export interface RunningProcess {
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
