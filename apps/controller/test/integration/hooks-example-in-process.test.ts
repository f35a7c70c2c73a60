/**
 * The example hook ships both ways (docs/spec/hooks-v1.md §10): loaded by its package export
 * `@scoby/example-hook/module`, as an operator allows it with --hook-module, it drives a real instance
 * exactly as its HTTP server does in hooks-example.test.ts.
 */
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { KubeObject } from '@scoby/kube-objects';
import { FINALIZER } from '@scoby/registration';
import { loadHookModules } from '../../src/hook-modules/load.ts';
import { crdFor, startTestCluster, type TestCluster } from '../support/cluster.ts';
import { adapterOf, conditionOf, conditionsOf } from '../support/scoby.ts';
import { hookedRegistration, instanceWhere, registrationReady } from '../support/hooks-fixtures.ts';

const API = 'greet.example.com/v1';
const MODULE = '@scoby/example-hook/module';
const CONTROLLER_DIR = resolve(dirname(fileURLToPath(import.meta.url)), '../..');

let cluster: TestCluster;

beforeAll(async () => {
  cluster = await startTestCluster({ hookModules: await loadHookModules([MODULE], CONTROLLER_DIR) });
  await cluster.apply(crdFor({ group: 'greet.example.com', kind: 'Greeter', plural: 'greeters' }));
  await cluster.apply({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'hello' } });
});
afterAll(async () => {
  await cluster.stop();
});

const isReady = (object: KubeObject) => conditionOf(object, 'Ready')?.status === 'True';

describe('the example hook as an in-process module', () => {
  it('adds its variable and condition, and lets the instance go on deletion', async () => {
    await cluster.apply(
      hookedRegistration('greeter', 'greeters.greet.example.com', {
        hook: { module: MODULE, capabilities: ['pre-reconcile', 'finalize'] },
        conditionsFromHook: ['HookChecked'],
      }),
    );
    await registrationReady(cluster, 'greeter');
    await cluster.apply({
      apiVersion: API,
      kind: 'Greeter',
      metadata: { name: 'world', namespace: 'hello' },
      spec: { greeting: 'hi' },
    });
    const ready = await instanceWhere(cluster, API, 'Greeter', 'hello', 'world', 'Ready=True', isReady);
    expect(conditionsOf(ready)).toEqual([
      { type: 'DeploymentReady', status: 'True', reason: 'MinimumReplicasAvailable', message: '' },
      { type: 'HookChecked', status: 'True', reason: 'HookOK', message: 'checked by the example hook' },
      { type: 'Ready', status: 'True', reason: 'CONDITIONSOK', message: '' },
      { type: 'ServiceReady', status: 'True', reason: 'ServiceExist', message: '' },
    ]);
    expect((ready.status as Record<string, unknown>).annotations).toEqual({
      'example.triggermesh.io/hooked': 'true',
    });
    expect(ready.metadata.finalizers).toEqual([FINALIZER]);
    const deployment = await cluster.get('apps/v1', 'Deployment', 'hello', 'greeter-world');
    expect(adapterOf(deployment).env).toEqual([
      { name: 'GREETING', value: 'hi' },
      { name: 'EXAMPLE_HOOK', value: 'on' },
    ]);

    await cluster.remove(ready);
    await cluster.waitFor(
      'instance gone',
      async () => (await cluster.get(API, 'Greeter', 'hello', 'world')) === undefined,
    );
  });
});
