/**
 * test/support/instance-selection-scenario.ts on the real control plane, the controller as Scoby's
 * ServiceAccount under the shipped RBAC (Namespaces read for namespaceSelector).
 */
import { REAL_CONTROL_PLANE } from '../support/backend.ts';
import { instanceSelectionScenario, KINDS } from '../support/instance-selection-scenario.ts';
import { registeredKindRole } from './support/grants.ts';
import { startRealCluster } from './support/real-cluster.ts';

instanceSelectionScenario(REAL_CONTROL_PLANE, async () => {
  const cluster = startRealCluster();
  for (const { group, plural } of KINDS) await cluster.apply(registeredKindRole(group, plural));
  return { cluster, controller: cluster.controller, stop: () => cluster.stop(), settleMs: 1500 };
});
