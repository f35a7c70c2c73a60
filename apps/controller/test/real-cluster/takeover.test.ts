/**
 * test/support/takeover-scenario.ts on the real control plane, the controller as Scoby's ServiceAccount:
 * kube-controller-manager's garbage collector removes a deleted instance's children, in its own time.
 */
import { REAL_CONTROL_PLANE } from '../support/backend.ts';
import { GROUP, PLURAL, takeoverScenario } from '../support/takeover-scenario.ts';
import { registeredKindRole } from './support/grants.ts';
import { REAL_COLLECT_MS, startRealCluster } from './support/real-cluster.ts';

takeoverScenario(REAL_CONTROL_PLANE, async () => {
  const cluster = startRealCluster();
  await cluster.apply(registeredKindRole(GROUP, PLURAL));
  return { cluster, controller: cluster.controller, stop: () => cluster.stop(), collectMs: REAL_COLLECT_MS };
});
