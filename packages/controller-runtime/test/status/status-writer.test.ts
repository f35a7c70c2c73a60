/** The status write against the in-memory API server: one merge patch of what changed, or no request. */
import { startApiServer, type InMemoryApiServer } from '@scoby/in-memory-apiserver';
import type { KubeObject } from '@scoby/kube-objects';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DynamicClient, type ResourceRef } from '../../src/client/dynamic-client.ts';
import { statusMergePatch, writeStatus } from '../../src/status/status-writer.ts';

const NAMESPACES: ResourceRef = { group: '', version: 'v1', resource: 'namespaces', namespaced: false };

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

const statusPatches = () =>
  server.requestLog
    .entries()
    .filter((entry) => entry.method === 'PATCH' && entry.path.endsWith('/status'))
    .map((entry) => entry.body);

describe('writeStatus', () => {
  it('sends what changed to the status subresource, and nothing when the status is as desired', async () => {
    const created: KubeObject = await client.create(NAMESPACES, {
      apiVersion: 'v1',
      kind: 'Namespace',
      metadata: { name: 'shop' },
    });
    const written = await writeStatus(client, NAMESPACES, created, {
      ...(created.status as Record<string, unknown>),
      conditions: [{ type: 'Checked', status: 'True' }],
    });
    expect(written?.status).toMatchObject({ conditions: [{ type: 'Checked', status: 'True' }] });
    expect(statusPatches()).toEqual([{ status: { conditions: [{ type: 'Checked', status: 'True' }] } }]);
    expect(await writeStatus(client, NAMESPACES, written!, written!.status as Record<string, unknown>)).toBe(
      undefined,
    );
    expect(statusPatches()).toHaveLength(1);
  });

  it('with `partial`, writes the given fields and leaves the others as stored', async () => {
    const created: KubeObject = await client.create(NAMESPACES, {
      apiVersion: 'v1',
      kind: 'Namespace',
      metadata: { name: 'shop' },
    });
    const stored = created.status as Record<string, unknown>;
    expect(stored).toEqual({ phase: 'Active' });
    const conditions = [{ type: 'Checked', status: 'False' }];
    const written = await writeStatus(client, NAMESPACES, created, { conditions }, { partial: true });
    expect(written?.status).toEqual({ phase: 'Active', conditions });
    expect(statusPatches()).toEqual([{ status: { conditions } }]);
  });
});

describe('statusMergePatch', () => {
  it('is undefined for equal statuses, and removes fields with null', () => {
    expect(statusMergePatch({ a: 1 }, { a: 1 })).toBeUndefined();
    expect(statusMergePatch({ a: 1, b: 2 }, { a: 1 })).toEqual({ status: { b: null } });
    expect(statusMergePatch(undefined, { a: 1 })).toEqual({ status: { a: 1 } });
  });

  it('takes a stored status that is no object (absent, null, an array, a string) as empty', () => {
    for (const stored of [undefined, null, ['x'], 'x']) {
      expect(statusMergePatch(stored, {})).toBeUndefined();
      expect(statusMergePatch(stored, { phase: 'Active' })).toEqual({ status: { phase: 'Active' } });
    }
  });
});

describe('writeStatus from a cached status that is no object', () => {
  it.each([
    ['an array', ['x']],
    ['a string', 'xy'],
  ])('with `partial`, patches only the given fields over %s', async (_, status) => {
    const created = await client.create(NAMESPACES, {
      apiVersion: 'v1',
      kind: 'Namespace',
      metadata: { name: 'odd' },
    });
    await writeStatus(client, NAMESPACES, { ...created, status }, { phase: 'Active' }, { partial: true });
    expect(statusPatches()).toEqual([{ status: { phase: 'Active' } }]);
  });
});
