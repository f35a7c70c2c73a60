/**
 * Events: one object behind core/v1 and events.k8s.io/v1 (kube-apiserver converts between the two
 * shapes), the field selectors kubectl uses (describe selects Events by involved object), and their TTL.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApiServer } from '../../src/index.ts';
import {
  connect,
  createRaw,
  eventually,
  freshNamespace,
  inMemoryOnly,
  rawRequest,
  type Target,
} from './harness.ts';

let target: Target;
let namespace: string;

beforeAll(async () => {
  target = await connect();
  namespace = await freshNamespace(target, 'events');
});
afterAll(() => target.stop());

type Json = Record<string, unknown> & { metadata: Record<string, unknown> };

const post = (path: string, object: unknown) => createRaw<Json>(target, path, object);

async function get(path: string): Promise<{ status: number; json: Json }> {
  const reply = await rawRequest(target, 'GET', path);
  return reply as { status: number; json: Json };
}

async function names(path: string, fieldSelector: string): Promise<string[]> {
  const reply = await rawRequest(target, 'GET', `${path}?fieldSelector=${encodeURIComponent(fieldSelector)}`);
  expect(reply.status, JSON.stringify(reply.json)).toBe(200);
  return (reply.json as { items: Json[] }).items.map((item) => item.metadata.name as string).sort();
}

const core = () => `/api/v1/namespaces/${namespace}/events`;
const v1 = () => `/apis/events.k8s.io/v1/namespaces/${namespace}/events`;

function coreEvent(
  name: string,
  involved: { kind: string; name: string; uid?: string },
  extra: object = {},
): object {
  return {
    metadata: { name },
    involvedObject: { apiVersion: 'v1', namespace, ...involved },
    reason: 'Checked',
    message: `about ${involved.name}`,
    type: 'Normal',
    source: { component: 'checker' },
    firstTimestamp: '2024-01-01T00:00:00Z',
    lastTimestamp: '2024-01-01T00:01:00Z',
    count: 2,
    ...extra,
  };
}

describe('core and events.k8s.io Events', () => {
  it('are one object: written through either API, read through both in its shape', async () => {
    const written = await post(
      core(),
      coreEvent('from-core', { kind: 'ConfigMap', name: 'settings', uid: 'u-1' }),
    );
    const asV1 = await get(`${v1()}/from-core`);
    expect(asV1.status).toBe(200);
    expect(asV1.json).toMatchObject({
      apiVersion: 'events.k8s.io/v1',
      kind: 'Event',
      metadata: {
        name: 'from-core',
        uid: written.metadata.uid,
        resourceVersion: written.metadata.resourceVersion,
      },
      regarding: { kind: 'ConfigMap', name: 'settings', uid: 'u-1', namespace, apiVersion: 'v1' },
      note: 'about settings',
      reason: 'Checked',
      type: 'Normal',
      deprecatedSource: { component: 'checker' },
      deprecatedFirstTimestamp: '2024-01-01T00:00:00Z',
      deprecatedLastTimestamp: '2024-01-01T00:01:00Z',
      deprecatedCount: 2,
    });
    expect(asV1.json).not.toHaveProperty('involvedObject');
    expect(asV1.json).not.toHaveProperty('message');

    const eventTime = '2024-01-01T00:02:00.000000Z';
    await post(v1(), {
      metadata: { name: 'from-v1' },
      eventTime,
      reportingController: 'example.com/checker',
      reportingInstance: 'checker-1',
      action: 'Check',
      reason: 'Checked',
      note: 'fine',
      type: 'Warning',
      regarding: { kind: 'Secret', name: 'token', namespace },
    });
    const asCore = await get(`${core()}/from-v1`);
    expect(asCore.status).toBe(200);
    expect(asCore.json).toMatchObject({
      apiVersion: 'v1',
      kind: 'Event',
      involvedObject: { kind: 'Secret', name: 'token', namespace },
      message: 'fine',
      reportingComponent: 'example.com/checker',
      reportingInstance: 'checker-1',
      eventTime,
      action: 'Check',
      type: 'Warning',
    });
    expect(asCore.json).not.toHaveProperty('regarding');
    expect(await names(core(), 'metadata.namespace=' + namespace)).toEqual(['from-core', 'from-v1']);
    expect(await names(v1(), 'metadata.namespace=' + namespace)).toEqual(['from-core', 'from-v1']);
  });

  it('are updated through one API and seen changed through the other', async () => {
    await post(core(), coreEvent('changed', { kind: 'ConfigMap', name: 'settings' }));
    const patched = await rawRequest(target, 'PATCH', `${core()}/changed`, {
      contentType: 'application/merge-patch+json',
      text: JSON.stringify({ message: 'changed note', count: 5 }),
    });
    expect(patched.status, JSON.stringify(patched.json)).toBe(200);
    expect(patched.json).toMatchObject({ apiVersion: 'v1', message: 'changed note', count: 5 });
    const asV1 = await get(`${v1()}/changed`);
    expect(asV1.json).toMatchObject({ note: 'changed note', deprecatedCount: 5 });
    expect(asV1.json.metadata.resourceVersion).toBe((patched.json as Json).metadata.resourceVersion);
    const deleted = await rawRequest(target, 'DELETE', `${v1()}/changed`);
    expect(deleted.status).toBe(200);
    expect((await get(`${core()}/changed`)).status).toBe(404);
  });
});

describe('events.k8s.io updates', () => {
  it('differs: an update through events.k8s.io/v1 may change note and deprecatedCount (kube-apiserver: immutable)', async () => {
    await post(core(), coreEvent('immutable', { kind: 'ConfigMap', name: 'settings' }));
    const patched = await rawRequest(target, 'PATCH', `${v1()}/immutable`, {
      contentType: 'application/merge-patch+json',
      text: JSON.stringify({ note: 'changed note', deprecatedCount: 5 }),
    });
    if (target.server) {
      expect(patched).toMatchObject({ status: 200, json: { note: 'changed note', deprecatedCount: 5 } });
      return;
    }
    expect(patched).toMatchObject({ status: 422, json: { reason: 'Invalid' } });
  });
});

describe('field selectors', () => {
  it('select core Events by involved object, reason, type and source, as kubectl describe does', async () => {
    await post(core(), coreEvent('web-1', { kind: 'Deployment', name: 'web', uid: 'uid-web' }));
    await post(
      core(),
      coreEvent(
        'web-2',
        { kind: 'Deployment', name: 'web', uid: 'uid-web' },
        { type: 'Warning', reason: 'Failed' },
      ),
    );
    await post(
      core(),
      coreEvent(
        'svc-1',
        { kind: 'Service', name: 'web', uid: 'uid-svc' },
        { source: { component: 'other' } },
      ),
    );
    const describe = `involvedObject.name=web,involvedObject.namespace=${namespace},involvedObject.kind=Deployment,involvedObject.uid=uid-web`;
    expect(await names(core(), describe)).toEqual(['web-1', 'web-2']);
    expect(await names(core(), 'involvedObject.kind=Service')).toEqual(['svc-1']);
    expect(await names(core(), 'involvedObject.name=web,type=Warning')).toEqual(['web-2']);
    expect(await names(core(), 'involvedObject.name=web,reason!=Failed')).toEqual(['svc-1', 'web-1']);
    expect(await names(core(), 'involvedObject.name=web,source=other')).toEqual(['svc-1']);
    expect(await names(v1(), 'regarding.kind=Deployment,regarding.uid=uid-web,type=Warning')).toEqual([
      'web-2',
    ]);
    const unsupported = await rawRequest(target, 'GET', `${v1()}?fieldSelector=source%3Dother`);
    expect(unsupported).toMatchObject({
      status: 400,
      json: { reason: 'BadRequest', message: 'field label not supported: source' },
    });
  });

  it('select Namespaces by status.phase, Secrets by type and Services by spec.type', async () => {
    expect(await names('/api/v1/namespaces', `status.phase=Active,metadata.name=${namespace}`)).toEqual([
      namespace,
    ]);
    expect(await names('/api/v1/namespaces', `status.phase=Terminating,metadata.name=${namespace}`)).toEqual(
      [],
    );
    const namespaceField = await rawRequest(
      target,
      'GET',
      `/api/v1/namespaces?fieldSelector=metadata.namespace%3Dx`,
    );
    expect(namespaceField).toMatchObject({
      status: 400,
      json: { message: 'field label not supported: metadata.namespace' },
    });
    await post(`/api/v1/namespaces/${namespace}/secrets`, { metadata: { name: 'opaque' }, type: 'Opaque' });
    await post(`/api/v1/namespaces/${namespace}/secrets`, {
      metadata: { name: 'basic' },
      type: 'kubernetes.io/basic-auth',
      stringData: { username: 'u', password: 'p' },
    });
    expect(await names(`/api/v1/namespaces/${namespace}/secrets`, 'type=kubernetes.io/basic-auth')).toEqual([
      'basic',
    ]);
    await post(`/api/v1/namespaces/${namespace}/services`, {
      metadata: { name: 'headless' },
      spec: { clusterIP: 'None', ports: [{ port: 80 }] },
    });
    expect(
      await names(`/api/v1/namespaces/${namespace}/services`, 'spec.clusterIP=None,spec.type=ClusterIP'),
    ).toEqual(['headless']);
  });
});

describe('Event TTL', () => {
  it(
    'removes an Event once its time to live since the last write has passed (kube-apiserver --event-ttl)',
    { timeout: 30_000 },
    async (context) => {
      inMemoryOnly(target, context, "a real server's --event-ttl is fixed when it starts (1 h)");
      const server = await startApiServer({ eventTtlMs: 4000 });
      try {
        const url = `${server.url}/api/v1/namespaces/default/events`;
        const body = JSON.stringify({
          metadata: { name: 'short' },
          involvedObject: { kind: 'Pod', name: 'p' },
          reason: 'R',
        });
        const created = await fetch(url, {
          method: 'POST',
          headers: { 'Content-Type': 'application/json' },
          body,
        });
        expect(created.status).toBe(201);
        await new Promise((resolve) => setTimeout(resolve, 2000));
        const renewed = await fetch(`${url}/short`, {
          method: 'PATCH',
          headers: { 'Content-Type': 'application/merge-patch+json' },
          body: JSON.stringify({ count: 2 }),
        });
        expect(renewed.status).toBe(200);
        // Past the first write's TTL, within the renewed one (1.5 s of margin on a loaded machine).
        await new Promise((resolve) => setTimeout(resolve, 2500));
        expect((await fetch(`${url}/short`)).status).toBe(200);
        await eventually(
          async () => ((await fetch(`${url}/short`)).status === 404 ? true : undefined),
          10_000,
        );
      } finally {
        await server.stop();
      }
    },
  );
});
