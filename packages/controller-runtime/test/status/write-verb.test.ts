/**
 * Writing with `update` where a role grants no `patch`: the body built from the object read, only the
 * writer's fields changed, guarded by its resourceVersion and built again from a fresh read on conflict
 * (against the in-memory API server, denying `patch` as a role granting `update` alone would).
 */
import { startApiServer, type InMemoryApiServer } from '@scoby/in-memory-apiserver';
import type { KubeObject } from '@scoby/kube-objects';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DynamicClient, type ResourceRef } from '../../src/client/dynamic-client.ts';
import { setFinalizer } from '../../src/finalizers/finalizers.ts';
import { withStatusPatch, writeStatus } from '../../src/status/status-writer.ts';
import { UPDATE_ATTEMPTS, updateBody } from '../../src/status/write-verb.ts';

const CRDS: ResourceRef = {
  group: 'apiextensions.k8s.io',
  version: 'v1',
  resource: 'customresourcedefinitions',
  namespaced: false,
};
const GADGETS: ResourceRef = { group: 'example.com', version: 'v1', resource: 'gadgets', namespaced: true };
const CONTROLLER = 'controller';

let server: InMemoryApiServer;
let admin: DynamicClient;
let client: DynamicClient;

beforeEach(async () => {
  server = await startApiServer();
  admin = new DynamicClient(server.kubeConfig());
  client = new DynamicClient(server.kubeConfig(CONTROLLER));
  await admin.create(CRDS, {
    apiVersion: 'apiextensions.k8s.io/v1',
    kind: 'CustomResourceDefinition',
    metadata: { name: 'gadgets.example.com' },
    spec: {
      group: 'example.com',
      scope: 'Namespaced',
      names: { kind: 'Gadget', plural: 'gadgets', singular: 'gadget', listKind: 'GadgetList' },
      versions: [
        {
          name: 'v1',
          served: true,
          storage: true,
          subresources: { status: {} },
          schema: {
            openAPIV3Schema: {
              type: 'object',
              properties: {
                spec: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true },
                status: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true },
              },
            },
          },
        },
      ],
    },
  });
  // A role granting update alone (the original Scoby's): patch refused on the object and its status.
  server.authorization.deny({ user: CONTROLLER, verb: 'patch', resource: 'gadgets' });
  for (let tries = 0; (await admin.resourceFor('example.com/v1', 'Gadget')) === undefined; tries++) {
    if (tries > 100) throw new Error('the CRD is not served');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
});
afterEach(async () => {
  client.close();
  admin.close();
  await server.stop();
});

async function gadget(): Promise<KubeObject> {
  const created = await admin.create(GADGETS, {
    apiVersion: 'example.com/v1',
    kind: 'Gadget',
    metadata: { namespace: 'default', name: 'one', finalizers: ['example.com/other'] },
    spec: { size: 1 },
  });
  return admin.update(
    GADGETS,
    { ...created, status: { hook: { quota: 'ok' }, configured: 'blue', conditions: [] } },
    { subresource: 'status' },
  );
}

const puts = () =>
  server.requestLog
    .entries()
    .filter((entry) => entry.method === 'PUT' || entry.method === 'PATCH')
    .filter((entry) => entry.user === CONTROLLER)
    .map((entry) => ({ method: entry.method, path: entry.path, code: entry.code }));

describe('the update body', () => {
  const read: KubeObject = {
    apiVersion: 'example.com/v1',
    kind: 'Gadget',
    metadata: {
      name: 'one',
      resourceVersion: '7',
      finalizers: ['a'],
      managedFields: [{ manager: 'x', operation: 'Update' }],
    },
    spec: { size: 1 },
    status: { hook: { quota: 'ok' }, conditions: [{ type: 'Ready', status: 'Unknown' }], gone: 1 },
  };

  it('is the object read with its resourceVersion, without managedFields (the server keeps them)', () => {
    const body = updateBody(read, (object) => object);
    expect(body).toEqual({ ...read, metadata: { name: 'one', resourceVersion: '7', finalizers: ['a'] } });
    // The read object itself is untouched.
    updateBody(read, (object) => (((object.spec as { size: number }).size = 2), object));
    expect(read.spec).toEqual({ size: 1 });
  });

  it('changes only the fields of the status merge patch: the others as read', () => {
    const patch = { status: { conditions: [{ type: 'Ready', status: 'True' }], gone: null } };
    expect(withStatusPatch(read, patch)).toEqual({
      ...read,
      status: { hook: { quota: 'ok' }, conditions: [{ type: 'Ready', status: 'True' }] },
    });
    expect(read.status).toMatchObject({ gone: 1 });
  });
});

