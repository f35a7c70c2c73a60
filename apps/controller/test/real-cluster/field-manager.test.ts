/**
 * test/support/field-manager-scenario.ts on the real control plane, the controller as Scoby's
 * ServiceAccount: kube-apiserver records every write in managedFields under its field manager.
 */
import { REAL_CONTROL_PLANE } from '../support/backend.ts';
import { fieldManagerScenario, GROUP, PLURAL } from '../support/field-manager-scenario.ts';
import { registeredKindRole } from './support/grants.ts';
import { startRealCluster } from './support/real-cluster.ts';

fieldManagerScenario(REAL_CONTROL_PLANE, async () => {
  const cluster = startRealCluster();
  await cluster.apply(registeredKindRole(GROUP, PLURAL));
  return { cluster, controller: cluster.controller, stop: () => cluster.stop() };
});
