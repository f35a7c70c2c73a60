import {
  AppsV1Api,
  CoreV1Api,
  CustomObjectsApi,
  PatchStrategy,
  setHeaderOptions,
} from '@kubernetes/client-node';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { connect, failure, freshNamespace, inMemoryOnly, type Target } from './harness.ts';

let target: Target;
let core: CoreV1Api;
let namespace: string;

beforeAll(async () => {
  target = await connect();
  core = target.kubeConfig.makeApiClient(CoreV1Api);
  namespace = await freshNamespace(target);
});
afterEach(() => target.server?.faults.reset());
afterAll(() => target.stop());

describe('fault injection', () => {
  it('fails the next N matching requests with the chosen code', async (context) => {
    const server = inMemoryOnly(target, context, 'fault injection');
    server.faults.failNext({ verb: 'create', resource: 'configmaps' }, { code: 503, count: 2 });
    const first = await failure(
      core.createNamespacedConfigMap({ namespace, body: { metadata: { name: 'flaky' } } }),
    );
    expect(first).toEqual({
      kind: 'Status',
      apiVersion: 'v1',
      metadata: {},
      status: 'Failure',
      message: 'injected fault: ServiceUnavailable',
      reason: 'ServiceUnavailable',
      code: 503,
    });
    expect(
      (await failure(core.createNamespacedConfigMap({ namespace, body: { metadata: { name: 'flaky' } } })))
        .code,
    ).toBe(503);
    const created = await core.createNamespacedConfigMap({
      namespace,
      body: { metadata: { name: 'flaky' } },
    });
    expect(created.metadata?.name).toBe('flaky');
  });

  it('matches faults by subresource', async (context) => {
    const server = inMemoryOnly(target, context, 'fault injection');
    const apps = target.kubeConfig.makeApiClient(AppsV1Api);
    server.faults.failNext(
      { resource: 'deployments', subresource: 'status' },
      { code: 500, message: 'status write failed' },
    );
    await apps.createNamespacedDeployment({
      namespace,
      body: {
        metadata: { name: 'faulty' },
        spec: {
          selector: { matchLabels: { a: 'b' } },
          template: { metadata: { labels: { a: 'b' } }, spec: { containers: [{ name: 'c', image: 'i' }] } },
        },
      },
    });
    const status = await failure(
      apps.patchNamespacedDeploymentStatus(
        { name: 'faulty', namespace, body: { status: {} } },
        setHeaderOptions('Content-Type', PatchStrategy.MergePatch),
      ),
    );
    expect(status).toMatchObject({ code: 500, reason: 'InternalError', message: 'status write failed' });
  });

  it('answers the next N updates and patches with 409 Conflict in a conflict storm', async (context) => {
    const server = inMemoryOnly(target, context, 'fault injection');
    await core.createNamespacedConfigMap({ namespace, body: { metadata: { name: 'stormy' } } });
    server.faults.conflictStorm({ resource: 'configmaps', name: 'stormy' }, 2);
    const merge = setHeaderOptions('Content-Type', PatchStrategy.MergePatch);
    const patch = () =>
      core.patchNamespacedConfigMap({ name: 'stormy', namespace, body: { data: { a: '1' } } }, merge);
    expect(await failure(patch())).toMatchObject({
      code: 409,
      reason: 'Conflict',
      message:
        'Operation cannot be fulfilled on configmaps "stormy": the object has been modified; please apply your changes to the latest version and try again',
    });
    expect(
      (
        await failure(
          core.replaceNamespacedConfigMap({
            name: 'stormy',
            namespace,
            body: { metadata: { name: 'stormy' } },
          }),
        )
      ).code,
    ).toBe(409);
    expect((await patch()).data).toEqual({ a: '1' });
  });

  it('matches faults by user, so one client can be made to fail while the others are served', async (context) => {
    const server = inMemoryOnly(target, context, 'fault injection');
    const alice = server.kubeConfig('alice').makeApiClient(CoreV1Api);
    server.faults.failNext({ resource: 'configmaps', user: 'alice' }, { code: 500 });
    const read = (api: CoreV1Api) => api.listNamespacedConfigMap({ namespace });
    expect((await read(core)).items).toBeDefined();
    expect((await failure(read(alice))).code).toBe(500);
    expect((await read(alice)).items).toBeDefined();
  });

  it('marks injected replies in the request log, and only those', async (context) => {
    const server = inMemoryOnly(target, context, 'fault injection');
    server.faults.failNext({ verb: 'create', resource: 'configmaps' }, { code: 409 });
    server.requestLog.clear();
    const create = () =>
      core.createNamespacedConfigMap({ namespace, body: { metadata: { name: 'marked' } } });
    expect((await failure(create())).reason).toBe('Conflict');
    await create();
    expect((await failure(create())).reason).toBe('AlreadyExists');
    expect(server.requestLog.entries().map(({ code, injected }) => ({ code, injected }))).toEqual([
      { code: 409, injected: true },
      { code: 201, injected: false },
      { code: 409, injected: false },
    ]);
  });

  it('adds latency to every request', async (context) => {
    const server = inMemoryOnly(target, context, 'fault injection');
    server.faults.setLatency(150);
    const started = Date.now();
    await core.readNamespace({ name: namespace });
    expect(Date.now() - started).toBeGreaterThanOrEqual(140);
  });
});

describe('request log', () => {
  it('records method, path, query, content type, parsed body and response code', async (context) => {
    const server = inMemoryOnly(target, context, 'the request log');
    const custom = target.kubeConfig.makeApiClient(CustomObjectsApi);
    server.requestLog.clear();
    await core.patchNamespaceStatus(
      { name: namespace, body: { status: { phase: 'Active' } }, fieldManager: 'me' },
      setHeaderOptions('Content-Type', PatchStrategy.MergePatch),
    );
    await failure(
      custom.getNamespacedCustomObject({
        group: 'nothing.example.com',
        version: 'v1',
        namespace,
        plural: 'things',
        name: 'x',
      }),
    );
    expect(server.requestLog.entries()).toEqual([
      {
        method: 'PATCH',
        path: `/api/v1/namespaces/${namespace}/status`,
        query: { fieldManager: 'me' },
        user: 'in-memory',
        contentType: 'application/merge-patch+json',
        userAgent: expect.stringMatching(/^node-fetch\//),
        body: { status: { phase: 'Active' } },
        code: 200,
        injected: false,
      },
      {
        method: 'GET',
        path: `/apis/nothing.example.com/v1/namespaces/${namespace}/things/x`,
        user: 'in-memory',
        query: {},
        contentType: undefined,
        userAgent: expect.stringMatching(/^node-fetch\//),
        body: undefined,
        code: 404,
        injected: false,
      },
    ]);
    server.requestLog.clear();
    expect(server.requestLog.entries()).toEqual([]);
  });
});
