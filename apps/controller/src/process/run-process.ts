/**
 * The controller process from a checked configuration to its exit: the cluster checked before the
 * controller starts, the ops server (/metrics, /healthz, /livez, /readyz) and readiness, the
 * controller, and on SIGTERM or SIGINT a graceful stop (no new work, in-flight reconciles finished,
 * hook calls still waiting at half the grace period cut, Lease released) bounded by the grace
 * period, with an immediate exit on a second signal. The CLI
 * (`scoby run`) parses flags and settings and calls this.
 */
import type { Server } from 'node:net';
import type { KubeConfig } from '@kubernetes/client-node';
import { loadClusterDomain } from '@scoby/address';
import type { FormFactorPlugin } from '@scoby/formfactor';
import { type Logger, startOpsServer } from '@scoby/controller-runtime';
import { checkCluster } from '../config/cluster-check.ts';
import { type ControllerConfig, createMetrics, type Environment } from '../config/index.ts';
import type { HookModules } from '../hook-modules/load.ts';
import { startProcess } from './manager.ts';
import { delay, waitForCluster } from './startup.ts';

const READINESS_INTERVAL_MS = 500;
const STARTUP_REQUEST_TIMEOUT_MS = 10_000;

export interface RunProcessOptions {
  config: ControllerConfig;
  plugins: readonly FormFactorPlugin[];
  /** The in-process hooks allowed, loaded or not (docs/spec/hooks-v1.md §10); default none. */
  hookModules?: HookModules;
  /** The form factors' names, for the start line. */
  formFactorNames: readonly string[];
  logger: Logger;
  env: Environment;
  /** The cluster's kubeconfig (read again at each start-up attempt). */
  loadCluster(): KubeConfig;
  /** The first SIGTERM or SIGINT, listened for since the process began (it may come during start-up). */
  stopRequested: Promise<string>;
  /** Resolves with the signal's name at the next SIGTERM or SIGINT (a second one exits at once). */
  terminationSignal(): Promise<string>;
  /** Started once the controller runs, aborted when it stops (the embedded sample). */
  whileRunning?(signal: AbortSignal): void;
  /**
   * The ops address, bound by the caller before it started anything (`scoby run --embedded` binds it
   * before its cluster writes the kubeconfig); the ops server takes it over.
   */
  opsListener?: Server;
  /** Stops what the caller started for this process (an embedded cluster), last. */
  cleanup?(): Promise<void>;
  /** Reports start-up failures (one line each); answers the exit code. */
  fail(messages: readonly string[]): number;
}

/** Runs until a termination signal; the exit code is 0 after a graceful stop, 1 when start-up fails. */
export async function runProcess(options: RunProcessOptions): Promise<number> {
  const { config, logger } = options;
  const { stopRequested } = options;
  const cleanup = async () => options.cleanup?.();
  const checked = await waitForCluster(
    () => checkCluster(() => options.loadCluster(), { requestTimeoutMs: STARTUP_REQUEST_TIMEOUT_MS }),
    logger,
    stopRequested,
  );
  if (!checked.ok) {
    options.opsListener?.close();
    await cleanup();
    if ('signal' in checked) {
      logger.info({ signal: checked.signal }, 'stopped before the controller started');
      return 0;
    }
    return 1;
  }
  const kubeConfig = checked.kubeConfig;

  const metrics = createMetrics({ processMetrics: true });
  let ops;
  // The controller starts after the ops server: until then there is nothing to be unhealthy about.
  let healthProblems = (): string[] => [];
  let healthNotes = (): string[] => [];
  try {
    ops = await startOpsServer({
      ...config.opsAddress,
      ...(options.opsListener ? { listener: options.opsListener } : {}),
      registry: metrics.registry,
      healthProblems: () => healthProblems(),
      healthNotes: () => healthNotes(),
    });
  } catch (error) {
    await cleanup();
    return options.fail([`--metrics-bind-address: ${(error as Error).message}`]);
  }
  const clusterDomain = config.clusterDomain ?? (await loadClusterDomain({ environment: options.env }));
  const controller = startProcess({
    kubeConfig,
    scobyNamespace: config.scobyNamespace,
    workingNamespaces: config.workingNamespaces,
    clusterDomain,
    concurrency: config.concurrency,
    plugins: options.plugins,
    ...(options.hookModules === undefined ? {} : { hookModules: options.hookModules }),
    hookFormFactorFormat: config.hookFormFactorFormat,
    hookAddressRefreshMs: config.hookAddressRefreshMs,
    leaderElection: config.leaderElection,
    resyncMs: config.resyncMs,
    requestTimeoutMs: config.apiRequestTimeoutMs,
    apiRateLimit: config.apiRateLimit,
    reconcileTimeoutMs: config.reconcileTimeoutMs,
    watchSilenceMs: config.watchSilenceMs,
    logger,
    metrics,
  });
  healthProblems = () => controller.healthProblems();
  healthNotes = () => controller.healthNotes();
  const readiness = setInterval(() => ops.setReady(controller.isReady()), READINESS_INTERVAL_MS);
  logger.info(
    {
      scobyNamespace: config.scobyNamespace,
      workingNamespaces: config.workingNamespaces ?? 'all',
      clusterDomain,
      formFactors: options.formFactorNames,
      hookModules: [...(options.hookModules?.keys() ?? [])],
      leaderElection: config.leaderElection.enabled,
      opsPort: ops.port,
    },
    'scoby controller started',
  );
  const running = new AbortController();
  options.whileRunning?.(running.signal);

  const signal = await stopRequested;
  const graceMs = config.gracefulShutdownTimeoutMs;
  logger.info(
    { signal, gracePeriod: `${graceMs / 1000}s` },
    'shutting down: finishing in-flight reconciles (a second signal exits at once)',
  );
  clearInterval(readiness);
  ops.setReady(false);
  running.abort();
  // In-flight reconciles get half the grace period to finish; hook calls still waiting then are
  // cut, so that a hook that never answers (its timeout may be days) cannot hold the exit.
  const hookPatience = delay(graceMs / 2);
  void hookPatience.done.then(() => controller.cutHookCalls());
  const graceful = (async () => {
    await controller.stop();
    await ops.close();
    await cleanup();
    logger.info('stopped');
    return 0;
  })();
  const grace = delay(graceMs);
  const code = await Promise.race([
    graceful,
    grace.done.then(() => {
      logger.error(
        { gracePeriod: `${graceMs / 1000}s` },
        'graceful shutdown did not finish within the grace period: exiting anyway',
      );
      return 1;
    }),
    options.terminationSignal().then((second) => {
      logger.warn({ signal: second }, 'second signal: exiting at once');
      return 1;
    }),
  ]);
  grace.cancel();
  hookPatience.cancel();
  return code;
}
