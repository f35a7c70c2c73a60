/**
 * A controller declared from its informers and reconcile, against the in-memory API server: the
 * reconciled kind's events enqueue the object, an owned object's events enqueue its controlling owner
 * (only when the owner is of the reconciled group and kind), and keys carry group and kind.
 */
import { startApiServer, type InMemoryApiServer } from '@scoby/in-memory-apiserver';
import type { KubeObject } from '@scoby/kube-objects';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DynamicClient, type ResourceRef } from '../../src/client/dynamic-client.ts';
import { Controller, eventPriority, RECOVERY_RETRY_WINDOW_MS } from '../../src/controller/controller.ts';
import { LOW_PRIORITY, NORMAL_PRIORITY } from '../../src/queue/ready-keys.ts';
import {
  formatObjectKey,
  objectKeyOf,
  parseObjectKey,
  type ObjectKey,
} from '../../src/controller/object-key.ts';
import { InformerFactory } from '../../src/informer/informer-factory.ts';
import { writeStatus } from '../../src/status/status-writer.ts';
import { setFinalizer } from '../../src/finalizers/finalizers.ts';
import { deferred } from '../../src/testing/deferred.ts';
import { eventually } from '../../src/testing/eventually.ts';
import { ManualClock } from '../../src/testing/manual-clock.ts';

const CONFIGMAPS: ResourceRef = { group: '', version: 'v1', resource: 'configmaps', namespaced: true };
const SECRETS: ResourceRef = { group: '', version: 'v1', resource: 'secrets', namespaced: true };

let server: InMemoryApiServer;
let client: DynamicClient;
let factory: InformerFactory;
let controller: Controller | undefined;

beforeEach(async () => {
  server = await startApiServer();
  client = new DynamicClient(server.kubeConfig());
  factory = new InformerFactory({ lister: client });
});
afterEach(async () => {
  await controller?.stop();
  controller = undefined;
  factory.stopAll();
  client.close();
  await server.stop();
});

/** A controller of ConfigMaps that owns Secrets and records every reconciled key. */
async function started(): Promise<ObjectKey[]> {
  const reconciled: ObjectKey[] = [];
  controller = new Controller({
    name: 'configmap-secrets',
    factory,
    for: { resource: CONFIGMAPS, group: '', kind: 'ConfigMap' },
    owns: [{ resource: SECRETS }],
    reconcile: (key, context) => {
      expect(context.signal.aborted).toBe(false);
      reconciled.push(key);
    },
  });
  expect(await controller.waitForSync(5_000)).toBe(true);
  return reconciled;
}

/**
 * An informer factory whose Secret lists matching `held` wait until `release` is called; every other
 * list and watch goes to the server at once.
 */
function factoryHoldingSecretLists(held: (query: Parameters<DynamicClient['list']>[2]) => boolean): {
  factory: InformerFactory;
  release: () => void;
} {
  const listed = deferred<void>();
  const lister = {
    list: async (...args: Parameters<DynamicClient['list']>) => {
      if (args[0].resource === 'secrets' && held(args[2])) await listed.promise;
      return client.list(...args);
    },
    watch: (...args: Parameters<DynamicClient['watch']>) => client.watch(...args),
  };
  return { factory: new InformerFactory({ lister }), release: () => listed.resolve() };
}

