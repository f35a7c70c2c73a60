/**
 * test/support/field-manager-scenario.ts on the in-memory API server, whose request log shows each of
 * the controller's requests: the fieldManager of every write and the User-Agent of every request.
 */
import { IN_MEMORY, inMemoryBackend } from '../support/backend.ts';
import { startTestCluster } from '../support/cluster.ts';
import { fieldManagerScenario } from '../support/field-manager-scenario.ts';

const CONTROLLER = 'scoby-sa';

fieldManagerScenario(IN_MEMORY, async () => {
  const cluster = await startTestCluster({ user: CONTROLLER });
  return {
    ...inMemoryBackend(cluster),
    controllerRequests: () =>
      cluster.server.requestLog
        .entries()
        .filter((entry) => entry.user === CONTROLLER)
        .map(({ method, path, query, userAgent }) => ({
          method,
          path,
          fieldManager: query.fieldManager,
          userAgent,
        })),
  };
});
