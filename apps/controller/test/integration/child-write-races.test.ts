/**
 * Child writes against a live API server whose objects change under the controller's feet: an object
 * holding a child's name that the cache does not show, or replacing a child the cache still shows, is
 * never taken over or deleted (docs/spec/children-and-status.md §5.1, §6). writeChildren runs directly against the
 * in-memory API server, with a cache the test controls.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startApiServer, type InMemoryApiServer } from '@scoby/in-memory-apiserver';
import type { KubeObject } from '@scoby/kube-objects';
import { DynamicClient, type ResourceRef, stripManagedFields } from '@scoby/controller-runtime';
import { crdFor } from '../support/cluster.ts';
import { eventually } from '@scoby/controller-runtime/testing';
import {
  writeChildren,
  type ChildOwner,
  type ChildStore,
} from '../../src/instance/children/write-children.ts';
import { FIELD_MANAGER } from '../../src/config/build-info.ts';

const DEPLOYMENTS: ResourceRef = { group: 'apps', version: 'v1', resource: 'deployments', namespaced: true };
const NAMESPACES: ResourceRef = { group: '', version: 'v1', resource: 'namespaces', namespaced: false };
const CRDS: ResourceRef = {
  group: 'apiextensions.k8s.io',
  version: 'v1',
  resource: 'customresourcedefinitions',
  namespaced: false,
};
const MAILERS: ResourceRef = {
  group: 'notify.example.com',
  version: 'v1',
  resource: 'mailers',
  namespaced: true,
};
const LABELS = {
  'app.kubernetes.io/name': 'mailer',
  'app.kubernetes.io/instance': 'orders',
  'app.kubernetes.io/component': 'workload',
  'app.kubernetes.io/part-of': 'scoby-component',
  'app.kubernetes.io/managed-by': 'scoby-controller',
};
const SELECTOR = {
  'app.kubernetes.io/managed-by': 'scoby-controller',
  'app.kubernetes.io/instance': 'orders',
};

let server: InMemoryApiServer;
/** Scoby's client, and another team's (the request log tells them apart). */
let client: DynamicClient;
let rivalClient: DynamicClient;
/** A real Mailer: children whose controller reference names an absent owner would be garbage collected. */
let OWNER: ChildOwner;

beforeAll(async () => {
  // No simulated rollouts: the stored objects change only through the requests under test.
  server = await startApiServer({ simulate: { deployments: false } });
  client = new DynamicClient(server.kubeConfig());
  rivalClient = new DynamicClient(server.kubeConfig('payments-team'));
  await client.create(NAMESPACES, { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'shop' } });
  await client.create(CRDS, crdFor({ group: 'notify.example.com', kind: 'Mailer', plural: 'mailers' }));
  const mailer = await eventually(() =>
    client.create(MAILERS, {
      apiVersion: 'notify.example.com/v1',
      kind: 'Mailer',
      metadata: { name: 'orders', namespace: 'shop' },
    }),
  );
  OWNER = { kind: 'Mailer', name: 'orders', uid: mailer.metadata.uid ?? '', namespace: 'shop' };
});
afterAll(async () => {
  client.close();
  rivalClient.close();
  await server.stop();
});
beforeEach(() => server.requestLog.clear());

function deployment(name: string, metadata: Partial<KubeObject['metadata']>, replicas: number): KubeObject {
  return {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name, namespace: 'shop', ...metadata },
    spec: {
      replicas,
      selector: { matchLabels: { app: name } },
      template: {
        metadata: { labels: { app: name } },
        spec: { containers: [{ name: 'main', image: `registry.example.com/${name}:1` }] },
      },
    },
  };
}

/** The child as Scoby wants it: labelled and controlled by OWNER. */
function child(name: string, replicas = 2): KubeObject {
  return deployment(
    name,
    {
      labels: LABELS,
      ownerReferences: [
        {
          apiVersion: 'notify.example.com/v1',
          kind: 'Mailer',
          name: OWNER.name,
          uid: OWNER.uid,
          controller: true,
          blockOwnerDeletion: true,
        },
      ],
    },
    replicas,
  );
}

