import { startApiServer, type InMemoryApiServer } from '@scoby/in-memory-apiserver';
import type { KubeObject } from '@scoby/kube-objects';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DynamicClient, resourcePath, type ResourceRef } from '../../src/client/dynamic-client.ts';
import { InformerFactory } from '../../src/informer/informer-factory.ts';
import { type InformerHandlers, SharedInformer } from '../../src/informer/shared-informer.ts';
import { stripManagedFields } from '../../src/informer/transforms.ts';
import { captureLogs } from '../../src/testing/log-capture.ts';
import { eventually } from '../../src/testing/eventually.ts';

const CONFIGMAPS: ResourceRef = { group: '', version: 'v1', resource: 'configmaps', namespaced: true };
const NAMESPACES: ResourceRef = { group: '', version: 'v1', resource: 'namespaces', namespaced: false };

let server: InMemoryApiServer;
let client: DynamicClient;
const stops: Array<() => void> = [];

beforeEach(async () => {
  server = await startApiServer();
  client = new DynamicClient(server.kubeConfig());
  for (const name of ['shop', 'infra', 'other']) {
    await client.create(NAMESPACES, { apiVersion: 'v1', kind: 'Namespace', metadata: { name } });
  }
});

afterEach(async () => {
  for (const stop of stops.splice(0)) stop();
  client.close();
  await server.stop();
});

function configMap(namespace: string, name: string, value = 'v'): KubeObject {
  return { apiVersion: 'v1', kind: 'ConfigMap', metadata: { namespace, name }, data: { value } };
}

async function put(namespace: string, name: string, value: string): Promise<void> {
  await client.patch(CONFIGMAPS, namespace, name, { data: { value } });
}

async function remove(namespace: string, name: string): Promise<void> {
  // Without DeleteOptions: DynamicClient.delete's body currently gets a 400 from the in-memory server.
  await client.request('DELETE', resourcePath(CONFIGMAPS, namespace, name));
}

/** Handlers that log `add shop/a=v`, `update shop/a=v2 (was v)`, `delete shop/a`. */
function recorder(): { handlers: InformerHandlers<KubeObject>; log: string[] } {
  const log: string[] = [];
  const describe = (object: KubeObject) => `${object.metadata.namespace}/${object.metadata.name}`;
  const value = (object: KubeObject) => (object.data as { value?: string } | undefined)?.value;
  return {
    log,
    handlers: {
      add: (object) => log.push(`add ${describe(object)}=${value(object)}`),
      update: (object, old) => log.push(`update ${describe(object)}=${value(object)} (was ${value(old)})`),
      delete: (object) => log.push(`delete ${describe(object)}`),
    },
  };
}

/** Waits until `count` watches of all-namespace ConfigMaps have been opened, so faults hit a live watch. */
async function watchesOpened(count: number): Promise<void> {
  await eventually(() =>
    expect(
      server.requestLog
        .entries()
        .filter((entry) => entry.path === '/api/v1/configmaps' && entry.query.watch === 'true'),
    ).toHaveLength(count),
  );
}

function informer(
  options: Partial<ConstructorParameters<typeof SharedInformer>[0]> = {},
): SharedInformer<KubeObject> {
  const created = new SharedInformer<KubeObject>({
    lister: client,
    resource: CONFIGMAPS,
    ...options,
  });
  stops.push(() => created.stop());
  return created;
}

/** An informer of a resource the server does not serve: its list keeps failing, retried quickly. */
function neverListing(): SharedInformer<KubeObject> {
  const missing: ResourceRef = {
    group: 'example.com',
    version: 'v1',
    resource: 'nothings',
    namespaced: true,
  };
  return informer({ resource: missing, restartBackoff: { baseMs: 20, capMs: 40 } });
}

function cachedValues(source: SharedInformer<KubeObject>): string[] {
  return source
    .list()
    .map(
      (object) =>
        `${object.metadata.namespace}/${object.metadata.name}=${(object.data as { value: string }).value}`,
    )
    .sort();
}

