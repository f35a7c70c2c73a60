/**
 * test/support/api-back-pressure-scenario.ts on the real control plane, the controller as Scoby's
 * ServiceAccount. The suite's other files leave registrations behind on the shared control plane and
 * this controller reconciles them too; their refused requests (their own Warning Events among them)
 * are not this test's, so what is judged is this test's namespace.
 */
import { KubeConfig } from '@kubernetes/client-node';
import { inject } from 'vitest';
import { apiBackPressureScenario, GROUP, PLURAL } from '../support/api-back-pressure-scenario.ts';
import { REAL_CONTROL_PLANE } from '../support/backend.ts';
import { registeredKindRole } from './support/grants.ts';
import { realClusterAdmin, startRealController } from './support/real-cluster.ts';

apiBackPressureScenario(REAL_CONTROL_PLANE, async () => {
  const admin = realClusterAdmin();
  await admin.apply(registeredKindRole(GROUP, PLURAL));
  const controllerKubeConfig = new KubeConfig();
  controllerKubeConfig.loadFromString(inject('realCluster').controllerKubeconfigYaml);
  return {
    cluster: admin,
    controllerKubeConfig,
    startController: (kubeConfig) => startRealController({ kubeConfig }),
    othersOnServer: true,
    stop: () => admin.stop(),
  };
});
