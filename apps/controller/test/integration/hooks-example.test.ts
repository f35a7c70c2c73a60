/**
 * The example hook app (apps/example-hook) driving real instances, and the compatibility form of
 * `formFactor` (docs/spec/hooks-v1.md §3, SCOBY_HOOK_FORM_FACTOR_FORMAT=object).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { HookServer } from '@scoby/hooks-v1';
import type { KubeObject } from '@scoby/kube-objects';
import { FINALIZER } from '@scoby/registration';
// eslint-disable-next-line @nx/enforce-module-boundaries -- the example hook app is a test fixture here, not a dependency of the controller
import { createExampleHook } from '@scoby/example-hook';
import type { RunningProcess } from '../../src/process/manager.ts';
import { crdFor, startTestCluster, type TestCluster } from '../support/cluster.ts';
import {
  adapterOf,
  conditionOf,
  conditionsOf,
  REGISTRATION_API,
  registrationTarget,
} from '../support/scoby.ts';
import {
  hookedRegistration,
  instanceWhere,
  mergePatch,
  registrationReady,
  replaceController,
} from '../support/hooks-fixtures.ts';
import { NO_CHANGE, startScriptedHook, type ScriptedHook } from '../support/hooks-server.ts';

const API = 'greet.example.com/v1';

let cluster: TestCluster;
let replacement: RunningProcess | undefined;
const hooks: { close(): Promise<void> }[] = [];

beforeAll(async () => {
  cluster = await startTestCluster();
  await cluster.apply(crdFor({ group: 'greet.example.com', kind: 'Greeter', plural: 'greeters' }));
  await cluster.apply({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'hello' } });
});
afterAll(async () => {
  await replacement?.stop();
  await cluster.stop();
  await Promise.all(hooks.map((hook) => hook.close()));
});

async function exampleHook(formFactorFormat: 'string' | 'object'): Promise<HookServer> {
  const hook = await createExampleHook({ formFactorFormat, finalizeWhenCondition: undefined });
  hooks.push(hook);
  return hook;
}

async function scriptedHook(): Promise<ScriptedHook> {
  const hook = await startScriptedHook(NO_CHANGE);
  hooks.push(hook);
  return hook;
}

/** Registers the Greeter CRD with the example hook and creates one instance. */
async function greeterWith(hookUrl: string, instance: string): Promise<void> {
  const registration = hookedRegistration('greeter', 'greeters.greet.example.com', {
    hook: { address: { uri: hookUrl }, capabilities: ['pre-reconcile', 'finalize'] },
    conditionsFromHook: ['HookChecked'],
  });
  if (await cluster.get(REGISTRATION_API, 'CRDRegistration', undefined, 'greeter')) {
    await mergePatch(cluster, registrationTarget('greeter'), { spec: registration.spec });
  } else {
    await cluster.apply(registration);
  }
  await registrationReady(cluster, 'greeter');
  await cluster.apply({
    apiVersion: API,
    kind: 'Greeter',
    metadata: { name: instance, namespace: 'hello' },
    spec: { greeting: 'hi' },
  });
}

const greeter = (name: string, description: string, probe: (object: KubeObject) => boolean) =>
  instanceWhere(cluster, API, 'Greeter', 'hello', name, description, probe);

const isReady = (object: KubeObject) => conditionOf(object, 'Ready')?.status === 'True';

describe('the example hook', () => {
  it('adds its variable and condition, and lets the instance go on deletion', async () => {
    const hook = await exampleHook('string');
    await greeterWith(hook.url, 'world');
    const ready = await greeter('world', 'Ready=True', isReady);
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
      'instance and children gone',
      async () =>
        (await cluster.get(API, 'Greeter', 'hello', 'world')) === undefined &&
        (await cluster.get('apps/v1', 'Deployment', 'hello', 'greeter-world')) === undefined &&
        (await cluster.get('v1', 'Service', 'hello', 'greeter-world')) === undefined,
    );
  });
});

describe('SCOBY_HOOK_FORM_FACTOR_FORMAT=object (hookFormFactorFormat)', () => {
  it('sends formFactor as {"name": ...} and nothing else differs; hooks written for it work', async () => {
    replacement = await replaceController(cluster, { hookFormFactorFormat: 'object' });
    const recorder = await scriptedHook();
    await greeterWith(recorder.url, 'recorded');
    const call = await cluster.waitFor(
      'a recorded call',
      async () => recorder.callsFor('pre-reconcile', 'recorded')[0],
    );
    expect(call.body.formFactor).toEqual({ name: 'deployment' });
    expect(Object.keys(call.body).sort()).toEqual(['children', 'formFactor', 'object', 'phase']);

    const legacy = await exampleHook('object');
    await greeterWith(legacy.url, 'legacy');
    const ready = await greeter('legacy', 'Ready=True', isReady);
    expect(conditionOf(ready, 'HookChecked')).toEqual({
      type: 'HookChecked',
      status: 'True',
      reason: 'HookOK',
      message: 'checked by the example hook',
    });
  });
});
