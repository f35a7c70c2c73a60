/**
 * A test file's view of the real control plane of global-setup.ts: the admin's verbs and, on request,
 * a controller running as Scoby's ServiceAccount. Each file works in namespaces and API groups of its own.
 */
import { KubeConfig } from '@kubernetes/client-node';
import pino from 'pino';
import { inject } from 'vitest';
import { startProcess, type ProcessOptions, type RunningProcess } from '../../../src/process/manager.ts';
import { DynamicClient } from '@scoby/controller-runtime';
import { clusterVerbs, type ClusterVerbs } from '../../support/cluster.ts';

export interface RealCluster extends ClusterVerbs {
  controller: RunningProcess;
}

function kubeConfigOf(yaml: string): KubeConfig {
  const kubeConfig = new KubeConfig();
  kubeConfig.loadFromString(yaml);
  return kubeConfig;
}

/** Real controllers, scheduler and kwok need seconds where the in-memory server needs milliseconds. */
export const REAL_PATIENCE_MS = 60_000;

/**
 * How long kube-controller-manager's garbage collector may take to remove a dependent whose owner
 * is gone: its retries on a dependent whose owner's CRD it has not discovered yet double from 5 ms
 * (20.5 s, 41 s, 82 s after the first), and it discovers new CRDs every 30 s.
 */
export const REAL_COLLECT_MS = 120_000;

/** The admin's verbs, with the real control plane's patience. */
export function realClusterAdmin(): ClusterVerbs {
  const verbs = clusterVerbs(new DynamicClient(kubeConfigOf(inject('realCluster').adminKubeconfigYaml)));
  return {
    ...verbs,
    waitFor: (description, probe, timeoutMs = REAL_PATIENCE_MS) =>
      verbs.waitFor(description, probe, timeoutMs),
  };
}

/** The controller as Scoby's ServiceAccount. */
export function startRealController(options: Partial<ProcessOptions> = {}): RunningProcess {
  return startProcess({
    kubeConfig: kubeConfigOf(inject('realCluster').controllerKubeconfigYaml),
    scobyNamespace: 'scoby-system',
    clusterDomain: 'cluster.local',
    concurrency: 4,
    plugins: [],
    leaderElection: { enabled: false },
    logger: pino({ level: process.env.LOG_LEVEL ?? 'silent' }),
    ...options,
  });
}

export function startRealCluster(): RealCluster {
  const verbs = realClusterAdmin();
  const controller = startRealController();
  return {
    ...verbs,
    controller,
    async stop() {
      await controller.stop();
      await verbs.stop();
    },
  };
}
