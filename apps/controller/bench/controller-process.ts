/**
 * The controller in a child process of its own, so that its peak RSS and CPU are the controller's
 * alone, not the harness's (readiness informer, hook server, bookkeeping). Talks to the parent over IPC.
 */
import { KubeConfig } from '@kubernetes/client-node';
import pino from 'pino';
import type { Registry } from 'prom-client';
import { startController, type RunningController } from '../src/controller/manager.ts';
import { ownUsage } from './child-process.ts';
import type { ControllerReply, ControllerRequest } from './controller-protocol.ts';
import { REGISTRATION, SCOBY_NAMESPACE } from './world.ts';

const reply = (message: ControllerReply) => process.send?.(message);
let controller: RunningController | undefined;

process.on('message', (message: ControllerRequest) => {
  switch (message.kind) {
    case 'start': {
      const kubeConfig = new KubeConfig();
      kubeConfig.loadFromString(message.kubeconfig);
      controller = startController({
        kubeConfig,
        scobyNamespace: SCOBY_NAMESPACE,
        clusterDomain: 'cluster.local',
        concurrency: message.concurrency,
        plugins: [],
        leaderElection: { enabled: false },
        logger: pino({ level: process.env.LOG_LEVEL ?? 'silent' }),
      });
      reply({ kind: 'started' });
      return;
    }
    case 'reconciles':
      void countOf(controller?.metrics.registry, 'controller_runtime_reconcile_total').then((count) =>
        reply({ kind: 'reconciles', count }),
      );
      return;
    case 'hook-calls':
      void Promise.all([
        countOf(controller?.metrics.registry, 'scoby_hook_calls_total'),
        countOf(controller?.metrics.registry, 'scoby_hook_failures_total'),
      ]).then(([calls, failures]) => reply({ kind: 'hook-calls', calls, failures }));
      return;
    case 'usage':
      reply({ kind: 'usage', ...ownUsage() });
      return;
    case 'stop':
      void (controller?.stop() ?? Promise.resolve()).then(() => process.exit(0));
      return;
  }
});

/** A counter of the bench's registration, summed over its other labels. */
async function countOf(registry: Registry | undefined, name: string): Promise<number> {
  const metric = registry?.getSingleMetric(name);
  if (!metric) return 0;
  const { values } = await metric.get();
  return values
    .filter((value) => value.labels.controller === REGISTRATION)
    .reduce((sum, value) => sum + value.value, 0);
}

reply({ kind: 'ready', rssMiB: process.memoryUsage.rss() / 1024 / 1024 });
