/**
 * Scoby itself, running in this process against the cluster's kubeconfig as it would in a pod: leader
 * election on, its namespace `scoby-system`, and the example StatefulSet form factor loaded by module
 * specifier like an operator would with SCOBY_FORM_FACTOR_PLUGINS.
 */
import { KubeConfig } from '@kubernetes/client-node';
import { loadFormFactorPlugin } from '@scoby/formfactor';
import pino from 'pino';
// The app exports no library entry point; the suite drives its manager directly (see README).
import { startController, type RunningController } from '@scoby/controller';
import { SCOBY_NAMESPACE } from './settings.ts';
import { waitFor } from './wait.ts';

export const PLUGIN_MODULE = '@scoby/formfactor-statefulset-example';
export const LEASE_NAME = 'scoby-e2e-leader';

export async function startScoby(kubeconfigYaml: string, readyTimeoutMs: number): Promise<RunningController> {
  const loaded = await loadFormFactorPlugin(PLUGIN_MODULE);
  if (!loaded.ok) throw new Error(loaded.message);
  const kubeConfig = new KubeConfig();
  kubeConfig.loadFromString(kubeconfigYaml);
  const controller = startController({
    kubeConfig,
    scobyNamespace: SCOBY_NAMESPACE,
    clusterDomain: 'cluster.local',
    concurrency: 4,
    plugins: [loaded.plugin],
    leaderElection: { enabled: true, mode: 'leader', namespace: SCOBY_NAMESPACE, leaseName: LEASE_NAME },
    logger: pino({ level: process.env.LOG_LEVEL ?? 'silent' }),
  });
  try {
    await waitFor(
      'the controller to lead and sync',
      async () => controller.isLeader() && controller.isReady(),
      {
        timeoutMs: readyTimeoutMs,
      },
    );
  } catch (error) {
    await controller.stop();
    throw error;
  }
  return controller;
}
