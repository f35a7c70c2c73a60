/**
 * `$(VAR)` among values written in the registration (docs/spec/env.md §8), on the in-memory API server: the
 * Deployment lists a referred-to variable before the variable that refers to it, so the kubelet
 * expands the reference; spec-derived values stay literal. test/real-cluster/env-expansion.test.ts is
 * the real control plane's twin.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestCluster, type TestCluster } from '../support/cluster.ts';
import {
  deploymentEnv,
  EXPANSION_ENV,
  expansionInstance,
  registerExpansion,
} from '../support/env-expansion.ts';
import { namespaceObject } from '../support/scoby.ts';

const NAMESPACE = 'expansion';
let cluster: TestCluster;

beforeAll(async () => {
  cluster = await startTestCluster();
  await cluster.apply(namespaceObject(NAMESPACE));
  await registerExpansion(cluster);
});
afterAll(() => cluster.stop());

describe('$(VAR) references among registration values', () => {
  it('writes the referred-to variable first, so the kubelet expands the reference', async () => {
    await cluster.apply(expansionInstance(NAMESPACE, 'orders'));
    expect(await deploymentEnv(cluster, NAMESPACE, 'orders')).toEqual(EXPANSION_ENV);
  });
});
