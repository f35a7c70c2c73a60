/**
 * Scoby never modifies an object it does not control (docs/spec/children-and-status.md §5.1), run
 * alike on the in-memory server and on the real control plane: an instance or a hook naming a child
 * like another team's object gets ApplyFailed, the object is left exactly as it was (whole, its
 * resourceVersion and managedFields included), and deleting the instance leaves it in place.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { KubeObject } from '@scoby/kube-objects';
import type { ScenarioBackend, ServerWrites } from './backend.ts';
import { crdFor } from './cluster.ts';
import { conditionOf } from './scoby.ts';
import { eventsOf, hookedRegistration, instanceWhere, registrationReady } from './hooks-fixtures.ts';
import { NO_CHANGE, startScriptedHook, type HookScript, type ScriptedHook } from './hooks-server.ts';

export const GROUP = 'notify.example.com';
export const PLURAL = 'mailers';
const API = `${GROUP}/v1`;
const DEPLOYMENT_PATH = '/apis/apps/v1/namespaces/shop/deployments';
const SERVICE_PATH = '/api/v1/namespaces/shop/services';

export interface TakeoverBackend extends ScenarioBackend {
  /** How long the garbage collector may take to remove a deleted instance's children. */
  collectMs?: number;
  /** In memory only: no request at all reached the other team's objects, not even one that changed nothing. */
  serverWrites?: ServerWrites;
}

