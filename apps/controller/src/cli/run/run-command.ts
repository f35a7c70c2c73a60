/**
 * `scoby run`: the controller process. Settings from flags and environment (loadConfig), the cluster
 * from a kubeconfig, in-cluster, or the embedded API server, checked before the controller starts;
 * /metrics, /healthz, /livez and /readyz; console or JSON logs; on SIGTERM or SIGINT a graceful stop
 * (no new work, in-flight reconciles finished, Lease released) bounded by the grace period, and an
 * immediate exit on a second signal.
 */
import { resolve } from 'node:path';
import type { KubeConfig } from '@kubernetes/client-node';
import { loadClusterDomain } from '@scoby/address';
import { startController } from '../../process/manager.ts';
import {
  COMPONENT,
  type CommandLineOptions,
  createMetrics,
  type Environment,
  loadConfig,
} from '../../config/index.ts';
import { createLogger, loadKubeConfig, type Logger, startOpsServer } from '@scoby/controller-runtime';
import { checkCluster, type ClusterCheck } from '../../config/cluster-check.ts';
import { DEFAULT_KUBECONFIG_OUT, EMBEDDED_NAMESPACE } from '../defaults.ts';
import type { CliIo } from '../io.ts';
import { loadFormFactors } from '../plugins.ts';
import { startEmbeddedCluster, type EmbeddedCluster, type EmbeddedClusterKind } from './embedded-cluster.ts';
import { runSample } from './sample.ts';

export interface RunOptions extends CommandLineOptions {
  embedded?: boolean;
  /** With --embedded: which cluster (default memory). */
  cluster?: EmbeddedClusterKind;
  kubeconfigOut?: string;
  sample?: boolean;
}

const READINESS_INTERVAL_MS = 500;
/** Waits between start-up checks: five attempts within 15 s, then the process exits (and is restarted). */
export const STARTUP_RETRY_DELAYS_MS = [1_000, 2_000, 4_000, 8_000];
const STARTUP_REQUEST_TIMEOUT_MS = 10_000;

function delay(ms: number): { done: Promise<void>; cancel(): void } {
  let timer: NodeJS.Timeout | undefined;
  const done = new Promise<void>((resolve) => {
    timer = setTimeout(resolve, ms);
  });
  return { done, cancel: () => clearTimeout(timer) };
}

/**
 * Runs the start-up checks until they pass, a signal arrives, or the attempts run out; one error
 * line per failed attempt saying what is wrong and what to do.
 */
async function waitForCluster(
  check: () => Promise<ClusterCheck>,
  logger: Logger,
  stopRequested: Promise<string>,
): Promise<ClusterCheck | { ok: false; signal: string }> {
  const attempts = STARTUP_RETRY_DELAYS_MS.length + 1;
  for (let attempt = 1; ; attempt++) {
    const outcome = await Promise.race([
      check(),
      stopRequested.then((signal) => ({ ok: false as const, signal })),
    ]);
    if (outcome.ok || 'signal' in outcome) return outcome;
    const retryMs = STARTUP_RETRY_DELAYS_MS[attempt - 1];
    const next = retryMs === undefined ? 'giving up' : `retrying in ${retryMs / 1000}s`;
    logger.error(
      { attempt, attempts },
      `cannot start: ${outcome.problem}; ${outcome.fix} (attempt ${attempt} of ${attempts}, ${next})`,
    );
    if (retryMs === undefined) return outcome;
    const wait = delay(retryMs);
    const signal = await Promise.race([wait.done.then(() => undefined), stopRequested]);
    wait.cancel();
    if (signal !== undefined) return { ok: false, signal };
  }
}

/** Embedded mode needs no set-up, so Scoby's namespace defaults there. */
function environmentFor(options: RunOptions, env: Environment): Environment {
  if (!options.embedded || (env.SCOBY_NAMESPACE ?? '').trim() !== '') return env;
  return { ...env, SCOBY_NAMESPACE: EMBEDDED_NAMESPACE };
}

