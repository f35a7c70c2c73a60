/**
 * The in-memory API server in a child process, so that the bench process holds only the controller
 * (or the floor loop) and its peak RSS is the controller's. Talks to the parent over IPC.
 */
import { startApiServer } from '@scoby/in-memory-apiserver';
import type { ServerReply, ServerRequest } from './api-server-protocol.ts';

const server = await startApiServer({
  // Deployments become ready as soon as the simulator sees them: the bench measures the controller.
  simulate: { deployments: { delayMs: 0 }, knativeServices: false, statefulSets: false },
  // Every instance makes several changes; watches must never fall off the history during a run.
  watchHistory: 1_000_000,
  requestLogLimit: 1_000_000,
});

const reply = (message: ServerReply) => process.send?.(message);

process.on('message', (message: ServerRequest) => {
  switch (message.kind) {
    case 'clear-log':
      server.requestLog.clear();
      reply({ kind: 'cleared' });
      return;
    case 'writes': {
      const writes = server.requestLog.entries().filter((entry) => entry.method !== 'GET');
      reply({ kind: 'writes', writes: writes.map((entry) => `${entry.method} ${entry.path}`) });
      return;
    }
    case 'usage': {
      const usage = process.resourceUsage();
      reply({ kind: 'usage', maxRssKiB: usage.maxRSS, cpuSeconds: (usage.userCPUTime + usage.systemCPUTime) / 1e6 });
      return;
    }
    case 'stop':
      void server.stop().then(() => process.exit(0));
      return;
  }
});

reply({ kind: 'ready', kubeconfig: server.kubeconfigYaml() });
