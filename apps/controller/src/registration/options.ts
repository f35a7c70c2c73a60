/**
 * What the registration controller is started with (read by its composition root,
 * process/registration-wiring.ts): the part of the process's options
 * (process/options.ts, ProcessOptions) it and the instance controllers it runs read.
 */
import type { KubeConfig } from '@kubernetes/client-node';
import type { FormFactorFormat } from '@scoby/hooks-v1/client';
import type { Logger } from 'pino';
import type { HookModules } from '../hook-modules/load.ts';

export interface RegistrationControllerOptions {
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
  hookFormFactorFormat?: FormFactorFormat;
  /** The in-process hooks the operator allowed, loaded (hook-modules/load.ts); default none. */
  hookModules?: HookModules;
  /** Re-resolution period of hook addresses given by ref (default one minute). */
  hookAddressRefreshMs?: number;
  /** How long one API request may go unanswered before it is abandoned (default 30 s). */
  requestTimeoutMs?: number;
  /** A reconcile still running after this long frees its slot and is retried (default 5 min). */
  reconcileTimeoutMs?: number;
  /**
   * Divides every registration's spec.resyncPeriod (default 1). No flag sets it: it lets a test see
   * several periods of the PT30S minimum in seconds.
   */
  resyncPeriodDivisor?: number;
  /**
   * A starting instance controller whose caches have not synced after this long is logged, and
   * waited for again (default 60 s). No flag sets it: it lets a test see a slow sync in seconds.
   */
  syncWarnAfterMs?: number;
  logger: Logger;
  now?: () => Date;
}
