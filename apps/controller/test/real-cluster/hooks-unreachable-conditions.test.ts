/**
 * A hook's conditions while the hook cannot be reached (support/unreachable-hook-scenario.ts) on the
 * real control plane, the controller as Scoby's ServiceAccount under the shipped RBAC.
 */
import type { HookServer } from '@scoby/hooks-v1';
import { afterAll, beforeAll, describe, it } from 'vitest';
import type { RunningProcess } from '../../src/index.ts';
import {
  GROUP,
  hookConditionsUnknownUnderFail,
  hookConditionsUnknownUnderIgnore,
  KINDS,
  NAMESPACE,
  prepareNamespace,
} from '../support/unreachable-hook-scenario.ts';
import { registeredKindRole } from './support/grants.ts';
import { realClusterAdmin, startRealController } from './support/real-cluster.ts';

const admin = realClusterAdmin();
let controller: RunningProcess;
const hooks: HookServer[] = [];

beforeAll(async () => {
  for (const kind of Object.values(KINDS))
    await admin.apply(registeredKindRole(GROUP, `${kind.toLowerCase()}s`));
  await prepareNamespace(admin);
  controller = startRealController({ workingNamespaces: [NAMESPACE] });
});
afterAll(async () => {
  await controller?.stop();
  await Promise.all(hooks.map((hook) => hook.close()));
  await admin.stop();
});

describe("a hook's conditions while the hook cannot be reached", () => {
  it('are Unknown/HookFailed with the failure beside Ready=False/HookFailed (failurePolicy Fail)', async () => {
    await hookConditionsUnknownUnderFail(admin, hooks);
  });

  it('are Unknown/HookFailed with the failure, not counted in Ready, under failurePolicy Ignore', async () => {
    await hookConditionsUnknownUnderIgnore(admin, hooks);
  });
});