/** Declares the scenario's tests on the backend `start` gives (called once, before them), named `on`. */
export function takeoverScenario(on: string, start: () => Promise<TakeoverBackend>): void {
  let backend: TakeoverBackend;
  let cluster: TakeoverBackend['cluster'];
  let hook: ScriptedHook;
  /** The hook's behaviour per instance name; NO_CHANGE for the others. */
  const behaviour = new Map<string, HookScript>();

  beforeAll(async () => {
    backend = await start();
    cluster = backend.cluster;
    hook = await startScriptedHook((request) =>
      (behaviour.get(request.body.object.metadata.name ?? '') ?? NO_CHANGE)(request),
    );
    await cluster.apply(crdFor({ group: GROUP, kind: 'Mailer', plural: PLURAL }));
    await cluster.apply({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'shop' } });
    await cluster.waitFor(
      'the CRD served',
      async () => (await cluster.client.resourceFor(API, 'Mailer')) !== undefined,
    );
    await cluster.apply(
      hookedRegistration('mailer', `${PLURAL}.${GROUP}`, {
        hook: { address: { uri: hook.url }, capabilities: ['pre-reconcile'] },
      }),
    );
    await registrationReady(cluster, 'mailer');
  });
  afterAll(async () => {
    await backend?.stop();
    await hook?.close();
  });

  /** Another team's Deployment: three replicas, its own labels and selector, no owner. */
  function foreignDeployment(name: string, labels: Record<string, string> = { app: 'payments' }): KubeObject {
    return {
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      metadata: { name, namespace: 'shop', labels },
      spec: {
        replicas: 3,
        selector: { matchLabels: { app: 'payments' } },
        template: {
          metadata: { labels: { app: 'payments' } },
          spec: { containers: [{ name: 'payments', image: 'registry.example.com/payments:7.1' }] },
        },
      },
    };
  }

  function foreignService(name: string, labels: Record<string, string> = { app: 'payments' }): KubeObject {
    return {
      apiVersion: 'v1',
      kind: 'Service',
      metadata: { name, namespace: 'shop', labels },
      spec: { selector: { app: 'payments' }, ports: [{ port: 443, targetPort: 8443, protocol: 'TCP' }] },
    };
  }

  /** Creates the objects and returns them as stored once the Deployment's rollout settled (three replicas available). */
  async function createVictims(objects: KubeObject[]): Promise<KubeObject[]> {
    for (const object of objects) await cluster.apply(object);
    return Promise.all(
      objects.map((object) =>
        cluster.waitFor(`${object.kind} ${object.metadata.name} settled`, async () => {
          const stored = await cluster.get(
            object.apiVersion,
            object.kind,
            'shop',
            object.metadata.name ?? '',
          );
          if (object.kind !== 'Deployment') return stored;
          return (stored?.status as { availableReplicas?: number } | undefined)?.availableReplicas === 3
            ? stored
            : undefined;
        }),
      ),
    );
  }

  function stored(objects: KubeObject[]): Promise<(KubeObject | undefined)[]> {
    return Promise.all(
      objects.map((object) =>
        cluster.get(object.apiVersion, object.kind, 'shop', object.metadata.name ?? ''),
      ),
    );
  }

  function createMailer(name: string): Promise<KubeObject> {
    return cluster.apply({
      apiVersion: API,
      kind: 'Mailer',
      metadata: { name, namespace: 'shop' },
      spec: {},
    });
  }

  function applyFailed(name: string, message: string): Promise<KubeObject> {
    return instanceWhere(cluster, API, 'Mailer', 'shop', name, `Ready=False/ApplyFailed`, (object) => {
      const ready = conditionOf(object, 'Ready');
      return ready?.status === 'False' && ready.reason === 'ApplyFailed' && ready.message === message;
    });
  }

  /** In memory only: no request but GET reached the objects' own paths since the mark. */
  function expectNoWritesTo(objects: KubeObject[]): void {
    if (!backend.serverWrites) return;
    const paths = objects.map(
      (object) =>
        `${object.kind === 'Service' ? SERVICE_PATH : DEPLOYMENT_PATH}/${object.metadata.name ?? ''}`,
    );
    expect(backend.serverWrites.since().filter((entry) => paths.includes(entry.path))).toEqual([]);
  }

  async function deleteAndWaitGone(name: string): Promise<void> {
    await cluster.remove({ apiVersion: API, kind: 'Mailer', metadata: { name, namespace: 'shop' } });
    await cluster.waitFor(`Mailer ${name} gone`, async () =>
      (await cluster.get(API, 'Mailer', 'shop', name)) === undefined ? true : undefined,
    );
  }

  /** Deletes a control instance and waits until garbage collection removed its Deployment. */
  async function garbageCollectionRan(name: string): Promise<void> {
    await createMailer(name);
    await cluster.waitFor(`Deployment mailer-${name}`, () =>
      cluster.get('apps/v1', 'Deployment', 'shop', `mailer-${name}`),
    );
    await deleteAndWaitGone(name);
    await cluster.waitFor(
      `Deployment mailer-${name} collected`,
      async () =>
        (await cluster.get('apps/v1', 'Deployment', 'shop', `mailer-${name}`)) === undefined
          ? true
          : undefined,
      backend.collectMs,
    );
  }

  describe(`an instance whose children are named like objects of another team (${on})`, () => {
    it('writes nothing to them, reports ApplyFailed, and deleting the instance leaves them in place', async () => {
      const victims = [foreignDeployment('mailer-payments'), foreignService('mailer-payments')];
      const before = await createVictims(victims);
      backend.serverWrites?.mark();

      await createMailer('payments');
      const message =
        'Deployment "shop/mailer-payments" exists and is not controlled by Mailer "payments"; ' +
        'Service "shop/mailer-payments" exists and is not controlled by Mailer "payments"';
      await applyFailed('payments', message);
      expect(await stored(victims)).toEqual(before);
      expectNoWritesTo(victims);
      const events = await eventsOf(cluster, 'shop', 'payments');
      expect(events.filter((event) => event.reason === 'ApplyFailed')).toEqual([
        { type: 'Warning', reason: 'ApplyFailed', message },
      ]);

      await deleteAndWaitGone('payments');
      await garbageCollectionRan('control');
      expect(await stored(victims)).toEqual(before);
      expectNoWritesTo(victims);
    });

    it('leaves alone an object that carries Scoby’s labels but no controller reference to the instance', async () => {
      const copied = {
        'app.kubernetes.io/name': 'mailer',
        'app.kubernetes.io/instance': 'copycat',
        'app.kubernetes.io/component': 'workload',
        'app.kubernetes.io/part-of': 'scoby-component',
        'app.kubernetes.io/managed-by': 'scoby-controller',
      };
      const victims = [foreignDeployment('mailer-copycat', copied)];
      const before = await createVictims(victims);
      backend.serverWrites?.mark();

      await createMailer('copycat');
      await applyFailed(
        'copycat',
        'Deployment "shop/mailer-copycat" exists and is not controlled by Mailer "copycat"',
      );
      // The Service child has no rival and is created.
      expect(await cluster.get('v1', 'Service', 'shop', 'mailer-copycat')).toBeDefined();
      expect(await stored(victims)).toEqual(before);
      expectNoWritesTo(victims);

      await deleteAndWaitGone('copycat');
      expect(await stored(victims)).toEqual(before);
      expectNoWritesTo(victims);
    });
  });

  describe(`a hook child named like an object of another team (${on})`, () => {
    it('writes nothing to it, reports ApplyFailed, still writes the other children', async () => {
      const victims = [foreignService('billing-api')];
      const before = await createVictims(victims);
      behaviour.set('hooked', (request) => ({
        status: 200,
        body: {
          children: {
            ...request.body.children,
            api: {
              apiVersion: 'v1',
              kind: 'Service',
              metadata: { name: 'billing-api' },
              spec: { selector: { app: 'mailer' }, ports: [{ port: 80, targetPort: 8080, protocol: 'TCP' }] },
            },
          },
        },
      }));
      backend.serverWrites?.mark();

      await createMailer('hooked');
      const message = 'Service "shop/billing-api" exists and is not controlled by Mailer "hooked"';
      await applyFailed('hooked', message);
      expect(await cluster.get('apps/v1', 'Deployment', 'shop', 'mailer-hooked')).toBeDefined();
      expect(await cluster.get('v1', 'Service', 'shop', 'mailer-hooked')).toBeDefined();
      expect(await stored(victims)).toEqual(before);
      expectNoWritesTo(victims);
      const events = await eventsOf(cluster, 'shop', 'hooked');
      expect(events.filter((event) => event.reason === 'ApplyFailed')).toEqual([
        { type: 'Warning', reason: 'ApplyFailed', message },
      ]);

      await deleteAndWaitGone('hooked');
      await cluster.waitFor(
        'the instance’s own Service collected',
        async () =>
          (await cluster.get('v1', 'Service', 'shop', 'mailer-hooked')) === undefined ? true : undefined,
        backend.collectMs,
      );
      expect(await stored(victims)).toEqual(before);
      expectNoWritesTo(victims);
      behaviour.delete('hooked');
    });
  });
}
