/**
 * Finalizer helpers against the in-memory API server: one merge patch that keeps other finalizers,
 * guarded by resourceVersion and retried on a newer object, and no write when nothing changes.
 */
import { startApiServer, type InMemoryApiServer } from '@scoby/in-memory-apiserver';
import type { KubeObject } from '@scoby/kube-objects';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DynamicClient, type ResourceRef } from '../../src/client/dynamic-client.ts';
import { hasFinalizer, setFinalizer } from '../../src/finalizers/finalizers.ts';

const CONFIGMAPS: ResourceRef = { group: '', version: 'v1', resource: 'configmaps', namespaced: true };
const MINE = 'example.com/cleanup';
const OTHER = 'example.com/other';

let server: InMemoryApiServer;
let client: DynamicClient;

beforeEach(async () => {
  server = await startApiServer();
  client = new DynamicClient(server.kubeConfig());
});
afterEach(async () => {
  client.close();
  await server.stop();
});

async function created(finalizers?: string[]): Promise<KubeObject> {
  return client.create(CONFIGMAPS, {
    apiVersion: 'v1',
    kind: 'ConfigMap',
    metadata: { namespace: 'default', name: 'held', ...(finalizers ? { finalizers } : {}) },
  });
}

const patches = () =>
  server.requestLog
    .entries()
    .filter((entry) => entry.method === 'PATCH')
    .map((entry) => ({ code: entry.code, body: entry.body }));

describe('setFinalizer', () => {
  it('adds the finalizer after the others, guarded by the resourceVersion read', async () => {
    const object = await created([OTHER]);
    const updated = await setFinalizer(client, CONFIGMAPS, object, MINE, true);
    expect(updated?.metadata.finalizers).toEqual([OTHER, MINE]);
    expect(hasFinalizer(updated!, MINE)).toBe(true);
    expect(patches()).toEqual([
      {
        code: 200,
        body: { metadata: { finalizers: [OTHER, MINE], resourceVersion: object.metadata.resourceVersion } },
      },
    ]);
  });

  it('writes nothing when the object already is as asked', async () => {
    const object = await created([MINE]);
    expect(await setFinalizer(client, CONFIGMAPS, object, MINE, true)).toBe(object);
    expect(patches()).toEqual([]);
  });

  it('reads the object again after a conflict and keeps the finalizer added meanwhile', async () => {
    const object = await created([MINE]);
    await client.patch(CONFIGMAPS, 'default', 'held', { metadata: { finalizers: [MINE, OTHER] } });
    const updated = await setFinalizer(client, CONFIGMAPS, object, MINE, false);
    expect(updated?.metadata.finalizers).toEqual([OTHER]);
    expect(patches().map((patch) => patch.code)).toEqual([200, 409, 200]);
  });

  it('answers undefined when the object is gone', async () => {
    const object = await created();
    await client.delete(CONFIGMAPS, 'default', 'held');
    expect(await setFinalizer(client, CONFIGMAPS, object, MINE, true)).toBeUndefined();
  });

  it('gives up after five conflicts in a row with the last one', async () => {
    const object = await created();
    server.faults.conflictStorm({ resource: 'configmaps' }, 100);
    await expect(setFinalizer(client, CONFIGMAPS, object, MINE, true)).rejects.toMatchObject({ code: 409 });
    expect(patches().map((patch) => patch.code)).toEqual([409, 409, 409, 409, 409]);
  });

  it('answers any other error at once, without reading again', async () => {
    const object = await created();
    server.faults.failNext({ verb: 'patch', resource: 'configmaps' }, { code: 500 });
    await expect(setFinalizer(client, CONFIGMAPS, object, MINE, true)).rejects.toMatchObject({ code: 500 });
    const requests = server.requestLog.entries().filter((entry) => entry.method !== 'POST');
    expect(requests.map((entry) => [entry.method, entry.code])).toEqual([['PATCH', 500]]);
  });

  it('answers undefined when the object is gone by the read after a conflict, and a failed read as it came', async () => {
    const object = await created();
    server.faults.failNext({ verb: 'patch', resource: 'configmaps' }, { code: 409 });
    server.faults.failNext({ verb: 'get', resource: 'configmaps' }, { code: 404 });
    await expect(setFinalizer(client, CONFIGMAPS, object, MINE, true)).resolves.toBeUndefined();
    server.faults.failNext({ verb: 'patch', resource: 'configmaps' }, { code: 409 });
    server.faults.failNext({ verb: 'get', resource: 'configmaps' }, { code: 500 });
    await expect(setFinalizer(client, CONFIGMAPS, object, MINE, true)).rejects.toMatchObject({ code: 500 });
  });
});
