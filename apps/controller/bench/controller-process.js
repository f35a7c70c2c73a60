/**
 * The controller in a child process of its own, so that its peak RSS and CPU are the controller's
 * alone, not the harness's (readiness informer, hook server, bookkeeping). Talks to the parent over IPC
 * (messages in controller-protocol.ts). Plain JavaScript run by plain node on the compiled controller
 * in dist/ (npm run build), as shipped: no TypeScript compiler in the process, whose start-up memory
 * would otherwise be counted as the controller's.
 */
import process from 'node:process';
import { KubeConfig } from '@kubernetes/client-node';
import pino from 'pino';
import { startController } from '../dist/index.js';

const reply = (message) => process.send?.(message);
/** @type {import('../src/index.ts').RunningController | undefined} */
let controller;
let registration = '';

process.on('message', (message) => {
  switch (message.kind) {
    case 'start': {
      const kubeConfig = new KubeConfig();
      kubeConfig.loadFromString(message.kubeconfig);
      registration = message.registration;
      controller = startController({
        kubeConfig,
        scobyNamespace: message.scobyNamespace,
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
      void countOf('controller_runtime_reconcile_total').then((count) =>
        reply({ kind: 'reconciles', count }),
      );
      return;
    case 'hook-calls':
      void Promise.all([countOf('scoby_hook_calls_total'), countOf('scoby_hook_failures_total')]).then(
        ([calls, failures]) => reply({ kind: 'hook-calls', calls, failures }),
      );
      return;
    case 'usage': {
      // As child-process.ts's ownUsage, which this plain-JavaScript process cannot import.
      const usage = process.resourceUsage();
      const cpuSeconds = (usage.userCPUTime + usage.systemCPUTime) / 1e6;
      reply({ kind: 'usage', maxRssKiB: usage.maxRSS, cpuSeconds });
      return;
    }
    case 'stop':
      void (controller?.stop() ?? Promise.resolve()).then(() => process.exit(0));
      return;
  }
});

/** A counter of the bench's registration, summed over its other labels. */
async function countOf(name) {
  const metric = controller?.metrics.registry.getSingleMetric(name);
  if (!metric) return 0;
  const { values } = await metric.get();
  return values
    .filter((value) => value.labels.controller === registration)
    .reduce((sum, value) => sum + value.value, 0);
}

reply({ kind: 'ready', rssMiB: process.memoryUsage.rss() / 1024 / 1024 });
