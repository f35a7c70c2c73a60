/**
 * test/support/observability-scenario.ts on the in-memory API server, whose Deployment controller is
 * not simulated: the test writes the Deployment's Available=False as kube-controller-manager would.
 * The server's request log adds a check the real control plane cannot make: in the steady state
 * the test's own edit is the only write it saw.
 */
import { captureLogs } from '@scoby/controller-runtime/testing';
import { IN_MEMORY, inMemoryBackend } from '../support/backend.ts';
import { startTestCluster } from '../support/cluster.ts';
import { mergePatch } from '../support/hooks-fixtures.ts';
import { observabilityScenario } from '../support/observability-scenario.ts';

observabilityScenario(IN_MEMORY, async () => {
  const logs = captureLogs('info');
  const cluster = await startTestCluster({
    server: { simulate: { deployments: false } },
    logger: logs.logger,
  });
  return {
    ...inMemoryBackend(cluster),
    logs,
    async deploymentUnavailable(namespace, name) {
      await mergePatch(
        cluster,
        { apiVersion: 'apps/v1', kind: 'Deployment', namespace, name },
        {
          status: {
            conditions: [
              {
                type: 'Available',
                status: 'False',
                reason: 'MinimumReplicasUnavailable',
                message: 'Deployment does not have minimum availability.',
              },
            ],
          },
        },
        'status',
      );
    },
  };
});