describe('writeStatus and setFinalizer with verb update', () => {
  it('PUT the status and the finalizers, keeping what others wrote, where patch is refused', async () => {
    const read = await gadget();
    const desired = {
      ...(read.status as Record<string, unknown>),
      conditions: [{ type: 'Ready', status: 'True' }],
    };
    await expect(writeStatus(client, GADGETS, read, desired)).rejects.toMatchObject({ code: 403 });
    const written = await writeStatus(client, GADGETS, read, desired, { verb: 'update' });
    expect(written?.status).toEqual({
      hook: { quota: 'ok' },
      configured: 'blue',
      conditions: [{ type: 'Ready', status: 'True' }],
    });
    const held = await setFinalizer(client, GADGETS, written!, 'example.com/mine', true, { verb: 'update' });
    expect(held?.metadata.finalizers).toEqual(['example.com/other', 'example.com/mine']);
    expect(held?.spec).toEqual({ size: 1 });
    expect(puts()).toEqual([
      { method: 'PATCH', path: '/apis/example.com/v1/namespaces/default/gadgets/one/status', code: 403 },
      { method: 'PUT', path: '/apis/example.com/v1/namespaces/default/gadgets/one/status', code: 200 },
      { method: 'PUT', path: '/apis/example.com/v1/namespaces/default/gadgets/one', code: 200 },
    ]);
  });

  it('on conflict reads again and applies the same change to what it read', async () => {
    const stale = await gadget();
    // Another writer (a hook's answer, statusConfiguration) after the controller's read.
    await admin.update(
      GADGETS,
      { ...stale, status: { ...(stale.status as object), configured: 'green' } },
      { subresource: 'status' },
    );
    const desired = {
      ...(stale.status as Record<string, unknown>),
      conditions: [{ type: 'Ready', status: 'True' }],
    };
    const written = await writeStatus(client, GADGETS, stale, desired, { verb: 'update' });
    expect(written?.status).toEqual({
      hook: { quota: 'ok' },
      configured: 'green',
      conditions: [{ type: 'Ready', status: 'True' }],
    });
    const removed = await setFinalizer(client, GADGETS, stale, 'example.com/other', false, {
      verb: 'update',
    });
    expect(removed?.metadata.finalizers).toBeUndefined();
    expect(removed?.status).toEqual(written?.status);
    expect(puts().map((put) => put.code)).toEqual([409, 200, 409, 200]);
  });

  it('hands every re-read object to onReread', async () => {
    const stale = await gadget();
    await admin.update(
      GADGETS,
      { ...stale, status: { ...(stale.status as object), configured: 'green' } },
      { subresource: 'status' },
    );
    const rereads: KubeObject[] = [];
    await writeStatus(
      client,
      GADGETS,
      stale,
      { configured: 'red' },
      {
        verb: 'update',
        partial: true,
        onReread: (read) => rereads.push(read),
      },
    );
    expect(rereads.map((read) => (read.status as { configured: string }).configured)).toEqual(['green']);
  });

  it(`gives up after ${UPDATE_ATTEMPTS} conflicts in a row with the last one`, async () => {
    const read = await gadget();
    server.faults.conflictStorm({ resource: 'gadgets', subresource: 'status', user: CONTROLLER }, 100);
    await expect(
      writeStatus(client, GADGETS, read, { configured: 'red' }, { verb: 'update', partial: true }),
    ).rejects.toMatchObject({ code: 409 });
    expect(puts().map((put) => put.code)).toEqual(Array.from({ length: UPDATE_ATTEMPTS }, () => 409));
  });

  it('answers any other error at once, without reading again', async () => {
    const read = await gadget();
    server.faults.failNext({ verb: 'update', resource: 'gadgets', user: CONTROLLER }, { code: 500 });
    await expect(
      writeStatus(client, GADGETS, read, { configured: 'red' }, { verb: 'update', partial: true }),
    ).rejects.toMatchObject({ code: 500 });
    const requests = server.requestLog.entries().filter((entry) => entry.user === CONTROLLER);
    expect(requests.map((entry) => [entry.method, entry.code])).toEqual([['PUT', 500]]);
  });

  it('sends nothing once its signal has fired', async () => {
    const read = await gadget();
    const options = { verb: 'update' as const, partial: true, signal: AbortSignal.abort() };
    await expect(writeStatus(client, GADGETS, read, { configured: 'red' }, options)).rejects.toMatchObject({
      name: 'AbortError',
    });
    expect(server.requestLog.entries().filter((entry) => entry.user === CONTROLLER)).toEqual([]);
  });
});
