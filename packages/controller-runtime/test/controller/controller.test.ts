/**
 * A controller declared from its informers and reconcile, against the in-memory API server: the
 * reconciled kind's events enqueue the object, an owned object's events enqueue its controlling owner
 * (only when the owner is of the reconciled group and kind), and keys carry group and kind.
 */
import { startApiServer, type InMemoryApiServer } from '@scoby/in-memory-apiserver';
import type { KubeObject } from '@scoby/kube-objects';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DynamicClient, type ResourceRef } from '../../src/client/dynamic-client.ts';
import { Controller } from '../../src/controller/controller.ts';
import {
  formatObjectKey,
  objectKeyOf,
  parseObjectKey,
  type ObjectKey,
} from '../../src/controller/object-key.ts';
import { InformerFactory } from '../../src/informer/informer-factory.ts';
import { eventually } from '../../src/testing/eventually.ts';

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
