/**
 * Registration lifecycle (docs/spec/registration.md §4–§6): live edits, invalid specs, late CRDs, two
 * registrations for one CRD, and deletion with finalizer release.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { KubeObject } from '@scoby/kube-objects';
import { crdFor, startTestCluster, type TestCluster } from '../support/cluster.ts';
import {
  adapterOf,
  conditionsOf,
  editRegistration,
  eventViews,
  namespaceObject,
  reconcileCount,
  registrationObject,
  registrationTarget,
  sleep,
  waitForCondition,
  writesIn,
} from '../support/scoby.ts';

let cluster: TestCluster;

beforeAll(async () => {
  cluster = await startTestCluster();
  await cluster.apply(namespaceObject('shop'));
});
afterAll(() => cluster.stop());

const FINALIZER = 'scoby.triggermesh.io/finalizer';

async function createInstance(
  apiVersion: string,
  kind: string,
  name: string,
  spec: Record<string, unknown>,
): Promise<KubeObject> {
  return cluster.apply({ apiVersion, kind, metadata: { name, namespace: 'shop' }, spec });
}

async function deleteRegistration(name: string): Promise<void> {
  await cluster.remove(registrationObject(name, {}));
}

const envNames = (deployment: KubeObject | undefined) =>
  ((adapterOf(deployment).env ?? []) as { name: string }[]).map((entry) => entry.name);

describe('live edits', () => {
  const api = 'edit.example.com/v1';

  beforeAll(async () => {
    await cluster.apply(crdFor({ group: 'edit.example.com', kind: 'Relay', plural: 'relays' }));
    await cluster.apply(
      registrationObject('relay', {
        crd: 'relays.edit.example.com',
        workload: {
          fromImage: { repo: 'registry.example.com/relay:1' },
          parameterConfiguration: {
            add: {
              toEnv: [
                { name: 'LOG_LEVEL', value: 'debug' },
                { name: 'ZONE', value: 'a' },
              ],
            },
          },
        },
      }),
    );
    await waitForCondition(cluster, registrationTarget('relay'), 'Ready', 'True');
    for (const name of ['one', 'two']) await createInstance(api, 'Relay', name, { target: name });
    for (const name of ['one', 'two'])
      await waitForCondition(
        cluster,
        { apiVersion: api, kind: 'Relay', namespace: 'shop', name },
        'Ready',
        'True',
      );
  });

  it('re-renders every instance with the new image and without the removed variable', async () => {
    for (const name of ['relay-one', 'relay-two']) {
      expect(envNames(await cluster.get('apps/v1', 'Deployment', 'shop', name))).toEqual([
        'LOG_LEVEL',
        'TARGET',
        'ZONE',
      ]);
    }
    await editRegistration(cluster, 'relay', (spec) => ({
      ...spec,
      workload: {
        fromImage: { repo: 'registry.example.com/relay:2' },
        parameterConfiguration: { add: { toEnv: [{ name: 'LOG_LEVEL', value: 'debug' }] } },
      },
    }));
    for (const [deploymentName, target] of [
      ['relay-one', 'one'],
      ['relay-two', 'two'],
    ] as const) {
      const deployment = await cluster.waitFor(`${deploymentName} updated`, async () => {
        const object = await cluster.get('apps/v1', 'Deployment', 'shop', deploymentName);
        return adapterOf(object).image === 'registry.example.com/relay:2' ? object : undefined;
      });
      expect(adapterOf(deployment).env).toEqual([
        { name: 'LOG_LEVEL', value: 'debug' },
        { name: 'TARGET', value: target },
      ]);
    }
    const registration = await waitForCondition(cluster, registrationTarget('relay'), 'Ready', 'True');
    expect((registration.status as { observedGeneration?: number }).observedGeneration).toBe(2);
  });
});

describe('invalid registration', () => {
  const api = 'invalid.example.com/v1';
  const target = { apiVersion: api, kind: 'Probe', namespace: 'shop', name: 'ping' };

  it('reports the validation problems, runs no controller, and runs once fixed', async () => {
    await cluster.apply(crdFor({ group: 'invalid.example.com', kind: 'Probe', plural: 'probes' }));
    await cluster.apply(
      registrationObject('probe', {
        crd: 'probes.invalid.example.com',
        workload: {
          fromImage: { repo: 'registry.example.com/probe:1' },
        },
        // Past the CRD schema (a string), refused by Scoby's validation.
        hook: { version: 'v1', address: { uri: 'http://hooks.example.com/v1' }, timeout: '10s' },
      }),
    );
    const message = 'spec.hook.timeout: "10s" is not an ISO 8601 duration (for example "PT10S")';
    const invalid = await waitForCondition(cluster, registrationTarget('probe'), 'Ready', 'False');
    expect(conditionsOf(invalid)).toEqual([
      { type: 'CRDExists', status: 'True', reason: 'CRDEXIST', message: '' },
      { type: 'ControllerReady', status: 'False', reason: 'InvalidHookTimeout', message },
      { type: 'Ready', status: 'False', reason: 'InvalidHookTimeout', message },
      { type: 'Stalled', status: 'True', reason: 'InvalidHookTimeout', message },
    ]);

    // The registration says why in a Warning Event too.
    const warned = await cluster.waitFor('the Warning Event of the invalid registration', async () => {
      const views = eventViews(await cluster.events('default', 'probe'));
      return views.length > 0 ? views : undefined;
    });
    expect(warned).toEqual([{ type: 'Warning', reason: 'InvalidHookTimeout', message }]);

    cluster.server.requestLog.clear();
    await createInstance(api, 'Probe', 'ping', { host: 'example.org' });
    await sleep(300);
    expect(writesIn(cluster.server.requestLog.entries())).toEqual([
      { method: 'POST', path: '/apis/invalid.example.com/v1/namespaces/shop/probes' },
    ]);
    expect(await cluster.get(api, 'Probe', 'shop', 'ping')).not.toHaveProperty('status');

    await editRegistration(cluster, 'probe', (spec) => {
      const { hook: _hook, ...rest } = spec;
      return { ...rest, workload: { fromImage: { repo: 'registry.example.com/probe:1' } } };
    });
    await waitForCondition(cluster, registrationTarget('probe'), 'Ready', 'True');
    await waitForCondition(cluster, target, 'Ready', 'True');
    expect(envNames(await cluster.get('apps/v1', 'Deployment', 'shop', 'probe-ping'))).toEqual(['HOST']);
  });
});

describe('CRD created after the registration', () => {
  it('waits for the CRD without polling and starts when it appears', async () => {
    await cluster.apply(
      registrationObject('late', {
        crd: 'widgets.late.example.com',
        workload: { fromImage: { repo: 'registry.example.com/widget:1' } },
      }),
    );
    const waiting = await waitForCondition(cluster, registrationTarget('late'), 'CRDExists', 'False');
    const notFound = 'customresourcedefinitions.apiextensions.k8s.io "widgets.late.example.com" not found';
    expect(conditionsOf(waiting)).toEqual([
      { type: 'CRDExists', status: 'False', reason: 'CRDERROR', message: notFound },
      {
        type: 'ControllerReady',
        status: 'Unknown',
        reason: 'UNKNOWN',
        message: 'waiting for CRD "widgets.late.example.com"',
      },
      { type: 'Ready', status: 'False', reason: 'CRDERROR', message: notFound },
      { type: 'Reconciling', status: 'True', reason: 'CRDERROR', message: notFound },
    ]);

    const reconciles = await reconcileCount(cluster.controller.metrics, 'crdregistrations');
    cluster.server.requestLog.clear();
    await sleep(400);
    expect(await reconcileCount(cluster.controller.metrics, 'crdregistrations')).toBe(reconciles);
    expect(
      cluster.server.requestLog.entries().filter((entry) => entry.path.includes('customresourcedefinitions')),
    ).toEqual([]);

    await cluster.apply(crdFor({ group: 'late.example.com', kind: 'Widget', plural: 'widgets' }));
    const ready = await waitForCondition(
      cluster,
      registrationTarget('late'),
      'Ready',
      'True',
      undefined,
      3000,
    );
    expect(conditionsOf(ready)).toEqual([
      { type: 'CRDExists', status: 'True', reason: 'CRDEXIST', message: '' },
      { type: 'ControllerReady', status: 'True', reason: 'CONTROLLERSTARTED', message: '' },
      { type: 'Ready', status: 'True', reason: 'CONDITIONSOK', message: '' },
    ]);
    await createInstance('late.example.com/v1', 'Widget', 'gear', {});
    await waitForCondition(
      cluster,
      { apiVersion: 'late.example.com/v1', kind: 'Widget', namespace: 'shop', name: 'gear' },
      'Ready',
      'True',
    );
  });
});

describe('two registrations for one CRD', () => {
  const api = 'dup.example.com/v1';

  it('keeps the second one inactive until the first is deleted, then it adopts the instances', async () => {
    await cluster.apply(crdFor({ group: 'dup.example.com', kind: 'Queue', plural: 'queues' }));
    const spec = (image: string) => ({
      crd: 'queues.dup.example.com',
      workload: { fromImage: { repo: image } },
    });
    await cluster.apply(registrationObject('alpha', spec('registry.example.com/alpha:1')));
    await waitForCondition(cluster, registrationTarget('alpha'), 'Ready', 'True');
    await cluster.apply(registrationObject('beta', spec('registry.example.com/beta:1')));
    const inactive = await waitForCondition(cluster, registrationTarget('beta'), 'ControllerReady', 'False');
    const message = 'CRD "queues.dup.example.com" is already registered by CRDRegistration "alpha"';
    expect(conditionsOf(inactive)).toEqual([
      { type: 'CRDExists', status: 'True', reason: 'CRDEXIST', message: '' },
      { type: 'ControllerReady', status: 'False', reason: 'CRDAlreadyRegistered', message },
      { type: 'Ready', status: 'False', reason: 'CRDAlreadyRegistered', message },
      { type: 'Stalled', status: 'True', reason: 'CRDAlreadyRegistered', message },
    ]);
    await createInstance(api, 'Queue', 'jobs', {});
    await cluster.waitFor('alpha child', () => cluster.get('apps/v1', 'Deployment', 'shop', 'alpha-jobs'));
    expect(await cluster.get('apps/v1', 'Deployment', 'shop', 'beta-jobs')).toBeUndefined();

    await deleteRegistration('alpha');
    await waitForCondition(cluster, registrationTarget('beta'), 'Ready', 'True');
    const adopted = await cluster.waitFor('beta child', () =>
      cluster.get('apps/v1', 'Deployment', 'shop', 'beta-jobs'),
    );
    expect(adapterOf(adopted).image).toBe('registry.example.com/beta:1');
    await cluster.waitFor(
      'alpha child pruned',
      async () => (await cluster.get('apps/v1', 'Deployment', 'shop', 'alpha-jobs')) === undefined,
    );
    expect(
      await cluster.get('scoby.triggermesh.io/v1alpha1', 'CRDRegistration', undefined, 'alpha'),
    ).toBeUndefined();
  });
});

describe('deleting a registration', () => {
  const api = 'del.example.com/v1';
  const kept = { apiVersion: api, kind: 'Mirror', namespace: 'shop', name: 'kept' };

  it('stops the controller, releases instance finalizers, leaves children, and goes away', async () => {
    await cluster.apply(crdFor({ group: 'del.example.com', kind: 'Mirror', plural: 'mirrors' }));
    await cluster.apply(
      registrationObject('mirror', {
        crd: 'mirrors.del.example.com',
        workload: { fromImage: { repo: 'registry.example.com/mirror:1' } },
        // Nothing listens here: the finalize call of a deleted instance fails and holds it.
        hook: {
          version: 'v1',
          address: { uri: 'http://127.0.0.1:9/v1' },
          capabilities: ['finalize'],
          timeout: 'PT1S',
        },
      }),
    );
    await waitForCondition(cluster, registrationTarget('mirror'), 'Ready', 'True');
    await createInstance(api, 'Mirror', 'kept', {});
    await createInstance(api, 'Mirror', 'doomed', {});
    for (const name of ['kept', 'doomed']) {
      const ready = await waitForCondition(cluster, { ...kept, name }, 'Ready', 'True');
      expect(ready.metadata.finalizers).toEqual([FINALIZER]);
    }
    await cluster.remove({
      apiVersion: api,
      kind: 'Mirror',
      metadata: { name: 'doomed', namespace: 'shop' },
    });
    await cluster.waitFor('doomed held by the failing finalize hook', async () => {
      const events = await cluster.events('shop', 'doomed');
      return events.some((event) => event.reason === 'HookFailed');
    });
    expect((await cluster.get(api, 'Mirror', 'shop', 'doomed'))?.metadata.finalizers).toEqual([FINALIZER]);

    await deleteRegistration('mirror');
    await cluster.waitFor(
      'registration gone',
      async () =>
        (await cluster.get('scoby.triggermesh.io/v1alpha1', 'CRDRegistration', undefined, 'mirror')) ===
        undefined,
    );
    await cluster.waitFor(
      'doomed deleted',
      async () => (await cluster.get(api, 'Mirror', 'shop', 'doomed')) === undefined,
    );
    const released = await cluster.get(api, 'Mirror', 'shop', 'kept');
    expect(released?.metadata.finalizers).toBeUndefined();
    expect(
      eventViews(
        (await cluster.events('shop', 'kept')).filter((event) => event.reason === 'FinalizerReleased'),
      ),
    ).toEqual([{ type: 'Normal', reason: 'FinalizerReleased', message: `removed finalizer ${FINALIZER}` }]);
    expect(await cluster.get('apps/v1', 'Deployment', 'shop', 'mirror-kept')).toBeDefined();

    cluster.server.requestLog.clear();
    await createInstance(api, 'Mirror', 'orphan', {});
    await cluster.edit(kept, (current) => ({ ...current, spec: { changed: true } }));
    await sleep(300);
    // Only this test's own writes: no child, status, finalizer or Event write by a controller.
    expect(writesIn(cluster.server.requestLog.entries())).toEqual([
      { method: 'POST', path: '/apis/del.example.com/v1/namespaces/shop/mirrors' },
      { method: 'PUT', path: '/apis/del.example.com/v1/namespaces/shop/mirrors/kept' },
    ]);
    expect(await cluster.get('apps/v1', 'Deployment', 'shop', 'mirror-orphan')).toBeUndefined();
  });
});

describe('deleting an instance', () => {
  it('lets the garbage collector remove its children', async () => {
    await cluster.apply(crdFor({ group: 'gc.example.com', kind: 'Cache', plural: 'caches' }));
    await cluster.apply(
      registrationObject('cache', {
        crd: 'caches.gc.example.com',
        workload: {
          fromImage: { repo: 'registry.example.com/cache:1' },
          formFactor: { deployment: { service: { port: 6379, targetPort: 6379 } } },
        },
      }),
    );
    await waitForCondition(cluster, registrationTarget('cache'), 'Ready', 'True');
    const instance = await createInstance('gc.example.com/v1', 'Cache', 'sessions', {});
    await waitForCondition(
      cluster,
      { apiVersion: 'gc.example.com/v1', kind: 'Cache', namespace: 'shop', name: 'sessions' },
      'Ready',
      'True',
    );
    expect(await cluster.get('v1', 'Service', 'shop', 'cache-sessions')).toBeDefined();

    await cluster.remove(instance);
    await cluster.waitFor(
      'children collected',
      async () =>
        (await cluster.get('apps/v1', 'Deployment', 'shop', 'cache-sessions')) === undefined &&
        (await cluster.get('v1', 'Service', 'shop', 'cache-sessions')) === undefined,
    );
  });
});
