/**
 * The hook address (docs/spec/hooks-v1.md §1, docs/spec/registration.md §4, §5.1, §6.2, address.md): resolved by the
 * registration reconcile, published as status.annotations.hookURL, followed by every instance.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { KubeObject } from '@scoby/kube-objects';
import type { RunningProcess } from '../../src/process/manager.ts';
import { crdFor, startTestCluster, type TestCluster } from '../support/cluster.ts';
import { conditionsOf, REGISTRATION_API, waitForCondition, registrationTarget } from '../support/scoby.ts';
import {
  hookedRegistration,
  mergePatch,
  registrationReady,
  replaceController,
  type HookSpec,
} from '../support/hooks-fixtures.ts';
import { NO_CHANGE, startScriptedHook, type ScriptedHook } from '../support/hooks-server.ts';

const API = 'notify.example.com/v1';
const CRD = 'mailers.notify.example.com';

let cluster: TestCluster;
let replacement: RunningProcess | undefined;
let first: ScriptedHook;
let second: ScriptedHook;

beforeAll(async () => {
  cluster = await startTestCluster();
  [first, second] = await Promise.all([startScriptedHook(NO_CHANGE), startScriptedHook(NO_CHANGE)]);
  await cluster.apply(crdFor({ group: 'notify.example.com', kind: 'Mailer', plural: 'mailers' }));
  for (const name of ['shop', 'hooks'])
    await cluster.apply({ apiVersion: 'v1', kind: 'Namespace', metadata: { name } });
});
afterAll(async () => {
  await replacement?.stop();
  await cluster.stop();
  await Promise.all([first.close(), second.close()]);
});

const getRegistration = () => cluster.get(REGISTRATION_API, 'CRDRegistration', undefined, 'mailer');

async function setHook(hook: HookSpec | undefined): Promise<void> {
  const spec = hookedRegistration('mailer', CRD, hook ? { hook } : {}).spec as Record<string, unknown>;
  await mergePatch(cluster, registrationTarget('mailer'), { spec: { ...spec, hook: spec.hook ?? null } });
}

function hookUrlOf(registration: KubeObject | undefined): unknown {
  return (registration?.status as { annotations?: Record<string, string> } | undefined)?.annotations?.hookURL;
}

const waitForHookUrl = (url: string | undefined) =>
  cluster.waitFor(`hookURL ${url ?? 'removed'}`, async () => {
    const registration = await getRegistration();
    return hookUrlOf(registration) === url ? registration : undefined;
  });

describe('hook address resolution', () => {
  it('publishes a uri as hookURL, and every instance calls it', async () => {
    await cluster.apply(
      hookedRegistration('mailer', CRD, {
        hook: { address: { uri: first.url }, capabilities: ['pre-reconcile'] },
      }),
    );
    const registration = await registrationReady(cluster, 'mailer');
    expect(hookUrlOf(registration)).toBe(first.url);
    await cluster.apply({
      apiVersion: API,
      kind: 'Mailer',
      metadata: { name: 'orders', namespace: 'shop' },
      spec: {},
    });
    await cluster.waitFor(
      'a call to the first hook',
      async () => first.callsFor('pre-reconcile', 'orders').length > 0,
    );
  });

  it('sends every instance to a new URL without a restart', async () => {
    await setHook({ address: { uri: `${second.url}v2` }, capabilities: ['pre-reconcile'] });
    await waitForHookUrl(`${second.url}v2`);
    const call = await cluster.waitFor(
      'a call to the second hook',
      async () => second.callsFor('pre-reconcile', 'orders')[0],
    );
    expect(call.target).toBe('/v2');
  });

  it('reports a ref to a missing Service as HOOKFAILED, keeping the last URL, and resolves once it exists', async () => {
    await setHook({
      address: {
        ref: { apiVersion: 'v1', kind: 'Service', name: 'mailer-hook', namespace: 'hooks' },
        uri: 'http://:8080/v1',
      },
      capabilities: [],
    });
    const failed = await waitForCondition(
      cluster,
      registrationTarget('mailer'),
      'ControllerReady',
      'False',
      'HOOKFAILED',
    );
    expect(conditionsOf(failed)).toEqual([
      { type: 'CRDExists', status: 'True', reason: 'CRDEXIST', message: '' },
      {
        type: 'ControllerReady',
        status: 'False',
        reason: 'HOOKFAILED',
        message: 'services "mailer-hook" not found',
      },
      { type: 'Ready', status: 'False', reason: 'HOOKFAILED', message: 'services "mailer-hook" not found' },
      {
        type: 'Reconciling',
        status: 'True',
        reason: 'HOOKFAILED',
        message: 'services "mailer-hook" not found',
      },
    ]);
    expect(hookUrlOf(failed)).toBe(`${second.url}v2`);

    await cluster.apply({
      apiVersion: 'v1',
      kind: 'Service',
      metadata: { name: 'mailer-hook', namespace: 'hooks' },
      spec: { ports: [{ port: 8080 }] },
    });
    const resolved = await registrationReady(cluster, 'mailer');
    expect(hookUrlOf(resolved)).toBe('http://mailer-hook.hooks.svc.cluster.local:8080/v1');
    expect(conditionsOf(resolved)).toEqual([
      { type: 'CRDExists', status: 'True', reason: 'CRDEXIST', message: '' },
      { type: 'ControllerReady', status: 'True', reason: 'CONTROLLERSTARTED', message: '' },
      { type: 'Ready', status: 'True', reason: 'CONDITIONSOK', message: '' },
    ]);
  });

  it('removes hookURL with spec.hook', async () => {
    await setHook(undefined);
    const registration = await waitForHookUrl(undefined);
    expect((registration.status as Record<string, unknown>).annotations).toBeUndefined();
  });
});

describe('re-resolving a hook address given by ref', () => {
  it('follows a change of the referenced object within the refresh period', async () => {
    replacement = await replaceController(cluster, { hookAddressRefreshMs: 200 });
    await cluster.apply(crdFor({ group: 'net.example.com', kind: 'Gateway', plural: 'gateways' }));
    await cluster.apply({
      apiVersion: 'net.example.com/v1',
      kind: 'Gateway',
      metadata: { name: 'edge', namespace: 'hooks' },
    });
    const gatewayResource = {
      group: 'net.example.com',
      version: 'v1',
      resource: 'gateways',
      namespaced: true,
    };
    const publish = (url: string) =>
      cluster.client.patch(
        gatewayResource,
        'hooks',
        'edge',
        { status: { address: { url } } },
        { subresource: 'status' },
      );
    await publish(first.url);

    await setHook({
      address: {
        ref: { apiVersion: 'net.example.com/v1', kind: 'Gateway', name: 'edge', namespace: 'hooks' },
        uri: '/refreshed',
      },
      capabilities: ['pre-reconcile'],
    });
    await waitForHookUrl(`${first.url}refreshed`);
    await cluster.waitFor('a call to the first hook', async () =>
      first.requests.some((call) => call.target === '/refreshed'),
    );

    await publish(second.url);
    await waitForHookUrl(`${second.url}refreshed`);
    await cluster.waitFor('a call to the second hook', async () =>
      second.requests.some((call) => call.target === '/refreshed'),
    );
  });
});
