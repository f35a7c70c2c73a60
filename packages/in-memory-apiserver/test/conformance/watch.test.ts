import {
  CoreV1Api,
  makeInformer,
  PatchStrategy,
  setHeaderOptions,
  Watch,
  type KubernetesObject,
  type V1ConfigMap,
} from '@kubernetes/client-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connect, eventually, freshNamespace, inMemoryOnly, type Target } from './harness.ts';

let target: Target;
let core: CoreV1Api;

beforeAll(async () => {
  target = await connect({ bookmarkIntervalMs: 50 });
  core = target.kubeConfig.makeApiClient(CoreV1Api);
});
afterAll(() => target.stop());

interface Seen {
  type: string;
  name: string | undefined;
  resourceVersion: string | undefined;
  object: KubernetesObject & { code?: number; reason?: string };
}

/** Opens a watch and records its events until it ends. */
async function record(
  path: string,
  query: Record<string, string | number | boolean | undefined>,
): Promise<{ events: Seen[]; ended: Promise<unknown>; abort(): void }> {
  const events: Seen[] = [];
  let finish: (error: unknown) => void = () => {};
  const ended = new Promise((resolve) => (finish = resolve));
  const controller = await new Watch(target.kubeConfig).watch(
    path,
    query,
    (type, object: Seen['object']) =>
      events.push({
        type,
        name: object.metadata?.name,
        resourceVersion: object.metadata?.resourceVersion,
        object,
      }),
    (error) => finish(error ?? 'closed'),
  );
  return { events, ended, abort: () => controller.abort() };
}

async function configMap(
  namespace: string,
  name: string,
  labels: Record<string, string> = {},
): Promise<V1ConfigMap> {
  return core.createNamespacedConfigMap({
    namespace,
    body: { metadata: { name, labels }, data: { v: '1' } },
  });
}

describe('watch', () => {
  it('streams ADDED, MODIFIED and DELETED after a resourceVersion, in order', async () => {
    const namespace = await freshNamespace(target);
    const list = await core.listNamespacedConfigMap({ namespace });
    const watch = await record(`/api/v1/namespaces/${namespace}/configmaps`, {
      resourceVersion: list.metadata?.resourceVersion,
    });
    const created = await configMap(namespace, 'watched');
    const modified = await core.patchNamespacedConfigMap(
      { name: 'watched', namespace, body: { data: { v: '2' } } },
      setHeaderOptions('Content-Type', PatchStrategy.MergePatch),
    );
    await core.deleteNamespacedConfigMap({ name: 'watched', namespace });
    await eventually(() =>
      watch.events.filter((event) => event.name === 'watched').length === 3 ? true : undefined,
    );
    watch.abort();
    const mine = watch.events.filter((event) => event.name === 'watched');
    expect(mine.map((event) => event.type)).toEqual(['ADDED', 'MODIFIED', 'DELETED']);
    expect(mine[0]?.resourceVersion).toBe(created.metadata?.resourceVersion);
    expect(mine[1]?.resourceVersion).toBe(modified.metadata?.resourceVersion);
    expect(Number(mine[2]?.resourceVersion)).toBeGreaterThan(Number(modified.metadata?.resourceVersion));
  });

  it('replays what happened since an older resourceVersion', async () => {
    const namespace = await freshNamespace(target);
    const list = await core.listNamespacedConfigMap({ namespace });
    await configMap(namespace, 'first');
    await configMap(namespace, 'second');
    const watch = await record(`/api/v1/namespaces/${namespace}/configmaps`, {
      resourceVersion: list.metadata?.resourceVersion,
    });
    await eventually(() => (watch.events.length >= 2 ? true : undefined));
    watch.abort();
    expect(
      watch.events
        .filter((event) => event.name !== 'kube-root-ca.crt')
        .map((event) => [event.type, event.name]),
    ).toEqual([
      ['ADDED', 'first'],
      ['ADDED', 'second'],
    ]);
  });

  it('starts with synthetic ADDED events of the current state without a resourceVersion', async () => {
    const namespace = await freshNamespace(target);
    await configMap(namespace, 'existing');
    const watch = await record(`/api/v1/namespaces/${namespace}/configmaps`, {
      fieldSelector: 'metadata.name=existing',
    });
    await eventually(() => (watch.events.length >= 1 ? true : undefined));
    watch.abort();
    expect(watch.events.map((event) => [event.type, event.name])).toEqual([['ADDED', 'existing']]);
  });

  it('turns label changes into ADDED and DELETED for a labelSelector', async () => {
    const namespace = await freshNamespace(target);
    const list = await core.listNamespacedConfigMap({ namespace });
    const watch = await record(`/api/v1/namespaces/${namespace}/configmaps`, {
      resourceVersion: list.metadata?.resourceVersion,
      labelSelector: 'app=web',
    });
    await configMap(namespace, 'relabelled', { app: 'db' });
    const merge = setHeaderOptions('Content-Type', PatchStrategy.MergePatch);
    await core.patchNamespacedConfigMap(
      { name: 'relabelled', namespace, body: { metadata: { labels: { app: 'web' } } } },
      merge,
    );
    await core.patchNamespacedConfigMap({ name: 'relabelled', namespace, body: { data: { v: '3' } } }, merge);
    await core.patchNamespacedConfigMap(
      { name: 'relabelled', namespace, body: { metadata: { labels: { app: 'db' } } } },
      merge,
    );
    await eventually(() => (watch.events.length >= 3 ? true : undefined));
    watch.abort();
    expect(watch.events.map((event) => event.type)).toEqual(['ADDED', 'MODIFIED', 'DELETED']);
  });

  it('sends BOOKMARK events when allowed', async (context) => {
    inMemoryOnly(target, context, 'real servers send bookmarks about once a minute');
    const namespace = await freshNamespace(target);
    const list = await core.listNamespacedConfigMap({ namespace });
    const watch = await record(`/api/v1/namespaces/${namespace}/configmaps`, {
      resourceVersion: list.metadata?.resourceVersion,
      allowWatchBookmarks: true,
    });
    await eventually(() => (watch.events.some((event) => event.type === 'BOOKMARK') ? true : undefined));
    watch.abort();
    const bookmark = watch.events.find((event) => event.type === 'BOOKMARK');
    expect(bookmark?.object).toEqual({
      kind: 'ConfigMap',
      apiVersion: 'v1',
      metadata: { resourceVersion: expect.stringMatching(/^\d+$/) },
    });
  });

  it('ends the stream after timeoutSeconds', async () => {
    const namespace = await freshNamespace(target);
    const started = Date.now();
    const watch = await record(`/api/v1/namespaces/${namespace}/configmaps`, { timeoutSeconds: 1 });
    await watch.ended;
    expect(Date.now() - started).toBeGreaterThanOrEqual(900);
  });

  it('answers an ERROR event with 410 Expired for a resourceVersion older than the history window', async (context) => {
    inMemoryOnly(target, context, 'the history window of a real server is not controllable');
    const windowed = await connect({ watchHistory: 3 });
    const windowedCore = windowed.kubeConfig.makeApiClient(CoreV1Api);
    const before = await windowedCore.listNamespacedConfigMap({ namespace: 'default' });
    for (const name of ['h1', 'h2', 'h3', 'h4', 'h5'])
      await windowedCore.createNamespacedConfigMap({ namespace: 'default', body: { metadata: { name } } });
    const events: Seen['object'][] = [];
    await new Promise<void>((resolve) => {
      void new Watch(windowed.kubeConfig).watch(
        '/api/v1/namespaces/default/configmaps',
        { resourceVersion: before.metadata?.resourceVersion },
        (_type, object) => events.push(object),
        () => resolve(),
      );
    });
    await windowed.stop();
    const oldest = Number(before.metadata?.resourceVersion) + 3;
    expect(events).toEqual([
      {
        kind: 'Status',
        apiVersion: 'v1',
        metadata: {},
        status: 'Failure',
        message: `too old resource version: ${before.metadata?.resourceVersion} (${oldest})`,
        reason: 'Expired',
        code: 410,
      },
    ]);
  });
});

