/**
 * `scoby run`: flags and environment checked into settings (loadConfig), the form-factor plugins
 * loaded, the logger made, and with --embedded an API server of its own (and a sample); then the
 * controller process runs (process/run-process.ts) until a termination signal.
 */
import type { Server } from 'node:net';
import { resolve } from 'node:path';
import type { KubeConfig } from '@kubernetes/client-node';
import { COMPONENT, type CommandLineOptions, type Environment, loadConfig } from '../../config/index.ts';
import { bindOpsPort, createLogger, loadKubeConfig } from '@scoby/controller-runtime';
import { startedByNpm, watchParent } from '../../process/parent-exit.ts';
import { runProcess } from '../../process/run-process.ts';
import { DEFAULT_KUBECONFIG_OUT, EMBEDDED_NAMESPACE } from '../defaults.ts';
import type { CliIo } from '../io.ts';
import { loadHookModules } from '../../hook-modules/load.ts';
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

/** Embedded mode needs no set-up, so Scoby's namespace defaults there. */
function environmentFor(options: RunOptions, env: Environment): Environment {
  if (!options.embedded || (env.SCOBY_NAMESPACE ?? '').trim() !== '') return env;
  return { ...env, SCOBY_NAMESPACE: EMBEDDED_NAMESPACE };
}

/** Runs until a termination signal; the exit code is 0 after a graceful stop, 1 when start-up fails. */
export async function runController(options: RunOptions, io: CliIo): Promise<number> {
  const parent = startedByNpm(io.env) ? watchParent(() => process.ppid) : undefined;
  try {
    return await run(options, io, parent?.exited);
  } finally {
    parent?.stop();
  }
}

/** `parentExited`: resolves when npm, which started this process, is gone (process/parent-exit.ts). */
async function run(options: RunOptions, io: CliIo, parentExited?: Promise<string>): Promise<number> {
  const signalled = io.terminationSignal();
  const stopRequested = parentExited === undefined ? signalled : Promise.race([signalled, parentExited]);
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
  // Unlike a plugin, a hook module that fails to load stops only the registrations naming it.
  const hookModules = await loadHookModules(config.hookModules, io.cwd);
  for (const [hookModule, load] of hookModules) {
    if (!load.ok) logger.error({ hookModule, message: load.message }, 'hook module not loaded');
  }

  let embedded: EmbeddedCluster | undefined;
  let loadCluster: () => KubeConfig;
  // Bound before the embedded cluster starts: a second `run --embedded` in the same folder whose ops
  // port is taken must stop before it overwrites the kubeconfig the first one's users hold.
  let opsListener: Server | undefined;
  if (options.embedded) {
    try {
      opsListener = await bindOpsPort(config.opsAddress.port, config.opsAddress.host);
    } catch (error) {
      return fail([`--metrics-bind-address: ${(error as Error).message}; nothing was started`]);
    }
  }
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
    opsListener?.close();
    await embedded?.stop();
    return fail([`cannot start the embedded cluster: ${(error as Error).message}`]);
  }
  const started = embedded;
  return runProcess({
    config,
    plugins: formFactors.plugins,
    hookModules,
    formFactorNames: formFactors.registry.names(),
    logger,
    env: io.env,
    loadCluster,
    stopRequested,
    terminationSignal: () => io.terminationSignal(),
    fail,
    ...(opsListener ? { opsListener } : {}),
    ...(started
      ? {
          cleanup: () => started.stop(),
          ...(options.sample
            ? {
                whileRunning: (signal: AbortSignal) =>
                  void runSample(started.client, logger, signal).catch((error: unknown) =>
                    logger.error({ err: error }, 'sample failed'),
                  ),
              }
            : {}),
        }
      : {}),
  });
}