describe('Controller', () => {
  it('reconciles the objects of its kind, with their group and kind in the key', async () => {
    const reconciled = await started();
    const source = await client.create(CONFIGMAPS, {
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: { namespace: 'default', name: 'settings' },
    });
    await eventually(() => expect(reconciled).toEqual([objectKeyOf(source)]));
    expect(controller!.get(reconciled[0]!)?.metadata.uid).toBe(source.metadata.uid);
  });

  it('reconciles the controlling owner of an owned object, and no one for another owner kind', async () => {
    const reconciled = await started();
    const owner = await client.create(CONFIGMAPS, {
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: { namespace: 'default', name: 'owner' },
    });
    await eventually(() => expect(reconciled).toHaveLength(1));
    const ownedBy = (kind: string, name: string, uid: string): KubeObject => ({
      apiVersion: 'v1',
      kind: 'Secret',
      metadata: {
        namespace: 'default',
        name: `${name}-secret`,
        ownerReferences: [{ apiVersion: 'v1', kind, name, uid, controller: true }],
      },
    });
    await client.create(SECRETS, ownedBy('Pod', 'someone', 'uid-pod'));
    await client.create(SECRETS, ownedBy('ConfigMap', 'owner', owner.metadata.uid!));
    await eventually(() => expect(reconciled).toHaveLength(2));
    expect(reconciled.map(formatObjectKey)).toEqual(['ConfigMap./default/owner', 'ConfigMap./default/owner']);
  });

  it('reconciles nothing before every watched cache has synced', async () => {
    await client.create(CONFIGMAPS, {
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: { namespace: 'default', name: 'app' },
    });
    const { factory: slowFactory, release: listSecrets } = factoryHoldingSecretLists(() => true);
    const synced: boolean[] = [];
    const slow = new Controller({
      name: 'configmap-secrets',
      factory: slowFactory,
      for: { resource: CONFIGMAPS, group: '', kind: 'ConfigMap' },
      owns: [{ resource: SECRETS }],
      reconcile: () => {
        synced.push(slow.hasSynced());
      },
    });
    try {
      await eventually(() => expect(slow.informer.informer.hasSynced()).toBe(true));
      await new Promise((resolve) => setTimeout(resolve, 300));
      // The ConfigMap is queued, but the Secrets' cache has not listed yet.
      expect(synced).toEqual([]);
      listSecrets();
      await eventually(() => expect(synced).toEqual([true]));
    } finally {
      await slow.stop();
      slowFactory.stopAll();
    }
  });

  it('follows its watches as they are while it waits for sync: a replaced owned informer that never lists holds nothing up', async () => {
    const { factory: slowFactory, release } = factoryHoldingSecretLists(
      (query) => query?.labelSelector === 'old=selector',
    );
    const waiting = new Controller({
      name: 'configmap-secrets',
      factory: slowFactory,
      for: { resource: CONFIGMAPS, group: '', kind: 'ConfigMap' },
      reconcile: () => undefined,
    });
    try {
      const unwatchOld = waiting.own({ resource: SECRETS, labelSelector: 'old=selector' });
      const startedAt = performance.now();
      const wait = waiting.waitForSync(10_000);
      await new Promise((resolve) => setTimeout(resolve, 100));
      unwatchOld();
      waiting.own({ resource: SECRETS, labelSelector: 'new=selector' });
      expect(await wait).toBe(true);
      expect(performance.now() - startedAt).toBeLessThan(5_000);
      expect(waiting.hasSynced()).toBe(true);
    } finally {
      release();
      await waiting.stop();
      slowFactory.stopAll();
    }
  });

  it('answers false when a watched informer has not listed within the wait', async () => {
    const { factory: slowFactory, release } = factoryHoldingSecretLists(() => true);
    const waiting = new Controller({
      name: 'configmap-secrets',
      factory: slowFactory,
      for: { resource: CONFIGMAPS, group: '', kind: 'ConfigMap' },
      owns: [{ resource: SECRETS }],
      reconcile: () => undefined,
    });
    try {
      expect(await waiting.waitForSync(300)).toBe(false);
    } finally {
      release();
      await waiting.stop();
      slowFactory.stopAll();
    }
  });

  it('aborts the running reconciles when stopped aborting', async () => {
    const signals: AbortSignal[] = [];
    let release: () => void = () => {};
    controller = new Controller({
      name: 'slow',
      factory,
      for: { resource: CONFIGMAPS, group: '', kind: 'ConfigMap' },
      reconcile: (_key, context) => {
        signals.push(context.signal);
        return new Promise<void>((resolve) => (release = resolve));
      },
    });
    await controller.waitForSync(5_000);
    await client.create(CONFIGMAPS, {
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: { namespace: 'default', name: 'a' },
    });
    await eventually(() => expect(signals).toHaveLength(1));
    const stopped = controller.stop({ abort: 'leadership lost' });
    expect(signals[0]?.aborted).toBe(true);
    release();
    await stopped;
    controller = undefined;
  });
});