describe('SharedInformer against an API server', () => {
  it('lists, syncs, then follows adds, updates and deletes', async () => {
    await client.create(CONFIGMAPS, configMap('shop', 'a', '1'));
    const cache = informer();
    const events = recorder();
    cache.addHandlers(events.handlers);
    expect(cache.hasSynced()).toBe(false);
    cache.start();
    expect(await cache.waitForSync(5000)).toBe(true);
    expect(cache.hasSynced()).toBe(true);
    expect(events.log).toEqual(['add shop/a=1']);

    await client.create(CONFIGMAPS, configMap('infra', 'b', '1'));
    await put('shop', 'a', '2');
    await remove('infra', 'b');
    await eventually(() =>
      expect(events.log).toEqual([
        'add shop/a=1',
        'add infra/b=1',
        'update shop/a=2 (was 1)',
        'delete infra/b',
      ]),
    );
    expect(cache.get('shop', 'a')?.data).toEqual({ value: '2' });
    expect(cache.get('infra', 'b')).toBeUndefined();
    expect(cachedValues(cache)).toEqual(['shop/a=2']);
  });

  it('gives listed objects the apiVersion and kind kube-apiserver leaves out of built-in list items', async () => {
    await client.create(CONFIGMAPS, configMap('shop', 'a', '1'));
    const lister = {
      watch: client.watch.bind(client),
      list: async (...args: Parameters<DynamicClient['list']>) => {
        const list = await client.list(...args);
        return {
          ...list,
          items: list.items.map(({ apiVersion: _apiVersion, kind: _kind, ...item }) => item as KubeObject),
        };
      },
    };
    const cache = informer({ lister });
    cache.start();
    expect(await cache.waitForSync(5000)).toBe(true);
    expect(cache.get('shop', 'a')).toMatchObject({ apiVersion: 'v1', kind: 'ConfigMap' });
  });

  it('watches only the working namespaces, one watch each, behind one cache', async () => {
    await client.create(CONFIGMAPS, configMap('shop', 'a'));
    await client.create(CONFIGMAPS, configMap('other', 'ignored'));
    const cache = informer({ namespaces: ['shop', 'infra'] });
    const events = recorder();
    cache.addHandlers(events.handlers);
    cache.start();
    expect(await cache.waitForSync(5000)).toBe(true);
    await client.create(CONFIGMAPS, configMap('infra', 'b'));
    await client.create(CONFIGMAPS, configMap('other', 'ignored-too'));
    await eventually(() => expect(events.log).toEqual(['add shop/a=v', 'add infra/b=v']));
    expect(cachedValues(cache)).toEqual(['infra/b=v', 'shop/a=v']);
    const watches = server.requestLog.entries().filter((entry) => entry.query.watch === 'true');
    expect(watches.map((entry) => entry.path).sort()).toEqual([
      '/api/v1/namespaces/infra/configmaps',
      '/api/v1/namespaces/shop/configmaps',
    ]);
  });

  it('filters by label selector', async () => {
    await client.create(CONFIGMAPS, {
      ...configMap('shop', 'labelled'),
      metadata: { namespace: 'shop', name: 'labelled', labels: { app: 'x' } },
    });
    await client.create(CONFIGMAPS, configMap('shop', 'plain'));
    const cache = informer({ labelSelector: 'app=x' });
    cache.start();
    expect(await cache.waitForSync(5000)).toBe(true);
    await client.create(CONFIGMAPS, {
      ...configMap('shop', 'late'),
      metadata: { namespace: 'shop', name: 'late', labels: { app: 'x' } },
    });
    await client.create(CONFIGMAPS, configMap('shop', 'late-plain'));
    await eventually(() => expect(cachedValues(cache)).toEqual(['shop/labelled=v', 'shop/late=v']));
  });

  it('restarts after a watch error and relists, so changes made meanwhile are not lost', async () => {
    await client.create(CONFIGMAPS, configMap('shop', 'a', '1'));
    await client.create(CONFIGMAPS, configMap('shop', 'b', '1'));
    const cache = informer();
    const events = recorder();
    cache.addHandlers(events.handlers);
    cache.start();
    expect(await cache.waitForSync(5000)).toBe(true);
    await watchesOpened(1);

    // The reconnecting watch and the next list fail: the list-watch keeps starting over.
    server.faults.failNext({ verb: 'watch', resource: 'configmaps' }, { code: 500, count: 2 });
    server.faults.failNext({ verb: 'list', resource: 'configmaps' }, { code: 503, count: 1 });
    server.faults.dropWatches();
    await remove('shop', 'a');
    await put('shop', 'b', '2');
    await client.create(CONFIGMAPS, configMap('shop', 'c', '1'));

    await eventually(() => expect(cachedValues(cache)).toEqual(['shop/b=2', 'shop/c=1']));
    await client.create(CONFIGMAPS, configMap('shop', 'd', '1'));
    await eventually(() => expect(cachedValues(cache)).toEqual(['shop/b=2', 'shop/c=1', 'shop/d=1']));
    expect(events.log).toEqual([
      'add shop/a=1',
      'add shop/b=1',
      'delete shop/a',
      'update shop/b=2 (was 1)',
      'add shop/c=1',
      'add shop/d=1',
    ]);
    const failed = server.requestLog.entries().filter((entry) => entry.code >= 500);
    expect(failed.map((entry) => `${entry.query.watch === 'true' ? 'watch' : 'list'} ${entry.code}`)).toEqual(
      ['watch 500', 'list 503', 'watch 500'],
    );
  });

  it('relists after 410 Gone', async () => {
    await client.create(CONFIGMAPS, configMap('shop', 'a', '1'));
    const cache = informer();
    const events = recorder();
    cache.addHandlers(events.handlers);
    cache.start();
    expect(await cache.waitForSync(5000)).toBe(true);
    await watchesOpened(1);
    server.faults.expireNextWatch();
    server.faults.dropWatches();
    await remove('shop', 'a');
    await client.create(CONFIGMAPS, configMap('shop', 'b', '1'));
    await eventually(() => expect(cachedValues(cache)).toEqual(['shop/b=1']));
    await watchesOpened(3);
    expect(events.log).toEqual(['add shop/a=1', 'delete shop/a', 'add shop/b=1']);
    const reads = server.requestLog.entries().filter((entry) => entry.path === '/api/v1/configmaps');
    // list, watch, watch resumed from the last resourceVersion (410), relist, fresh watch.
    expect(
      reads.map((entry) =>
        entry.query.watch === 'true' ? `watch from ${entry.query.resourceVersion ? 'rv' : 'list'}` : 'list',
      ),
    ).toEqual(['list', 'watch from rv', 'watch from rv', 'list', 'watch from rv']);
  });

  it('resumes a watch that stays open but falls silent, and sees what changed meanwhile', async () => {
    const logs = captureLogs();
    // The in-memory server sends a bookmark every second: twice that is a generous silence bound.
    const cache = informer({ watchSilenceMs: 2000, logger: logs.logger });
    const events = recorder();
    cache.addHandlers(events.handlers);
    cache.start();
    expect(await cache.waitForSync(5000)).toBe(true);
    await watchesOpened(1);
    server.faults.silenceWatches();
    await client.create(CONFIGMAPS, configMap('shop', 'while-silent'));
    await eventually(() => expect(events.log).toEqual(['add shop/while-silent=v']), 6000);
    await client.create(CONFIGMAPS, configMap('shop', 'after'));
    await eventually(() => expect(events.log).toEqual(['add shop/while-silent=v', 'add shop/after=v']));

    const restarts = logs
      .lines()
      .filter((line) => line.msg === 'watch went silent; watching again from its last resourceVersion');
    expect(restarts).toHaveLength(1);
    expect(restarts[0]).not.toHaveProperty('err');
    expect(restarts[0]).toMatchObject({
      level: 'warn',
      informer: 'configmaps.core',
      error: expect.stringMatching(
        /^the watch of \/api\/v1\/configmaps delivered no event or bookmark for \d+ ms$/,
      ),
    });
    // The silent watch is resumed from the last resourceVersion it saw: it replays the change, no list.
    const reads = server.requestLog.entries().filter((entry) => entry.path === '/api/v1/configmaps');
    expect(reads.map((entry) => (entry.query.watch === 'true' ? 'watch' : 'list'))).toEqual([
      'list',
      'watch',
      'watch',
    ]);
    expect(reads[2]?.query.resourceVersion).toMatch(/^\d+$/);
  });

  it('asks for bookmarks and a server-side timeout, so a healthy quiet watch is never restarted', async () => {
    const logs = captureLogs();
    const cache = informer({ watchSilenceMs: 3000, logger: logs.logger });
    cache.start();
    expect(await cache.waitForSync(5000)).toBe(true);
    await watchesOpened(1);
    // Nothing changes for longer than the silence bound: only bookmarks keep the watch alive.
    await new Promise((resolve) => setTimeout(resolve, 3600));
    const reads = server.requestLog.entries().filter((entry) => entry.path === '/api/v1/configmaps');
    expect(reads.map((entry) => (entry.query.watch === 'true' ? 'watch' : 'list'))).toEqual([
      'list',
      'watch',
    ]);
    const watchQuery = reads[1]?.query ?? {};
    expect(watchQuery.allowWatchBookmarks).toBe('true');
    expect(Number(watchQuery.timeoutSeconds)).toBeGreaterThanOrEqual(300);
    expect(Number(watchQuery.timeoutSeconds)).toBeLessThan(600);
    expect(logs.lines().filter((line) => line.level === 'warn')).toEqual([]);
  });

  it('never syncs when the list keeps failing, and waitForSync says so', async () => {
    const cache = neverListing();
    cache.start();
    expect(await cache.waitForSync(300)).toBe(false);
    expect(cache.hasSynced()).toBe(false);
    const attempts = server.requestLog
      .entries()
      .filter((entry) => entry.path === '/apis/example.com/v1/nothings');
    expect(attempts.length).toBeGreaterThanOrEqual(3);
  });

  it('answers a wait false as soon as its caller gives it up, long before its timeout', async () => {
    const cache = neverListing();
    cache.start();
    const givenUp = new AbortController();
    const startedAt = performance.now();
    const wait = cache.waitForSync(60_000, givenUp.signal);
    setTimeout(() => givenUp.abort(), 50);
    expect(await wait).toBe(false);
    expect(performance.now() - startedAt).toBeLessThan(5_000);
    expect(await cache.waitForSync(60_000, givenUp.signal)).toBe(false);
  });

  it('delivers cached objects to late handlers, and a failing handler does not stop the others', async () => {
    await client.create(CONFIGMAPS, configMap('shop', 'a'));
    const cache = informer();
    cache.start();
    expect(await cache.waitForSync(5000)).toBe(true);
    cache.addHandlers({
      add: () => {
        throw new Error('handler bug');
      },
    });
    const late = recorder();
    const unsubscribe = cache.addHandlers(late.handlers);
    expect(late.log).toEqual(['add shop/a=v']);
    await client.create(CONFIGMAPS, configMap('shop', 'b'));
    await eventually(() => expect(late.log).toEqual(['add shop/a=v', 'add shop/b=v']));
    unsubscribe();
    await client.create(CONFIGMAPS, configMap('shop', 'c'));
    await eventually(() => expect(cache.get('shop', 'c')).toBeDefined());
    expect(late.log).toEqual(['add shop/a=v', 'add shop/b=v']);
  });

  it("tells the adds of its initial list (and a late handler's) from adds it sees later, a relist's included", async () => {
    await client.create(CONFIGMAPS, configMap('shop', 'a'));
    await client.create(CONFIGMAPS, configMap('infra', 'b'));
    const cache = informer();
    const adds: string[] = [];
    const recordAdds = (who: string): InformerHandlers<KubeObject> => ({
      add: (object, inInitialList) =>
        adds.push(`${who} ${object.metadata.name} ${inInitialList ? 'initial list' : 'later'}`),
    });
    cache.addHandlers(recordAdds('early'));
    cache.start();
    expect(await cache.waitForSync(5000)).toBe(true);
    await watchesOpened(1);
    await client.create(CONFIGMAPS, configMap('shop', 'c'));
    await eventually(() => expect(adds).toHaveLength(3));
    // The watch ends and its resumption finds its version expired: the list that follows finds d.
    server.faults.expireNextWatch();
    server.faults.dropWatches();
    await client.create(CONFIGMAPS, configMap('shop', 'd'));
    await eventually(() => expect(cache.get('shop', 'd')).toBeDefined());
    cache.addHandlers(recordAdds('late'));
    expect(adds.slice(0, 2).sort()).toEqual(['early a initial list', 'early b initial list']);
    expect(adds.slice(2, 4)).toEqual(['early c later', 'early d later']);
    expect(adds.slice(4).sort()).toEqual([
      'late a initial list',
      'late b initial list',
      'late c initial list',
      'late d initial list',
    ]);
    const reads = server.requestLog.entries().filter((entry) => entry.path === '/api/v1/configmaps');
    expect(reads.filter((entry) => entry.query.watch !== 'true')).toHaveLength(2);
  });

  it('resyncs: every cached object is delivered as an update to itself', async () => {
    await client.create(CONFIGMAPS, configMap('shop', 'a'));
    const cache = informer({ resyncMs: 100 });
    const events = recorder();
    cache.addHandlers(events.handlers);
    cache.start();
    await eventually(() =>
      expect(events.log.slice(0, 3)).toEqual([
        'add shop/a=v',
        'update shop/a=v (was v)',
        'update shop/a=v (was v)',
      ]),
    );
  });

  it('caches listed and watched objects through its transform, and hands handlers the same', async () => {
    await client.create(CONFIGMAPS, configMap('shop', 'listed'), 'tester');
    const cache = informer({ transform: stripManagedFields });
    const handed: KubeObject[] = [];
    cache.addHandlers({ add: (object) => handed.push(object) });
    cache.start();
    expect(await cache.waitForSync(5000)).toBe(true);
    await client.create(CONFIGMAPS, configMap('shop', 'watched'), 'tester');
    await eventually(() => expect(cache.get('shop', 'watched')).toBeDefined());

    for (const name of ['listed', 'watched']) {
      const served = await client.get(CONFIGMAPS, 'shop', name);
      // The API server records who created it; the cache leaves that out and keeps everything else.
      expect(served.metadata.managedFields).toEqual([expect.objectContaining({ manager: 'tester' })]);
      const { managedFields: _managedFields, ...metadata } = served.metadata;
      expect(cache.get('shop', name)).toEqual({ ...served, metadata });
    }
    expect(handed).toEqual(['listed', 'watched'].map((name) => cache.get('shop', name)));
  });

  it('hands its transform the object cached before, and lets a reader recache the same version', async () => {
    const seen: Array<string | undefined> = [];
    const cache = informer({
      transform: (object, cached) => {
        seen.push((cached?.data as { value?: string } | undefined)?.value);
        return object;
      },
    });
    const events = recorder();
    cache.addHandlers(events.handlers);
    cache.start();
    expect(await cache.waitForSync(5000)).toBe(true);
    await client.create(CONFIGMAPS, configMap('shop', 'a', 'one'));
    await eventually(() => expect(cache.get('shop', 'a')).toBeDefined());
    await put('shop', 'a', 'two');
    await eventually(() => expect(seen).toEqual([undefined, 'one']));

    const cached = cache.get('shop', 'a')!;
    const smaller = { ...cached, data: { value: 'kept' } };
    expect(cache.recache(smaller)).toBe(true);
    expect(cache.get('shop', 'a')).toBe(smaller);
    // Another version (or another object of that name) is not replaced.
    expect(cache.recache({ ...smaller, metadata: { ...smaller.metadata, resourceVersion: '1' } })).toBe(
      false,
    );
    expect(cache.recache({ ...smaller, metadata: { ...smaller.metadata, uid: 'other' } })).toBe(false);
    expect(cache.get('shop', 'a')).toBe(smaller);
    // Recaching is no change: handlers hear of the two writes only.
    expect(events.log).toHaveLength(2);
  });

  it('stops delivering after stop()', async () => {
    const cache = informer();
    const events = recorder();
    cache.addHandlers(events.handlers);
    cache.start();
    expect(await cache.waitForSync(5000)).toBe(true);
    cache.stop();
    await client.create(CONFIGMAPS, configMap('shop', 'late'));
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(events.log).toEqual([]);
  });
});