/** Another team's Deployment. */
function rival(name: string): KubeObject {
  return deployment(name, { labels: { team: 'payments' } }, 3);
}

/** A cache holding exactly `objects`. */
/** A cache as the controller's informers keep one: the objects without managedFields. */
function cacheOf(objects: KubeObject[]): ChildStore {
  const cached = objects.map(stripManagedFields);
  return {
    resourceFor: (apiVersion, kind) =>
      apiVersion === 'apps/v1' && kind === 'Deployment' ? DEPLOYMENTS : undefined,
    get: (_apiVersion, _kind, namespace, name) =>
      cached.find((object) => object.metadata.namespace === namespace && object.metadata.name === name),
    list: () => cached,
    upToDate: () => {},
  };
}

function read(name: string): Promise<KubeObject> {
  return client.get(DEPLOYMENTS, 'shop', name);
}

/** Scoby's requests about one Deployment: to its path, and creates naming it. */
function requestsTo(name: string): { method: string; code: number }[] {
  const collection = '/apis/apps/v1/namespaces/shop/deployments';
  return server.requestLog
    .entries()
    .filter(
      (entry) =>
        entry.user === 'in-memory' &&
        (entry.path === `${collection}/${name}` ||
          (entry.path === collection && (entry.body as KubeObject).metadata.name === name)),
    )
    .map(({ method, code }) => ({ method, code }));
}

const notControlled = (name: string) =>
  `Deployment "shop/${name}" exists and is not controlled by Mailer "orders"`;

/** A client that lets another team delete `name` right before its first read of it. */
class VanishingClient extends DynamicClient {
  readonly #name: string;
  #deleted = false;

  constructor(name: string) {
    super(server.kubeConfig());
    this.#name = name;
  }

  override async get(ref: ResourceRef, namespace: string | undefined, name: string): Promise<KubeObject> {
    if (name === this.#name && !this.#deleted) {
      this.#deleted = true;
      await rivalClient.delete(DEPLOYMENTS, 'shop', name);
    }
    return super.get(ref, namespace, name);
  }
}

