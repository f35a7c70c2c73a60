/** The in-memory API server with its simulated Deployment, StatefulSet and Knative Service controllers. */
import { startApiServer } from '@scoby/in-memory-apiserver';
import type { StartedCluster } from './started-cluster.ts';

export async function startMemoryCluster(): Promise<StartedCluster> {
  const server = await startApiServer();
  return { provider: 'memory', kubeconfigYaml: server.kubeconfigYaml(), stop: () => server.stop() };
}