describe('InformerFactory', () => {
  function factory(
    workingNamespaces?: string[],
    options: Partial<ConstructorParameters<typeof InformerFactory>[0]> = {},
  ): InformerFactory {
    const created = new InformerFactory({
      lister: client,
      workingNamespaces,
      ...options,
    });
    stops.push(() => created.stopAll());
    return created;
  }

  it('shares one informer per key and stops it when the last holder releases', async () => {
    const informers = factory(['shop', 'infra']);
    const first = informers.acquire({ resource: CONFIGMAPS });
    const second = informers.acquire({ resource: CONFIGMAPS });
    const selected = informers.acquire({ resource: CONFIGMAPS, labelSelector: 'app=x' });
    const own = informers.acquire({ resource: CONFIGMAPS, namespace: 'scoby' });
    const cluster = informers.acquire({ resource: NAMESPACES });
    expect(second.informer).toBe(first.informer);
    expect(informers.keys).toEqual([
      '/v1/configmaps|infra,shop|',
      '/v1/configmaps|infra,shop|app=x',
      '/v1/configmaps|scoby|',
      '/v1/namespaces|*|',
    ]);
    const events = recorder();
    second.addHandlers(events.handlers);
    expect(await first.informer.waitForSync(5000)).toBe(true);
    await client.create(CONFIGMAPS, configMap('shop', 'a'));
    await eventually(() => expect(events.log).toEqual(['add shop/a=v']));

    second.release();
    second.release();
    expect(informers.keys).toContain('/v1/configmaps|infra,shop|');
    await client.create(CONFIGMAPS, configMap('shop', 'b'));
    await eventually(() => expect(first.informer.get('shop', 'b')).toBeDefined());
    expect(events.log).toEqual(['add shop/a=v']);

    first.release();
    expect(informers.keys).toEqual([
      '/v1/configmaps|infra,shop|app=x',
      '/v1/configmaps|scoby|',
      '/v1/namespaces|*|',
    ]);
    await client.create(CONFIGMAPS, configMap('shop', 'c'));
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(first.informer.get('shop', 'c')).toBeUndefined();

    const again = informers.acquire({ resource: CONFIGMAPS });
    expect(again.informer).not.toBe(first.informer);
    expect(await again.informer.waitForSync(5000)).toBe(true);
    expect(again.informer.get('shop', 'c')).toBeDefined();
    for (const handle of [selected, own, cluster, again]) handle.release();
    expect(informers.keys).toEqual([]);
  });

  it('gives every informer its transform', async () => {
    await client.create(CONFIGMAPS, configMap('shop', 'a'), 'tester');
    const informers = factory(['shop'], { transform: stripManagedFields });
    const configMaps = informers.acquire({ resource: CONFIGMAPS });
    expect(await configMaps.informer.waitForSync(5000)).toBe(true);
    expect((await client.get(CONFIGMAPS, 'shop', 'a')).metadata.managedFields).toHaveLength(1);
    expect(configMaps.informer.get('shop', 'a')?.metadata).not.toHaveProperty('managedFields');
    configMaps.release();
  });

  it("uses a request's own transform instead of the factory's, and reads any informer's cache", async () => {
    await client.create(CONFIGMAPS, configMap('shop', 'a'), 'tester');
    const informers = factory(['shop'], { transform: stripManagedFields });
    const configMaps = informers.acquire({
      resource: CONFIGMAPS,
      labelSelector: '',
      transform: (object) => ({ ...object, data: { value: 'own' } }),
    });
    expect(await configMaps.informer.waitForSync(5000)).toBe(true);
    expect(configMaps.informer.get('shop', 'a')?.data).toEqual({ value: 'own' });
    expect(informers.cached(CONFIGMAPS, 'shop', 'a')?.data).toEqual({ value: 'own' });
    expect(informers.cached(CONFIGMAPS, 'shop', 'missing')).toBeUndefined();
    configMaps.release();
  });
});