const configMap = (name: string, data: Record<string, string> = {}): KubeObject => ({
  apiVersion: 'v1',
  kind: 'ConfigMap',
  metadata: { namespace: 'default', name },
  data,
});

describe('Controller watches and filters', () => {
  it('maps another kind’s events to keys, on a handle it shares with others and does not release', async () => {
    const reconciled: string[] = [];
    const shared = factory.acquire({ resource: SECRETS });
    controller = new Controller({
      name: 'mapped',
      factory,
      for: { resource: CONFIGMAPS, group: '', kind: 'ConfigMap' },
      watches: [
        {
          source: shared,
          map: ({ type, object }) =>
            type === 'add' ? [controller!.keyFor('default', `from-${object.metadata.name}`)] : [],
        },
      ],
      reconcile: (key) => {
        reconciled.push(key.name);
      },
    });
    await controller.waitForSync(5_000);
    await client.create(SECRETS, {
      apiVersion: 'v1',
      kind: 'Secret',
      metadata: { namespace: 'default', name: 's' },
    });
    await eventually(() => expect(reconciled).toEqual(['from-s']));
    await controller.stop();
    controller = undefined;
    // The shared informer still runs for its other holder.
    await client.create(SECRETS, {
      apiVersion: 'v1',
      kind: 'Secret',
      metadata: { namespace: 'default', name: 't' },
    });
    await eventually(() => expect(shared.informer.get('default', 't')).toBeDefined());
    shared.release();
  });

  it('drops events its filter refuses, and judges those of a running key when that reconcile ends', async () => {
    const reconciled: string[] = [];
    const judged: string[] = [];
    const gate = deferred();
    let running = 0;
    controller = new Controller({
      name: 'filtered',
      factory,
      for: { resource: CONFIGMAPS, group: '', kind: 'ConfigMap' },
      filter: {
        holdWhileReconciling: true,
        admit: ({ type, object }) => {
          judged.push(`${type}:${(object as { data?: { v?: string } }).data?.v ?? ''}`);
          return (object as { data?: { v?: string } }).data?.v !== 'echo';
        },
      },
      reconcile: async (key) => {
        reconciled.push(key.name);
        if (running++ === 0) await gate.promise;
      },
    });
    await controller.waitForSync(5_000);
    const created = await client.create(CONFIGMAPS, configMap('a', { v: 'first' }));
    await eventually(() => expect(reconciled).toEqual(['a']));
    // Held while the first reconcile runs: an echo alone enqueues nothing when judged.
    await client.patch(CONFIGMAPS, 'default', 'a', { data: { v: 'echo' } });
    await eventually(() => expect(judged).toEqual(['add:first']));
    gate.resolve();
    await eventually(() => expect(judged).toEqual(['add:first', 'update:echo']));
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(reconciled).toEqual(['a']);
    // Not running: judged at once, and news enqueues.
    await client.patch(CONFIGMAPS, 'default', 'a', { data: { v: 'news' } });
    await eventually(() => expect(reconciled).toEqual(['a', 'a']));
    expect(created.metadata.name).toBe('a');
  });

  it('reconciles what changed after its start before the rest of its initial list', async () => {
    for (const name of ['cm-0', 'cm-1', 'cm-2', 'cm-3', 'cm-4'])
      await client.create(CONFIGMAPS, configMap(name, { v: 'listed' }));
    const reconciled: string[] = [];
    const gate = deferred();
    const secrets = factory.acquire({ resource: SECRETS });
    controller = new Controller({
      name: 'ordered',
      factory,
      for: { resource: CONFIGMAPS, group: '', kind: 'ConfigMap' },
      owns: [secrets],
      filter: { holdWhileReconciling: true, admit: () => true },
      concurrency: 1,
      reconcile: async (key) => {
        reconciled.push(key.name);
        if (reconciled.length === 1) await gate.promise;
      },
    });
    expect(await controller.waitForSync(5_000)).toBe(true);
    await eventually(() => expect(reconciled).toEqual(['cm-0']));
    // A child of the last instance listed changes, and the running one is edited: both are news.
    const owner = controller.get(controller.keyFor('default', 'cm-4'))!;
    await client.create(SECRETS, {
      apiVersion: 'v1',
      kind: 'Secret',
      metadata: {
        namespace: 'default',
        name: 'cm-4-child',
        ownerReferences: [
          { apiVersion: 'v1', kind: 'ConfigMap', name: 'cm-4', uid: owner.metadata.uid!, controller: true },
        ],
      },
    });
    await eventually(() => expect(secrets.informer.get('default', 'cm-4-child')).toBeDefined());
    const edited = await client.patch(CONFIGMAPS, 'default', 'cm-0', { data: { v: 'edited' } });
    await eventually(() =>
      expect(controller!.get(controller!.keyFor('default', 'cm-0'))?.metadata.resourceVersion).toBe(
        edited.metadata.resourceVersion,
      ),
    );
    gate.resolve();
    // cm-4 waited once: its child's event moved it ahead, it does not run again at its old place.
    await eventually(() => expect(reconciled).toHaveLength(6));
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(reconciled).toEqual(['cm-0', 'cm-4', 'cm-0', 'cm-1', 'cm-2', 'cm-3']);
    secrets.release();
  });
});

