/**
 * test/support/api-back-pressure-scenario.ts on the in-memory API server: the controller is the
 * server's only client besides the test, so every refusal the proxy made is judged.
 */
import { apiBackPressureScenario } from '../support/api-back-pressure-scenario.ts';
import { IN_MEMORY } from '../support/backend.ts';
import { startClusterController, startTestServer } from '../support/cluster.ts';

const CONTROLLER = 'scoby';

apiBackPressureScenario(IN_MEMORY, async () => {
  const cluster = await startTestServer();
  return {
    cluster,
    controllerKubeConfig: cluster.server.kubeConfig(CONTROLLER),
    startController: (kubeConfig) => startClusterController(cluster.server, { user: CONTROLLER }, kubeConfig),
    othersOnServer: false,
    stop: () => cluster.stop(),
  };
});
