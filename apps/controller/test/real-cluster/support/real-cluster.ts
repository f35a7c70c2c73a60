/**
 * A test file's view of the real control plane of global-setup.ts: the admin's verbs and, on request,
 * a controller running as Scoby's ServiceAccount. Each file works in namespaces and API groups of its own.
 */
import { KubeConfig } from '@kubernetes/client-node';
import pino from 'pino';
import { inject } from 'vitest';
import { startController, type RunningController } from '../../../src/controller/manager.ts';
import { DynamicClient } from '../../../src/kube/dynamic-client.ts';
import { clusterVerbs, type ClusterVerbs } from '../../support/cluster.ts';

export interface RealCluster extends ClusterVerbs {
  controller: RunningController;
}

function kubeConfigOf(yaml: string): KubeConfig {
  const kubeConfig = new KubeConfig();
  kubeConfig.loadFromString(yaml);
  return kubeConfig;
}

/** Real controllers, scheduler and kwok need seconds where the in-memory server needs milliseconds. */
export const REAL_PATIENCE_MS = 60_000;

export function startRealCluster(): RealCluster {
  const { adminKubeconfigYaml, controllerKubeconfigYaml } = inject('realCluster');
  const verbs = clusterVerbs(new DynamicClient(kubeConfigOf(adminKubeconfigYaml)));
  const controller = startController({
    kubeConfig: kubeConfigOf(controllerKubeconfigYaml),
    scobyNamespace: 'scoby-system',
    clusterDomain: 'cluster.local',
    concurrency: 4,
    plugins: [],
    leaderElection: { enabled: false },
    logger: pino({ level: process.env.LOG_LEVEL ?? 'silent' }),
  });
  return {
    ...verbs,
    controller,
    waitFor: (description, probe, timeoutMs = REAL_PATIENCE_MS) =>
      verbs.waitFor(description, probe, timeoutMs),
    async stop() {
      await controller.stop();
      await verbs.stop();
    },
  };
}