describe('a reconcile’s signal cuts its writes', () => {
  it('sends no status or finalizer write after its controller stops aborting, and the queue takes the AbortError as aborted', async () => {
    const inFlight = deferred();
    const errors: unknown[] = [];
    const outcomes: string[] = [];
    controller = new Controller({
      name: 'aborting',
      factory,
      for: { resource: CONFIGMAPS, group: '', kind: 'ConfigMap' },
      observer: { finished: (_key, outcome) => outcomes.push(outcome) },
      reconcile: async (key, context) => {
        const object = controller!.get(key)!;
        // Something slow (a hook call) is in flight when the signal fires.
        await inFlight.promise;
        try {
          await writeStatus(client, CONFIGMAPS, object, { seen: true }, { signal: context.signal });
        } catch (error) {
          errors.push(error);
        }
        await setFinalizer(client, CONFIGMAPS, object, 'example.com/f', true, { signal: context.signal });
      },
    });
    await controller.waitForSync(5_000);
    await client.create(CONFIGMAPS, configMap('a'));
    await eventually(() => expect(server.requestLog.entries().some((e) => e.method === 'POST')).toBe(true));
    const writesBefore = server.requestLog.entries().filter((entry) => entry.method !== 'GET').length;
    await new Promise((resolve) => setTimeout(resolve, 20));
    const stopped = controller.stop({ abort: 'leadership lost' });
    inFlight.resolve();
    await stopped;
    controller = undefined;
    expect(server.requestLog.entries().filter((entry) => entry.method !== 'GET')).toHaveLength(writesBefore);
    expect(errors).toHaveLength(1);
    expect((errors[0] as Error).name).toBe('AbortError');
    expect((errors[0] as Error).message).toMatch(/^PATCH .*\/status aborted: leadership lost$/);
    expect(outcomes).toEqual(['aborted']);
  });

  it('cuts a write already sent when the signal fires before its answer', async () => {
    const abort = new AbortController();
    server.faults.blackHole();
    const started = Date.now();
    const pending = client.create(CONFIGMAPS, configMap('b'), undefined, { signal: abort.signal });
    setTimeout(() => abort.abort(new Error('deadline')), 50);
    await expect(pending).rejects.toMatchObject({
      name: 'AbortError',
      message: 'POST /api/v1/namespaces/default/configmaps aborted: deadline',
    });
    expect(Date.now() - started).toBeLessThan(5_000);
  });
});

