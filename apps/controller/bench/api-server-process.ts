/**
 * The in-memory API server in a child process of its own, so that its CPU and memory are counted
 * apart from the controller's and the harness's. Talks to the parent over IPC.
 */
import { startApiServer } from '@scoby/in-memory-apiserver';
import type { ServerReply, ServerRequest } from './api-server-protocol.ts';
import { ownUsage } from './child-process.ts';

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
    case 'request-counts': {
      const counts: Record<string, number> = {};
      for (const entry of server.requestLog.entries()) {
        const key = `${entry.query.watch === 'true' ? 'WATCH' : entry.method} ${entry.code}`;
        counts[key] = (counts[key] ?? 0) + 1;
      }
      reply({ kind: 'request-counts', counts });
      return;
    }
    case 'usage':
      reply({ kind: 'usage', ...ownUsage() });
      return;
    case 'stop':
      void server.stop().then(() => process.exit(0));
      return;
  }
});

reply({ kind: 'ready', kubeconfig: server.kubeconfigYaml() });