describe('writing a child', () => {
  it('creates a child the cache lacks without reading first', async () => {
    const outcome = await writeChildren(
      client,
      cacheOf([]),
      { deployment: child('mailer-new') },
      OWNER,
      SELECTOR,
    );

    expect(requestsTo('mailer-new')).toEqual([{ method: 'POST', code: 201 }]);
    expect(outcome.errors).toEqual([]);
    expect(outcome.changes).toEqual([{ action: 'created', child: 'Deployment shop/mailer-new' }]);
  });

  it('fails, writing nothing, when another team’s object holds the name the cache does not show', async () => {
    const theirs = await rivalClient.create(DEPLOYMENTS, rival('mailer-taken'));
    server.requestLog.clear();

    const outcome = await writeChildren(
      client,
      cacheOf([]),
      { deployment: child('mailer-taken') },
      OWNER,
      SELECTOR,
    );

    // A create fails when the name is taken (an apply would have merged into the rival), then a read says whose.
    expect(requestsTo('mailer-taken')).toEqual([
      { method: 'POST', code: 409 },
      { method: 'GET', code: 200 },
    ]);
    expect(outcome.errors).toEqual([notControlled('mailer-taken')]);
    expect(outcome.changes).toEqual([]);
    expect(await read('mailer-taken')).toEqual(theirs);
  });

  it('creates the child when the object that held the name is gone by the time it is read', async () => {
    await rivalClient.create(DEPLOYMENTS, rival('mailer-vanished'));
    server.requestLog.clear();
    const vanishing = new VanishingClient('mailer-vanished');

    const outcome = await writeChildren(
      vanishing,
      cacheOf([]),
      { deployment: child('mailer-vanished') },
      OWNER,
      SELECTOR,
    );
    vanishing.close();

    expect(requestsTo('mailer-vanished')).toEqual([
      { method: 'POST', code: 409 },
      { method: 'GET', code: 404 },
      { method: 'POST', code: 201 },
    ]);
    expect(outcome.errors).toEqual([]);
    expect((await read('mailer-vanished')).metadata.ownerReferences).toEqual(
      child('mailer-vanished').metadata.ownerReferences,
    );
  });

  it('fails, writing nothing, when the cached child was replaced by another team’s object', async () => {
    const ours = await client.apply(DEPLOYMENTS, child('mailer-replaced'), FIELD_MANAGER);
    await client.delete(DEPLOYMENTS, 'shop', 'mailer-replaced');
    const theirs = await rivalClient.create(DEPLOYMENTS, rival('mailer-replaced'));
    server.requestLog.clear();

    const outcome = await writeChildren(
      client,
      cacheOf([ours]),
      { deployment: child('mailer-replaced', 4) },
      OWNER,
      SELECTOR,
    );

    // The cached child needs a write, so it is read first: another team's object holds the name.
    expect(requestsTo('mailer-replaced')).toEqual([{ method: 'GET', code: 200 }]);
    expect(outcome.errors).toEqual([notControlled('mailer-replaced')]);
    expect(await read('mailer-replaced')).toEqual(theirs);
  });

  it('creates the child again when the cached one was deleted meanwhile', async () => {
    const ours = await client.apply(DEPLOYMENTS, child('mailer-deleted'), FIELD_MANAGER);
    await client.delete(DEPLOYMENTS, 'shop', 'mailer-deleted');
    server.requestLog.clear();

    const outcome = await writeChildren(
      client,
      cacheOf([ours]),
      { deployment: child('mailer-deleted', 3) },
      OWNER,
      SELECTOR,
    );

    expect(requestsTo('mailer-deleted')).toEqual([
      { method: 'GET', code: 404 },
      { method: 'POST', code: 201 },
    ]);
    expect(outcome.errors).toEqual([]);
    expect((await read('mailer-deleted')).spec).toMatchObject({ replicas: 3 });
  });

  it('takes back a child it controls whose labels were removed (the cache cannot see it)', async () => {
    const ours = await client.apply(DEPLOYMENTS, child('mailer-unlabelled'), FIELD_MANAGER);
    await client.patch(DEPLOYMENTS, 'shop', 'mailer-unlabelled', { metadata: { labels: null } });
    server.requestLog.clear();

    const outcome = await writeChildren(
      client,
      cacheOf([]),
      { deployment: child('mailer-unlabelled') },
      OWNER,
      SELECTOR,
    );

    expect(requestsTo('mailer-unlabelled')).toEqual([
      { method: 'POST', code: 409 },
      { method: 'GET', code: 200 },
      { method: 'PATCH', code: 200 },
    ]);
    expect(outcome.errors).toEqual([]);
    const restored = await read('mailer-unlabelled');
    expect(restored.metadata.uid).toBe(ours.metadata.uid);
    expect(restored.metadata.labels).toEqual(LABELS);
  });
});

describe('pruning a child', () => {
  it('deletes only the object it checked: another team’s object that took the name stays', async () => {
    const ours = await client.apply(DEPLOYMENTS, child('mailer-pruned'), FIELD_MANAGER);
    await client.delete(DEPLOYMENTS, 'shop', 'mailer-pruned');
    const theirs = await rivalClient.create(DEPLOYMENTS, rival('mailer-pruned'));
    server.requestLog.clear();

    const outcome = await writeChildren(client, cacheOf([ours]), {}, OWNER, SELECTOR);

    expect(outcome.errors).toEqual([]);
    expect(await read('mailer-pruned')).toEqual(theirs);
    const deletes = server.requestLog.entries().filter((entry) => entry.method === 'DELETE');
    expect(deletes.map(({ path, body, code }) => ({ path, body, code }))).toEqual([
      {
        path: '/apis/apps/v1/namespaces/shop/deployments/mailer-pruned',
        body: {
          apiVersion: 'v1',
          kind: 'DeleteOptions',
          propagationPolicy: 'Background',
          preconditions: { uid: ours.metadata.uid },
        },
        code: 409,
      },
    ]);
  });
});