describe('Controller after an outage', () => {
  it('retries keys backing off after failures within a second once an informer hears the API server again', async () => {
    const clock = new ManualClock();
    let failing = true;
    const runs: number[] = [];
    const delays: number[] = [];
    controller = new Controller({
      name: 'configmaps',
      factory,
      for: { resource: CONFIGMAPS, group: '', kind: 'ConfigMap' },
      clock,
      observer: { retried: (_key, delayMs) => delays.push(delayMs) },
      reconcile: () => {
        runs.push(clock.now());
        return failing ? { error: new Error('connect ECONNREFUSED') } : undefined;
      },
    });
    expect(await controller.waitForSync(5_000)).toBe(true);
    await client.create(CONFIGMAPS, configMap('a'));
    await eventually(() => expect(runs).toHaveLength(1));
    // Failures during the outage: the next retry is 5 ms · 2^11 = 10.24 s away.
    for (let failures = 1; failures < 12; failures++) {
      await clock.advance(delays.at(-1) ?? 0);
      await eventually(() => expect(runs).toHaveLength(failures + 1));
    }
    expect(delays.at(-1)).toBe(10_240);
    failing = false;
    // The informer's watch is refused once, then answered: the API server is back.
    server.faults.failNext({ verb: 'watch', resource: 'configmaps' }, { code: 500 });
    server.faults.dropWatches();
    await eventually(() =>
      expect(
        server.requestLog.entries().filter((entry) => entry.query.watch === 'true' && entry.code === 200),
      ).toHaveLength(2),
    );
    const before = runs.length;
    await clock.advance(RECOVERY_RETRY_WINDOW_MS);
    await eventually(() => expect(runs).toHaveLength(before + 1));
    expect(runs.at(-1)! - runs.at(-2)!).toBeLessThan(10_240);
  });
});

describe('object keys', () => {
  it('round-trip through their string form, groups with dots included', () => {
    const key = { group: 'serving.knative.dev', kind: 'Service', namespace: 'shop', name: 'fn' };
    expect(formatObjectKey(key)).toBe('Service.serving.knative.dev/shop/fn');
    expect(parseObjectKey(formatObjectKey(key))).toEqual(key);
    const core = { group: '', kind: 'Namespace', namespace: '', name: 'shop' };
    expect(parseObjectKey(formatObjectKey(core))).toEqual(core);
  });

  it('tell two kinds’ objects of one namespace/name apart', () => {
    const mailer = objectKeyOf({
      apiVersion: 'mail.example.com/v1',
      kind: 'Mailer',
      metadata: { namespace: 'shop', name: 'x' },
    });
    const printer = objectKeyOf({
      apiVersion: 'print.example.com/v1',
      kind: 'Printer',
      metadata: { namespace: 'shop', name: 'x' },
    });
    expect(formatObjectKey(mailer)).not.toBe(formatObjectKey(printer));
  });
});

describe('the priority of an event', () => {
  const at = (resourceVersion: string): KubeObject => ({
    apiVersion: 'v1',
    kind: 'ConfigMap',
    metadata: { namespace: 'default', name: 'a', resourceVersion },
  });

  it('is low for an add of the initial list and an update that changed nothing (a resync), else normal', () => {
    expect(eventPriority({ type: 'add', object: at('1'), inInitialList: true })).toBe(LOW_PRIORITY);
    expect(eventPriority({ type: 'add', object: at('1'), inInitialList: false })).toBe(NORMAL_PRIORITY);
    expect(eventPriority({ type: 'add', object: at('1') })).toBe(NORMAL_PRIORITY);
    expect(eventPriority({ type: 'update', object: at('2'), old: at('2') })).toBe(LOW_PRIORITY);
    expect(eventPriority({ type: 'update', object: at('3'), old: at('2') })).toBe(NORMAL_PRIORITY);
    expect(eventPriority({ type: 'delete', object: at('3') })).toBe(NORMAL_PRIORITY);
  });
});
