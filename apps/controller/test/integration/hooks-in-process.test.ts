/**
 * In-process hooks on the in-memory server (docs/spec/hooks-v1.md §10); the real control plane runs the
 * same scenario (test/real-cluster/hooks-in-process.test.ts).
 */
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { captureLogs } from '@scoby/controller-runtime/testing';
import { loadHookModules } from '../../src/hook-modules/load.ts';
import { startTestCluster, type TestCluster } from '../support/cluster.ts';
import type { ScriptedModule } from '../support/hook-modules/scripted-module.ts';
import {
  inProcessHookTests,
  setUpInProcessHook,
  type InProcessHookSetup,
} from '../support/in-process-hook-scenario.ts';

const CONTROLLER_DIR = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const MODULE = './test/support/hook-modules/scripted-module.ts';
const BROKEN = './test/support/hook-modules/missing.mjs';

const logs = captureLogs('info');
let cluster: TestCluster;
let setup: InProcessHookSetup;

beforeAll(async () => {
  const hookModules = await loadHookModules([MODULE, BROKEN], CONTROLLER_DIR);
  const loaded = hookModules.get(MODULE);
  const broken = hookModules.get(BROKEN);
  if (!loaded?.ok || broken?.ok !== false) throw new Error('the test modules did not load as expected');
  cluster = await startTestCluster({ hookModules, logger: logs.logger });
  setup = {
    cluster,
    module: loaded.handlers as ScriptedModule,
    moduleName: MODULE,
    brokenModuleName: BROKEN,
    brokenModuleMessage: broken.message,
    group: 'mail.example.com',
    namespace: 'mail',
  };
  await setUpInProcessHook(setup);
});
afterAll(async () => {
  await cluster.stop();
});

describe('an in-process hook on the in-memory server', () => {
  inProcessHookTests(() => setup);

  it('logs why a registration cannot call its module', () => {
    const notReady = logs
      .lines()
      .filter((line) => line.msg === 'registration not ready')
      .map(({ registration, reason }) => ({ registration, reason }));
    expect(notReady).toEqual([
      { registration: 'mailer-not-allowed', reason: 'HookModuleNotAllowed' },
      { registration: 'mailer-not-loaded', reason: 'HookModuleNotLoaded' },
    ]);
  });
});