describe('a child Scoby created', () => {
  const withEnv = (name: string, env: { name: string; value: string }[]): KubeObject => {
    const base = child(name);
    const spec = base.spec as { template: { spec: { containers: Record<string, unknown>[] } } };
    spec.template.spec.containers[0]!.env = env;
    return base;
  };
  const envOf = async (name: string) =>
    ((await read(name)).spec as { template: { spec: { containers: { env: unknown }[] } } }).template.spec
      .containers[0]?.env;
  const A = { name: 'A', value: '1' };
  const B = { name: 'B', value: '2' };

  it('loses the fields Scoby stops setting, as a child it applied would', async () => {
    const created = await writeChildren(
      client,
      cacheOf([]),
      { deployment: withEnv('mailer-created', [A, B]) },
      OWNER,
      SELECTOR,
    );
    expect(created.errors).toEqual([]);
    expect(requestsTo('mailer-created')).toEqual([{ method: 'POST', code: 201 }]);
    const cached = await read('mailer-created');
    expect(cached.metadata.managedFields).toEqual([
      expect.objectContaining({ manager: FIELD_MANAGER, operation: 'Update' }),
    ]);
    server.requestLog.clear();

    const updated = await writeChildren(
      client,
      cacheOf([cached]),
      { deployment: withEnv('mailer-created', [A]) },
      OWNER,
      SELECTOR,
    );
    expect(updated.errors).toEqual([]);
    // Read for its managedFields (the cache has none); before the first apply, the fields the create set
    // go from Scoby's Update entry to its Apply entry.
    expect(requestsTo('mailer-created')).toEqual([
      { method: 'GET', code: 200 },
      { method: 'PATCH', code: 200 },
      { method: 'PATCH', code: 200 },
    ]);
    expect(await envOf('mailer-created')).toEqual([A]);
    expect((await read('mailer-created')).metadata.managedFields).toEqual([
      expect.objectContaining({ manager: FIELD_MANAGER, operation: 'Apply' }),
    ]);
  });

  it('writes nothing when another team took the name while the fields were handed over', async () => {
    await writeChildren(
      client,
      cacheOf([]),
      { deployment: withEnv('mailer-swapped', [A, B]) },
      OWNER,
      SELECTOR,
    );
    const cached = await read('mailer-swapped');
    let theirs: KubeObject | undefined;
    // Between Scoby's read and its hand-over patch, the child is deleted and the name taken.
    const racing = new Proxy(client, {
      get(target, key) {
        if (key === 'patch' && theirs === undefined) {
          return async (...args: Parameters<DynamicClient['patch']>) => {
            await client.delete(DEPLOYMENTS, 'shop', 'mailer-swapped');
            theirs = await rivalClient.create(DEPLOYMENTS, rival('mailer-swapped'));
            return target.patch(...args);
          };
        }
        const value = Reflect.get(target, key) as unknown;
        return typeof value === 'function' ? value.bind(target) : value;
      },
    });

    const outcome = await writeChildren(
      racing,
      cacheOf([cached]),
      { deployment: withEnv('mailer-swapped', [A]) },
      OWNER,
      SELECTOR,
    );
    expect(outcome.errors).toEqual([notControlled('mailer-swapped')]);
    expect(await read('mailer-swapped')).toEqual(theirs);
  });

  it('computes the hand-over again when it was refused because the entries moved (422)', async () => {
    await writeChildren(
      client,
      cacheOf([]),
      { deployment: withEnv('mailer-moved', [A, B]) },
      OWNER,
      SELECTOR,
    );
    const cached = await read('mailer-moved');
    server.faults.failNext(
      { verb: 'patch', resource: 'deployments', name: 'mailer-moved' },
      { code: 422, message: 'the server rejected our request due to an error in our request' },
    );
    server.requestLog.clear();

    const outcome = await writeChildren(
      client,
      cacheOf([cached]),
      { deployment: withEnv('mailer-moved', [A]) },
      OWNER,
      SELECTOR,
    );
    expect(outcome.errors).toEqual([]);
    // The hand-over, refused, computed again from a fresh read; then the apply.
    expect(requestsTo('mailer-moved')).toEqual([
      { method: 'GET', code: 200 },
      { method: 'PATCH', code: 422 },
      { method: 'GET', code: 200 },
      { method: 'PATCH', code: 200 },
      { method: 'PATCH', code: 200 },
    ]);
    expect(await envOf('mailer-moved')).toEqual([A]);
  });
});
