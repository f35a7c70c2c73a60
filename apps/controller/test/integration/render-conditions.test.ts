/**
 * test/support/render-conditions-scenario.ts on the in-memory API server, whose Deployment and Knative
 * controllers are not simulated: the test writes the children's status as their controllers would,
 * so Ready=Unknown before the Deployment's first Available condition lasts, and is rendered too.
 */
import { IN_MEMORY, inMemoryBackend } from '../support/backend.ts';
import { startTestCluster, type ClusterVerbs } from '../support/cluster.ts';
import { mergePatch } from '../support/hooks-fixtures.ts';
import { NAMESPACE, renderConditionsScenario } from '../support/render-conditions-scenario.ts';

const available = (
  cluster: ClusterVerbs,
  namespace: string,
  name: string,
  condition: Record<string, string>,
) =>
  mergePatch(
    cluster,
    { apiVersion: 'apps/v1', kind: 'Deployment', namespace, name },
    { status: { conditions: [{ type: 'Available', ...condition }] } },
    'status',
  );

renderConditionsScenario(IN_MEMORY, async () => ({
  ...inMemoryBackend(
    await startTestCluster({ server: { simulate: { deployments: false, knativeServices: false } } }),
  ),
  blockedNamespace: NAMESPACE,
  testWritesDeploymentStatus: true,
  async deploymentUnavailable(cluster, namespace, name) {
    await available(cluster, namespace, name, {
      status: 'False',
      reason: 'MinimumReplicasUnavailable',
      message: 'Deployment does not have minimum availability.',
    });
  },
  async deploymentAvailable(cluster, namespace, name) {
    await available(cluster, namespace, name, {
      status: 'True',
      reason: 'MinimumReplicasAvailable',
      message: '',
    });
  },
}));