describe('informers (makeInformer)', () => {
  it('list, then watch from the list resourceVersion', async () => {
    const namespace = await freshNamespace(target);
    await configMap(namespace, 'before');
    const informer = makeInformer(target.kubeConfig, `/api/v1/namespaces/${namespace}/configmaps`, () =>
      core.listNamespacedConfigMap({ namespace }),
    );
    const seen: string[] = [];
    informer.on('add', (object) => seen.push(`add ${object.metadata?.name}`));
    informer.on('update', (object) => seen.push(`update ${object.metadata?.name}`));
    informer.on('delete', (object) => seen.push(`delete ${object.metadata?.name}`));
    await informer.start();
    await configMap(namespace, 'after');
    await core.patchNamespacedConfigMap(
      { name: 'after', namespace, body: { data: { v: '2' } } },
      setHeaderOptions('Content-Type', PatchStrategy.MergePatch),
    );
    await core.deleteNamespacedConfigMap({ name: 'before', namespace });
    await eventually(() => (seen.includes('delete before') ? true : undefined));
    await informer.stop();
    expect(seen.filter((entry) => !entry.includes('kube-root-ca.crt'))).toEqual([
      'add before',
      'add after',
      'update after',
      'delete before',
    ]);
  });

  it('reconnect after the server drops their watch, and relist after 410', async (context) => {
    const server = inMemoryOnly(target, context, 'dropping watches is fault injection');
    const namespace = await freshNamespace(target);
    const informer = makeInformer(target.kubeConfig, `/api/v1/namespaces/${namespace}/configmaps`, () =>
      core.listNamespacedConfigMap({ namespace }),
    );
    const added: string[] = [];
    informer.on('add', (object) => added.push(object.metadata?.name ?? ''));
    await informer.start();
    server.faults.dropWatches();
    await configMap(namespace, 'after-drop');
    await eventually(() => (added.includes('after-drop') ? true : undefined));
    server.faults.expireNextWatch();
    server.faults.dropWatches();
    await configMap(namespace, 'after-expiry');
    await eventually(() => (added.includes('after-expiry') ? true : undefined));
    await informer.stop();
    expect(added).toEqual(['after-drop', 'after-expiry']);
    const watches = server.requestLog
      .entries()
      .filter(
        (entry) =>
          entry.path === `/api/v1/namespaces/${namespace}/configmaps` && entry.query.watch === 'true',
      );
    expect(watches.length).toBeGreaterThanOrEqual(3);
  });
});
