/**
 * Scoby itself, running in this process against the cluster's kubeconfig as it would in a pod: leader
 * election on, its namespace `scoby-system`, and the example StatefulSet form factor loaded by module
 * specifier like an operator would with SCOBY_FORM_FACTOR_PLUGINS. With more than one replica, each
 * is a controller of its own in active-active mode, sharing the registrations through Leases.
 */
import { KubeConfig } from '@kubernetes/client-node';
import { loadFormFactorPlugin } from '@scoby/formfactor';
import pino from 'pino';
// The app exports no library entry point; the suite drives its manager directly (see README).
import { startProcess, type RunningProcess } from '@scoby/controller';
import { SCOBY_NAMESPACE } from './settings.ts';
import { waitFor } from './wait.ts';

export const PLUGIN_MODULE = '@scoby/formfactor-statefulset-example';
export const LEASE_NAME = 'scoby-e2e-leader';

export interface RunningScoby {
  replicas: readonly RunningProcess[];
  stop(): Promise<void>;
}

export async function startScoby(
  kubeconfigYaml: string,
  readyTimeoutMs: number,
  replicaCount = 1,
): Promise<RunningScoby> {
  const loaded = await loadFormFactorPlugin(PLUGIN_MODULE);
  if (!loaded.ok) throw new Error(loaded.message);
  const mode = replicaCount > 1 ? 'active-active' : 'leader';
  const logger = pino({ level: process.env.LOG_LEVEL ?? 'silent' });
  const replicas = Array.from({ length: replicaCount }, (_, index) => {
    const kubeConfig = new KubeConfig();
    kubeConfig.loadFromString(kubeconfigYaml);
    return startProcess({
      kubeConfig,
      scobyNamespace: SCOBY_NAMESPACE,
      clusterDomain: 'cluster.local',
      concurrency: 4,
      plugins: [loaded.plugin],
      leaderElection: { enabled: true, mode, namespace: SCOBY_NAMESPACE, leaseName: LEASE_NAME },
      logger: replicaCount > 1 ? logger.child({ replica: index }) : logger,
    });
  });
  const stop = async () => {
    await Promise.all(replicas.map((replica) => replica.stop()));
  };
  try {
    await waitFor(
      mode === 'leader' ? 'the controller to lead and sync' : `${replicaCount} replicas to sync and join`,
      async () => replicas.every((replica) => replica.isLeader() && replica.isReady()),
      { timeoutMs: readyTimeoutMs },
    );
  } catch (error) {
    await stop();
    throw error;
  }
  return { replicas, stop };
}