/** Runs until a termination signal; the exit code is 0 after a graceful stop, 1 when start-up fails. */
export async function runController(options: RunOptions, io: CliIo): Promise<number> {
  const stopRequested = io.terminationSignal();
  const fail = (messages: readonly string[]) => {
    for (const message of messages) io.stderr(`scoby run: ${message}\n`);
    return 1;
  };
  if (!options.embedded && (options.kubeconfigOut !== undefined || options.sample || options.cluster)) {
    return fail(['--kubeconfig-out, --sample and --cluster need --embedded']);
  }
  const loaded = loadConfig(options, environmentFor(options, io.env), {
    stdoutIsTerminal: io.stdoutIsTerminal === true,
  });
  if (!loaded.ok) return fail(loaded.errors.map((error) => error.message));
  const config = loaded.config;
  const formFactors = await loadFormFactors(config.formFactorPlugins, io.cwd);
  if (!formFactors.ok) return fail([formFactors.message]);
  const logger = createLogger({
    component: COMPONENT,
    level: config.logLevel,
    format: config.logFormat,
    colour: io.stdoutIsTerminal === true && (io.env.NO_COLOR ?? '') === '',
  });

  let embedded: EmbeddedCluster | undefined;
  let loadCluster: () => KubeConfig;
  try {
    if (options.embedded) {
      const kubeconfigPath = resolve(io.cwd, options.kubeconfigOut ?? DEFAULT_KUBECONFIG_OUT);
      const cluster = options.cluster ?? 'memory';
      embedded = await startEmbeddedCluster({
        cluster,
        scobyNamespace: config.scobyNamespace,
        kubeconfigPath,
        log: (line) => logger.info(`control plane: ${line}`),
      });
      const embeddedConfig = embedded.kubeConfig;
      loadCluster = () => embeddedConfig;
      logger.info(
        { cluster, kubeconfig: kubeconfigPath, server: embeddedConfig.getCurrentCluster()?.server },
        'embedded API server started',
      );
      io.stderr(`Embedded API server (${cluster}) running; kubeconfig written to ${kubeconfigPath}\n`);
    } else {
      loadCluster = () => loadKubeConfig(config.kube, io.env);
    }
  } catch (error) {
    await embedded?.stop();
    return fail([`cannot start the embedded cluster: ${(error as Error).message}`]);
  }
  const checked = await waitForCluster(
    () => checkCluster(loadCluster, { requestTimeoutMs: STARTUP_REQUEST_TIMEOUT_MS }),
    logger,
    stopRequested,
  );
  if (!checked.ok) {
    await embedded?.stop();
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
  try {
    ops = await startOpsServer({
      ...config.opsAddress,
      registry: metrics.registry,
      healthProblems: () => healthProblems(),
    });
  } catch (error) {
    await embedded?.stop();
    return fail([`--metrics-bind-address: ${(error as Error).message}`]);
  }
  const clusterDomain = config.clusterDomain ?? (await loadClusterDomain({ environment: io.env }));
  const controller = startController({
    kubeConfig,
    scobyNamespace: config.scobyNamespace,
    workingNamespaces: config.workingNamespaces,
    clusterDomain,
    concurrency: config.concurrency,
    plugins: formFactors.plugins,
    hookFormFactorFormat: config.hookFormFactorFormat,
    hookAddressRefreshMs: config.hookAddressRefreshMs,
    leaderElection: config.leaderElection,
    resyncMs: config.resyncMs,
    requestTimeoutMs: config.apiRequestTimeoutMs,
    reconcileTimeoutMs: config.reconcileTimeoutMs,
    watchSilenceMs: config.watchSilenceMs,
    logger,
    metrics,
  });
  healthProblems = () => controller.healthProblems();
  const readiness = setInterval(() => ops.setReady(controller.isReady()), READINESS_INTERVAL_MS);
  logger.info(
    {
      scobyNamespace: config.scobyNamespace,
      workingNamespaces: config.workingNamespaces ?? 'all',
      clusterDomain,
      formFactors: formFactors.registry.names(),
      leaderElection: config.leaderElection.enabled,
      opsPort: ops.port,
    },
    'scoby controller started',
  );
  const sampleRun = new AbortController();
  if (options.sample && embedded) {
    runSample(embedded.client, logger, sampleRun.signal).catch((error: unknown) =>
      logger.error({ err: error }, 'sample failed'),
    );
  }

  const signal = await stopRequested;
  const graceMs = config.gracefulShutdownTimeoutMs;
  logger.info(
    { signal, gracePeriod: `${graceMs / 1000}s` },
    'shutting down: finishing in-flight reconciles (a second signal exits at once)',
  );
  clearInterval(readiness);
  ops.setReady(false);
  sampleRun.abort();
  const graceful = (async () => {
    await controller.stop();
    await ops.close();
    await embedded?.stop();
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
    io.terminationSignal().then((second) => {
      logger.warn({ signal: second }, 'second signal: exiting at once');
      return 1;
    }),
  ]);
  grace.cancel();
  return code;
}
