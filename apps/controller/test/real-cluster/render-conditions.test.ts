/**
 * test/support/render-conditions-scenario.ts on the real control plane, the controller as Scoby's
 * ServiceAccount. The Deployments' conditions come from the real controllers: a ResourceQuota of
 * zero pods keeps one unavailable (kube-controller-manager reports Available=False), kwok's pods make
 * the others available.
 */
import { REAL_CONTROL_PLANE } from '../support/backend.ts';
import { KINDS, renderConditionsScenario } from '../support/render-conditions-scenario.ts';
import { namespaceObject, waitForCondition } from '../support/scoby.ts';
import { registeredKindRole } from './support/grants.ts';
import { startRealCluster } from './support/real-cluster.ts';

const QUOTA_NAMESPACE = 'conditions-quota';

renderConditionsScenario(REAL_CONTROL_PLANE, async () => {
  const cluster = startRealCluster();
  for (const { group, plural } of KINDS) await cluster.apply(registeredKindRole(group, plural));
  await cluster.apply(namespaceObject(QUOTA_NAMESPACE));
  await cluster.apply({
    apiVersion: 'v1',
    kind: 'ResourceQuota',
    metadata: { namespace: QUOTA_NAMESPACE, name: 'no-pods' },
    spec: { hard: { pods: '0' } },
  });
  // kube-apiserver enforces a quota only once the quota controller has written its status.hard.
  await cluster.waitFor(`ResourceQuota ${QUOTA_NAMESPACE}/no-pods enforced`, async () => {
    const quota = await cluster.get('v1', 'ResourceQuota', QUOTA_NAMESPACE, 'no-pods');
    const hard = (quota?.status as { hard?: Record<string, string> } | undefined)?.hard;
    return hard?.['pods'] === '0' ? quota : undefined;
  });
  const deployment = (namespace: string, name: string) => ({
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    namespace,
    name,
  });
  return {
    cluster,
    controller: cluster.controller,
    stop: () => cluster.stop(),
    blockedNamespace: QUOTA_NAMESPACE,
    testWritesDeploymentStatus: false,
    async deploymentUnavailable(admin, namespace, name) {
      await waitForCondition(admin, deployment(namespace, name), 'Available', 'False');
    },
    async deploymentAvailable(admin, namespace, name) {
      await waitForCondition(admin, deployment(namespace, name), 'Available', 'True');
    },
  };
});