describe('SharedInformer edges', () => {
  it('is synced only when every namespace has listed, and says so to a wait', async () => {
    server.faults.failNext(
      { verb: 'list', resource: 'configmaps', namespace: 'infra' },
      { code: 500, count: 1_000 },
    );
    const cache = informer({ namespaces: ['shop', 'infra'], restartBackoff: { baseMs: 20, capMs: 50 } });
    // Waiting before the start: the wait must outlast shop's list, which comes first.
    const waiting = cache.waitForSync(1_000);
    cache.start();
    await eventually(() =>
      expect(
        server.requestLog
          .entries()
          .filter(
            (entry) => entry.path === '/api/v1/namespaces/infra/configmaps' && entry.query.watch !== 'true',
          ).length,
      ).toBeGreaterThan(2),
    );
    expect(cache.hasSynced()).toBe(false);
    expect(await waiting).toBe(false);
    expect(await cache.waitForSync(200)).toBe(false);
    server.faults.reset();
    expect(await cache.waitForSync(5_000)).toBe(true);
    // Once synced, a wait answers true at once.
    expect(await cache.waitForSync(0)).toBe(true);
  });

  it('logs a failed list with the informer, its namespaces and selector, and a failing handler with its event', async () => {
    const logs = captureLogs('warn');
    server.faults.failNext({ verb: 'list', resource: 'configmaps', namespace: 'infra' }, { code: 500 });
    await client.create(CONFIGMAPS, {
      ...configMap('shop', 'a'),
      metadata: { namespace: 'shop', name: 'a', labels: { app: 'x' } },
    });
    const cache = informer({
      namespaces: ['shop', 'infra'],
      labelSelector: 'app=x',
      restartBackoff: { baseMs: 20, capMs: 50 },
      logger: logs.logger,
    });
    const seen: string[] = [];
    cache.addHandlers({ update: () => seen.push('update') });
    cache.addHandlers({
      add: () => {
        throw new Error('handler broke');
      },
    });
    cache.start();
    expect(await cache.waitForSync(5_000)).toBe(true);
    // An update and a delete reach handlers that take neither without a word.
    await put('shop', 'a', 'v2');
    await eventually(() => expect(seen).toEqual(['update']));
    await remove('shop', 'a');
    await eventually(() => expect(cache.get('shop', 'a')).toBeUndefined());
    const lines = logs.lines().map(({ time: _time, err, ...line }): Record<string, unknown> => ({
      ...line,
      ...(err === undefined ? {} : { err: (err as { message?: string }).message }),
    }));
    // The two partitions answer in either order.
    lines.sort((a, b) => String(a.level).localeCompare(String(b.level)));
    expect(lines).toEqual([
      {
        level: 'error',
        component: 'controller',
        informer: 'configmaps.core',
        namespaces: 'shop,infra',
        labelSelector: 'app=x',
        event: 'add',
        err: 'handler broke',
        msg: 'informer handler failed',
      },
      {
        level: 'warn',
        component: 'controller',
        informer: 'configmaps.core',
        namespaces: 'shop,infra',
        labelSelector: 'app=x',
        namespace: 'infra',
        error: expect.stringContaining('injected fault'),
        retryInMs: expect.any(Number),
        msg: 'list-watch failed; restarting with a fresh list',
      },
    ]);
    expect(seen).toEqual(['update']);
  });

  it('starts once when started twice, and resyncs no more once stopped', async () => {
    await client.create(CONFIGMAPS, configMap('shop', 'a'));
    const cache = informer({ resyncMs: 50 });
    const events = recorder();
    cache.addHandlers(events.handlers);
    cache.start();
    cache.start();
    expect(await cache.waitForSync(5_000)).toBe(true);
    await eventually(() => expect(events.log).toContain('update shop/a=v (was v)'));
    cache.stop();
    const after = events.log.length;
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(events.log).toHaveLength(after);
    expect(
      server.requestLog
        .entries()
        .filter((entry) => entry.path === '/api/v1/configmaps' && entry.query.watch !== 'true'),
    ).toHaveLength(1);
  });

  it('recaches nothing it does not hold, nor an object without uid', async () => {
    await client.create(CONFIGMAPS, configMap('shop', 'a'));
    const cache = informer();
    cache.start();
    expect(await cache.waitForSync(5_000)).toBe(true);
    const cached = cache.get('shop', 'a')!;
    expect(cache.recache({ ...cached, metadata: { ...cached.metadata, name: 'other' } })).toBe(false);
    expect(cache.recache({ ...cached, metadata: { ...cached.metadata, uid: undefined } })).toBe(false);
    expect(cache.get('shop', 'other')).toBeUndefined();
  });
});

