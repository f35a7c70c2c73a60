/**
 * In-process hooks on the real control plane, the controller running as Scoby's ServiceAccount under its
 * shipped role and the role a cluster admin writes for the CRD (docs/spec/hooks-v1.md §10): the scenario
 * of test/integration/hooks-in-process.test.ts.
 */
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe } from 'vitest';
import type { RunningProcess } from '../../src/process/manager.ts';
import { loadHookModules } from '../../src/hook-modules/load.ts';
import type { ClusterVerbs } from '../support/cluster.ts';
import type { ScriptedModule } from '../support/hook-modules/scripted-module.ts';
import {
  inProcessHookTests,
  setUpInProcessHook,
  type InProcessHookSetup,
} from '../support/in-process-hook-scenario.ts';
import { registeredKindRole } from './support/grants.ts';
import { realClusterAdmin, startRealController } from './support/real-cluster.ts';

const CONTROLLER_DIR = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const MODULE = './test/support/hook-modules/scripted-module.ts';
const BROKEN = './test/support/hook-modules/missing.mjs';
const GROUP = 'inprocess.real.example.com';

let admin: ClusterVerbs;
let controller: RunningProcess;
let setup: InProcessHookSetup;

beforeAll(async () => {
  const hookModules = await loadHookModules([MODULE, BROKEN], CONTROLLER_DIR);
  const loaded = hookModules.get(MODULE);
  const broken = hookModules.get(BROKEN);
  if (!loaded?.ok || broken?.ok !== false) throw new Error('the test modules did not load as expected');
  admin = realClusterAdmin();
  for (const group of [GROUP, `mailer-not-allowed.${GROUP}`, `mailer-not-loaded.${GROUP}`]) {
    await admin.apply(registeredKindRole(group, 'mailers'));
  }
  controller = startRealController({ hookModules });
  setup = {
    cluster: admin,
    module: loaded.handlers as ScriptedModule,
    moduleName: MODULE,
    brokenModuleName: BROKEN,
    brokenModuleMessage: broken.message,
    group: GROUP,
    namespace: 'mail-in-process',
  };
  await setUpInProcessHook(setup);
});
afterAll(async () => {
  await controller?.stop();
  await admin?.stop();
});

describe('an in-process hook on the real control plane', () => {
  inProcessHookTests(() => setup);
});
