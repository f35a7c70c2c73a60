/**
 * A hook's conditions while the hook cannot be reached, on the in-memory server
 * (support/unreachable-hook-scenario.ts).
 */
import type { HookServer } from '@scoby/hooks-v1';
import { afterAll, beforeAll, describe, it } from 'vitest';
import { startTestCluster, type TestCluster } from '../support/cluster.ts';
import {
  hookConditionsUnknownUnderFail,
  hookConditionsUnknownUnderIgnore,
  prepareNamespace,
} from '../support/unreachable-hook-scenario.ts';

let cluster: TestCluster;
const hooks: HookServer[] = [];

beforeAll(async () => {
  cluster = await startTestCluster();
  await prepareNamespace(cluster);
});
afterAll(async () => {
  await cluster.stop();
  await Promise.all(hooks.map((hook) => hook.close()));
});

describe("a hook's conditions while the hook cannot be reached", () => {
  it('are Unknown/HookFailed with the failure beside Ready=False/HookFailed (failurePolicy Fail)', async () => {
    await hookConditionsUnknownUnderFail(cluster, hooks);
  });

  it('are Unknown/HookFailed with the failure, not counted in Ready, under failurePolicy Ignore', async () => {
    await hookConditionsUnknownUnderIgnore(cluster, hooks);
  });
});
