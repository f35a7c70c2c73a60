/**
 * test/support/observability-scenario.ts on the real control plane, the controller as Scoby's
 * ServiceAccount: a ResourceQuota of zero pods in the scenario's namespace keeps its Deployment
 * unavailable, so kube-controller-manager itself reports Available=False.
 */
import { captureLogs } from '@scoby/controller-runtime/testing';
import { REAL_CONTROL_PLANE } from '../support/backend.ts';
import { GROUP, NAMESPACE, observabilityScenario, PLURAL } from '../support/observability-scenario.ts';
import { namespaceObject, waitForCondition } from '../support/scoby.ts';
import { registeredKindRole } from './support/grants.ts';
import { realClusterAdmin, startRealController } from './support/real-cluster.ts';

observabilityScenario(REAL_CONTROL_PLANE, async () => {
  const admin = realClusterAdmin();
  await admin.apply(registeredKindRole(GROUP, PLURAL));
  await admin.apply(namespaceObject(NAMESPACE));
  await admin.apply({
    apiVersion: 'v1',
    kind: 'ResourceQuota',
    metadata: { namespace: NAMESPACE, name: 'no-pods' },
    spec: { hard: { pods: '0' } },
  });
  // kube-apiserver enforces a quota only once the quota controller has written its status.hard: a pod
  // created before that is admitted, becomes Ready through kwok, and the instance is rightly Ready=True
  // (CI on a loaded machine saw exactly that).
  await admin.waitFor(`ResourceQuota ${NAMESPACE}/no-pods enforced`, async () => {
    const quota = await admin.get('v1', 'ResourceQuota', NAMESPACE, 'no-pods');
    const hard = (quota?.status as { hard?: Record<string, string> } | undefined)?.hard;
    return hard?.['pods'] === '0' ? quota : undefined;
  });
  const logs = captureLogs('info');
  // Its instances only: the files before it share the control plane and leave instances (an unreachable
  // hook's, say) that a controller serving every namespace would go on writing inside the window in
  // which this scenario counts its writes (CI saw a PATCH there).
  const controller = startRealController({ logger: logs.logger, workingNamespaces: [NAMESPACE] });
  return {
    cluster: admin,
    controller,
    logs,
    // kube-controller-manager reports the Deployment unavailable; on a loaded machine that alone can
    // take a while, so it is awaited on its own and a timeout says which side was late.
    async deploymentUnavailable(namespace, name) {
      await waitForCondition(
        admin,
        { apiVersion: 'apps/v1', kind: 'Deployment', namespace, name },
        'Available',
        'False',
      );
    },
    async stop() {
      await controller.stop();
      await admin.stop();
    },
  };
});