describe('InformerFactory edges', () => {
  const SECRETS: ResourceRef = { group: '', version: 'v1', resource: 'secrets', namespaced: true };

  it('reads the cache of the informer of that resource that holds the object', async () => {
    const informers = new InformerFactory({ lister: client, workingNamespaces: ['shop'] });
    stops.push(() => informers.stopAll());
    await client.create(CONFIGMAPS, {
      ...configMap('shop', 'a'),
      metadata: { namespace: 'shop', name: 'a', labels: { app: 'y' } },
    });
    await client.create(SECRETS, {
      apiVersion: 'v1',
      kind: 'Secret',
      metadata: { namespace: 'shop', name: 'a' },
    });
    const handles = [
      informers.acquire({ resource: CONFIGMAPS, labelSelector: 'app=x' }),
      informers.acquire({ resource: CONFIGMAPS, labelSelector: 'app=y' }),
      informers.acquire({ resource: SECRETS }),
    ];
    for (const handle of handles) expect(await handle.informer.waitForSync(5_000)).toBe(true);
    expect(informers.cached(CONFIGMAPS, 'shop', 'a')?.metadata.labels).toEqual({ app: 'y' });
    expect(informers.cached(SECRETS, 'shop', 'a')?.kind).toBe('Secret');
  });

  it('stops every informer at stopAll, and a handle released after it leaves the next informer alone', async () => {
    const informers = new InformerFactory({ lister: client, workingNamespaces: ['shop'] });
    stops.push(() => informers.stopAll());
    await client.create(CONFIGMAPS, configMap('shop', 'early'));
    const old = informers.acquire({ resource: CONFIGMAPS });
    expect(await old.informer.waitForSync(5_000)).toBe(true);
    informers.stopAll();
    expect(informers.keys).toEqual([]);
    await client.create(CONFIGMAPS, configMap('shop', 'late'));
    const fresh = informers.acquire({ resource: CONFIGMAPS });
    expect(await fresh.informer.waitForSync(5_000)).toBe(true);
    expect(fresh.informer.get('shop', 'late')).toBeDefined();
    expect(old.informer.get('shop', 'late')).toBeUndefined();
    old.release();
    expect(informers.keys).toEqual(['/v1/configmaps|shop|']);
    expect(informers.acquire({ resource: CONFIGMAPS }).informer).toBe(fresh.informer);
    // A released handle takes no more handlers: it would be handed the cache again.
    const events = recorder();
    old.addHandlers(events.handlers);
    expect(events.log).toEqual([]);
  });
});
