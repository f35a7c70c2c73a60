/**
 * `scoby run`: the controller process. Settings from flags and environment (loadConfig), the cluster
 * from a kubeconfig, in-cluster, or the embedded API server; /metrics, /healthz and /readyz; JSON logs;
 * on SIGTERM or SIGINT a graceful stop (no new work, in-flight reconciles finished, Lease released).
 */
import { resolve } from 'node:path';
import type { KubeConfig } from '@kubernetes/client-node';
import { loadClusterDomain } from '@scoby/address';
import { startController } from '../../controller/manager.ts';
import {
  createLogger,
  createMetrics,
  loadConfig,
  loadKubeConfig,
  startOpsServer,
  type CommandLineOptions,
  type Environment,
} from '../../runtime/index.ts';
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
  const loaded = loadConfig(options, environmentFor(options, io.env));
  if (!loaded.ok) return fail(loaded.errors.map((error) => error.message));
  const config = loaded.config;
  const formFactors = await loadFormFactors(config.formFactorPlugins, io.cwd);
  if (!formFactors.ok) return fail([formFactors.message]);
  const logger = createLogger({ level: config.logLevel });

  let embedded: EmbeddedCluster | undefined;
  let kubeConfig: KubeConfig;
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
      kubeConfig = embedded.kubeConfig;
      logger.info(
        { cluster, kubeconfig: kubeconfigPath, server: kubeConfig.getCurrentCluster()?.server },
        'embedded API server started',
      );
      io.stderr(`Embedded API server (${cluster}) running; kubeconfig written to ${kubeconfigPath}\n`);
    } else {
      kubeConfig = loadKubeConfig(config.kube);
    }
  } catch (error) {
    await embedded?.stop();
    return fail([`cannot reach the cluster: ${(error as Error).message}`]);
  }

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
  logger.info({ signal }, 'shutting down: finishing in-flight reconciles');
  clearInterval(readiness);
  ops.setReady(false);
  sampleRun.abort();
  await controller.stop();
  await ops.close();
  await embedded?.stop();
  logger.info('stopped');
  return 0;
}
