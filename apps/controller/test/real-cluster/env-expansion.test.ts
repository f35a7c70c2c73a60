/**
 * `$(VAR)` among values written in the registration (docs/spec/env.md §8), on the real control plane with
 * Scoby's ServiceAccount: kube-apiserver keeps the Deployment's env in the order Scoby wrote, and
 * kube-controller-manager copies it into the Pod the kubelet would start (kwok runs no container, so
 * the order the kubelet expands in is asserted, not a process's environment). The in-memory twin is
 * test/integration/env-expansion.test.ts.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  deploymentEnv,
  EXPANSION_ENV,
  EXPANSION_GROUP,
  EXPANSION_PLURAL,
  EXPANSION_REGISTRATION,
  expansionInstance,
  registerExpansion,
} from '../support/env-expansion.ts';
import { namespaceObject } from '../support/scoby.ts';
import { registeredKindRole } from './support/grants.ts';
import { startRealCluster, type RealCluster } from './support/real-cluster.ts';

const NAMESPACE = 'expansion-real';
let cluster: RealCluster;

beforeAll(async () => {
  cluster = startRealCluster();
  await cluster.apply(registeredKindRole(EXPANSION_GROUP, EXPANSION_PLURAL));
  await cluster.apply(namespaceObject(NAMESPACE));
  await registerExpansion(cluster);
});
afterAll(async () => {
  await cluster?.stop();
});

describe('$(VAR) references among registration values (real control plane)', () => {
  it('the Deployment and its Pod list the referred-to variable first', async () => {
    await cluster.apply(expansionInstance(NAMESPACE, 'orders'));
    expect(await deploymentEnv(cluster, NAMESPACE, 'orders')).toEqual(EXPANSION_ENV);
    const pod = await cluster.waitFor('the Deployment’s Pod', async () =>
      (await cluster.list('v1', 'Pod', NAMESPACE)).find((candidate) =>
        candidate.metadata.name?.startsWith(`${EXPANSION_REGISTRATION}-orders-`),
      ),
    );
    const containers = (pod.spec as { containers: { env?: unknown }[] }).containers;
    expect(containers.map((container) => container.env)).toEqual([EXPANSION_ENV]);
  });
});
