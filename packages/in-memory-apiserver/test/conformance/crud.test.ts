import { CoreV1Api, PatchStrategy, setHeaderOptions, type V1ConfigMap } from '@kubernetes/client-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  connect,
  createRaw,
  failure,
  freshNamespace,
  installEstablished,
  namespacedCrd,
  rawRequest,
  uniqueName,
  type Target,
} from './harness.ts';

let target: Target;
let core: CoreV1Api;
let namespace: string;

beforeAll(async () => {
  target = await connect();
  core = target.kubeConfig.makeApiClient(CoreV1Api);
  namespace = await freshNamespace(target);
});
afterAll(() => target.stop());

function configMap(
  name: string,
  data: Record<string, string> = {},
  labels?: Record<string, string>,
): V1ConfigMap {
  return { metadata: { name, ...(labels ? { labels } : {}) }, data };
}

describe('create', () => {
  it('sets uid, creationTimestamp and resourceVersion, and answers 201 with the stored object', async () => {
    const created = await core.createNamespacedConfigMap({
      namespace,
      body: configMap('created', { a: '1' }),
    });
    expect(created.metadata?.name).toBe('created');
    expect(created.metadata?.namespace).toBe(namespace);
    expect(created.metadata?.uid).toMatch(/^[0-9a-f-]{36}$/);
    expect(created.metadata?.resourceVersion).toMatch(/^\d+$/);
    expect(created.metadata?.creationTimestamp).toBeInstanceOf(Date);
    expect(created.data).toEqual({ a: '1' });
    const read = await core.readNamespacedConfigMap({ name: 'created', namespace });
    expect(read.metadata?.resourceVersion).toBe(created.metadata?.resourceVersion);
  });

  it('completes generateName with five random characters', async () => {
    const created = await core.createNamespacedConfigMap({
      namespace,
      body: { metadata: { generateName: 'gen-' } },
    });
    expect(created.metadata?.name).toMatch(/^gen-[bcdfghjklmnpqrstvwxz2456789]{5}$/);
  });

  it('answers 409 AlreadyExists for a taken name', async () => {
    await core.createNamespacedConfigMap({ namespace, body: configMap('taken') });
    const status = await failure(core.createNamespacedConfigMap({ namespace, body: configMap('taken') }));
    expect(status).toMatchObject({
      code: 409,
      reason: 'AlreadyExists',
      message: 'configmaps "taken" already exists',
      details: { name: 'taken', kind: 'configmaps' },
    });
  });

  it('answers 404 NotFound when the namespace does not exist', async () => {
    const status = await failure(
      core.createNamespacedConfigMap({ namespace: 'no-such-namespace', body: configMap('x') }),
    );
    expect(status).toMatchObject({
      code: 404,
      reason: 'NotFound',
      message: 'namespaces "no-such-namespace" not found',
    });
  });

  it('answers 422 Invalid for a name that is not a DNS subdomain', async () => {
    const status = await failure(
      core.createNamespacedConfigMap({ namespace, body: configMap('Upper_Case') }),
    );
    expect(status.code).toBe(422);
    expect(status.reason).toBe('Invalid');
    expect(status.message).toBe(
      `ConfigMap "Upper_Case" is invalid: metadata.name: Invalid value: "Upper_Case": a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')`,
    );
  });

  it('answers 422 when neither name nor generateName is given', async () => {
    const status = await failure(core.createNamespacedConfigMap({ namespace, body: { data: {} } }));
    expect(status).toMatchObject({
      code: 422,
      reason: 'Invalid',
      message: 'ConfigMap "" is invalid: metadata.name: Required value: name or generateName is required',
    });
  });

  it('answers 400 when the body names another namespace', async () => {
    const status = await failure(
      core.createNamespacedConfigMap({
        namespace,
        body: { metadata: { name: 'elsewhere', namespace: 'default' } },
      }),
    );
    expect(status).toMatchObject({
      code: 400,
      reason: 'BadRequest',
      message: 'the namespace of the provided object does not match the namespace sent on the request',
    });
  });
});

describe('get and update', () => {
  it('answers 404 NotFound for a missing object', async () => {
    const status = await failure(core.readNamespacedConfigMap({ name: 'missing', namespace }));
    expect(status).toMatchObject({
      code: 404,
      reason: 'NotFound',
      message: 'configmaps "missing" not found',
      details: { name: 'missing', kind: 'configmaps' },
    });
  });

  it('replaces the object and bumps resourceVersion', async () => {
    const created = await core.createNamespacedConfigMap({
      namespace,
      body: configMap('replaced', { a: '1' }),
    });
    const updated = await core.replaceNamespacedConfigMap({
      name: 'replaced',
      namespace,
      body: { ...created, data: { b: '2' } },
    });
    expect(updated.data).toEqual({ b: '2' });
    expect(Number(updated.metadata?.resourceVersion)).toBeGreaterThan(
      Number(created.metadata?.resourceVersion),
    );
    expect(updated.metadata?.uid).toBe(created.metadata?.uid);
  });

  it('answers 409 Conflict for a stale resourceVersion', async () => {
    const created = await core.createNamespacedConfigMap({ namespace, body: configMap('stale', { a: '1' }) });
    await core.replaceNamespacedConfigMap({
      name: 'stale',
      namespace,
      body: { ...created, data: { a: '2' } },
    });
    const status = await failure(
      core.replaceNamespacedConfigMap({ name: 'stale', namespace, body: { ...created, data: { a: '3' } } }),
    );
    expect(status).toMatchObject({
      code: 409,
      reason: 'Conflict',
      message:
        'Operation cannot be fulfilled on configmaps "stale": the object has been modified; please apply your changes to the latest version and try again',
    });
  });

  it('keeps resourceVersion for an update that changes nothing', async () => {
    const created = await core.createNamespacedConfigMap({
      namespace,
      body: configMap('unchanged', { a: '1' }),
    });
    const updated = await core.replaceNamespacedConfigMap({ name: 'unchanged', namespace, body: created });
    expect(updated.metadata?.resourceVersion).toBe(created.metadata?.resourceVersion);
  });

  it('answers 400 when the body names another object than the URL', async () => {
    await core.createNamespacedConfigMap({ namespace, body: configMap('url-name') });
    const status = await failure(
      core.replaceNamespacedConfigMap({ name: 'url-name', namespace, body: configMap('body-name') }),
    );
    expect(status).toMatchObject({
      code: 400,
      reason: 'BadRequest',
      message: 'the name of the object (body-name) does not match the name on the URL (url-name)',
    });
  });
});

describe('list', () => {
  let listNamespace: string;
  beforeAll(async () => {
    listNamespace = await freshNamespace(target, 'list');
    const labelled: [string, Record<string, string>][] = [
      ['alpha', { tier: 'web', env: 'prod' }],
      ['beta', { tier: 'web', env: 'dev' }],
      ['gamma', { tier: 'db' }],
      ['delta', {}],
    ];
    for (const [name, labels] of labelled)
      await core.createNamespacedConfigMap({ namespace: listNamespace, body: configMap(name, {}, labels) });
  });

  async function names(labelSelector?: string, fieldSelector?: string): Promise<string[]> {
    const list = await core.listNamespacedConfigMap({
      namespace: listNamespace,
      labelSelector,
      fieldSelector,
    });
    return list.items.map((item) => item.metadata?.name ?? '').filter((name) => name !== 'kube-root-ca.crt');
  }

  // Typed objects lose their TypeMeta when decoded into a list; custom resources are stored unstructured
  // and keep it. A client that reads an item's kind from a built-in list must not find it here either.
  it('leaves apiVersion and kind out of built-in list items, and keeps them in custom resource list items', async () => {
    const configMaps = await rawRequest(target, 'GET', `/api/v1/namespaces/${listNamespace}/configmaps`);
    const builtin = configMaps.json as { apiVersion: string; kind: string; items: Record<string, unknown>[] };
    expect([builtin.apiVersion, builtin.kind]).toEqual(['v1', 'ConfigMapList']);
    expect(builtin.items.length).toBeGreaterThanOrEqual(4);
    for (const item of builtin.items) expect([item.apiVersion, item.kind]).toEqual([undefined, undefined]);

    const group = `${uniqueName('lists')}.example.com`;
    await installEstablished(
      target,
      namespacedCrd(group, { plural: 'widgets', kind: 'Widget' }, { type: 'object' }),
    );
    const path = `/apis/${group}/v1/namespaces/${listNamespace}/widgets`;
    await createRaw(target, path, { apiVersion: `${group}/v1`, kind: 'Widget', metadata: { name: 'one' } });
    const widgets = (await rawRequest(target, 'GET', path)).json as {
      kind: string;
      items: Record<string, unknown>[];
    };
    expect(widgets.kind).toBe('WidgetList');
    expect(widgets.items.map((item) => [item.apiVersion, item.kind])).toEqual([[`${group}/v1`, 'Widget']]);
  });

  it('lists in name order with the store resourceVersion', async () => {
    const list = await core.listNamespacedConfigMap({ namespace: listNamespace });
    expect(list.metadata?.resourceVersion).toMatch(/^\d+$/);
    expect(await names()).toEqual(['alpha', 'beta', 'delta', 'gamma']);
  });

  it.each([
    ['tier=web', ['alpha', 'beta']],
    ['tier==web', ['alpha', 'beta']],
    ['tier!=web', ['delta', 'gamma']],
    ['env in (prod,dev)', ['alpha', 'beta']],
    ['env notin (prod)', ['beta', 'delta', 'gamma']],
    ['env', ['alpha', 'beta']],
    ['!env', ['delta', 'gamma']],
    ['tier=web,env=dev', ['beta']],
  ])('filters by labelSelector %s', async (selector, expected) => {
    expect(await names(selector)).toEqual(expected);
  });

  it('filters by fieldSelector metadata.name', async () => {
    expect(await names(undefined, 'metadata.name=gamma')).toEqual(['gamma']);
    expect(await names(undefined, 'metadata.name!=gamma')).toEqual(['alpha', 'beta', 'delta']);
  });

  it('filters by fieldSelector metadata.namespace across namespaces', async () => {
    const list = await core.listConfigMapForAllNamespaces({
      fieldSelector: `metadata.namespace=${listNamespace}`,
      labelSelector: 'tier',
    });
    expect(list.items.map((item) => item.metadata?.name)).toEqual(['alpha', 'beta', 'gamma']);
  });

  it('pages with limit and continue', async () => {
    const first = await core.listNamespacedConfigMap({
      namespace: listNamespace,
      limit: 2,
      labelSelector: 'tier',
    });
    expect(first.items.map((item) => item.metadata?.name)).toEqual(['alpha', 'beta']);
    expect(first.metadata?._continue).toEqual(expect.any(String));
    const second = await core.listNamespacedConfigMap({
      namespace: listNamespace,
      limit: 2,
      labelSelector: 'tier',
      _continue: first.metadata?._continue,
    });
    expect(second.items.map((item) => item.metadata?.name)).toEqual(['gamma']);
    expect(second.metadata?._continue).toBeUndefined();
  });
});

describe('patch', () => {
  it('applies a JSON patch', async () => {
    await core.createNamespacedConfigMap({ namespace, body: configMap('json-patched', { a: '1' }) });
    const patched = await core.patchNamespacedConfigMap({
      name: 'json-patched',
      namespace,
      body: [{ op: 'add', path: '/data/b', value: '2' }],
    });
    expect(patched.data).toEqual({ a: '1', b: '2' });
  });

  it('applies a merge patch (null deletes)', async () => {
    await core.createNamespacedConfigMap({ namespace, body: configMap('merge-patched', { a: '1', b: '2' }) });
    const patched = await core.patchNamespacedConfigMap(
      { name: 'merge-patched', namespace, body: { data: { a: null, c: '3' } } },
      setHeaderOptions('Content-Type', PatchStrategy.MergePatch),
    );
    expect(patched.data).toEqual({ b: '2', c: '3' });
  });

  it('applies a strategic merge patch to a built-in type', async () => {
    await core.createNamespacedConfigMap({ namespace, body: configMap('smp', { a: '1' }) });
    const patched = await core.patchNamespacedConfigMap(
      { name: 'smp', namespace, body: { data: { b: '2' } } },
      setHeaderOptions('Content-Type', PatchStrategy.StrategicMergePatch),
    );
    expect(patched.data).toEqual({ a: '1', b: '2' });
  });

  it('answers 409 for a merge patch carrying a stale resourceVersion', async () => {
    const created = await core.createNamespacedConfigMap({
      namespace,
      body: configMap('patch-stale', { a: '1' }),
    });
    await core.patchNamespacedConfigMap(
      { name: 'patch-stale', namespace, body: { data: { a: '2' } } },
      setHeaderOptions('Content-Type', PatchStrategy.MergePatch),
    );
    const status = await failure(
      core.patchNamespacedConfigMap(
        {
          name: 'patch-stale',
          namespace,
          body: { metadata: { resourceVersion: created.metadata?.resourceVersion }, data: { a: '3' } },
        },
        setHeaderOptions('Content-Type', PatchStrategy.MergePatch),
      ),
    );
    expect(status).toMatchObject({ code: 409, reason: 'Conflict' });
  });

  it('answers 415 for an unknown patch content type', async () => {
    await core.createNamespacedConfigMap({ namespace, body: configMap('unknown-patch') });
    const reply = await rawRequest(
      target,
      'PATCH',
      `/api/v1/namespaces/${namespace}/configmaps/unknown-patch`,
      { contentType: 'application/x-unknown', text: '{}' },
    );
    expect(reply.status).toBe(415);
    expect(reply.json).toMatchObject({ kind: 'Status', code: 415, reason: 'UnsupportedMediaType' });
  });
});

describe('delete', () => {
  it('deletes and answers a Success Status', async () => {
    const created = await core.createNamespacedConfigMap({ namespace, body: configMap('deleted') });
    const status = await core.deleteNamespacedConfigMap({ name: 'deleted', namespace });
    expect(status).toMatchObject({
      kind: 'Status',
      status: 'Success',
      details: { name: 'deleted', kind: 'configmaps', uid: created.metadata?.uid },
    });
    expect((await failure(core.readNamespacedConfigMap({ name: 'deleted', namespace }))).code).toBe(404);
  });

  it('answers 404 for a missing object', async () => {
    expect(await failure(core.deleteNamespacedConfigMap({ name: 'never-there', namespace }))).toMatchObject({
      code: 404,
      reason: 'NotFound',
    });
  });

  it('answers 409 when a uid precondition does not hold', async () => {
    await core.createNamespacedConfigMap({ namespace, body: configMap('precondition') });
    const status = await failure(
      core.deleteNamespacedConfigMap({
        name: 'precondition',
        namespace,
        body: { preconditions: { uid: 'other-uid' } },
      }),
    );
    expect(status.code).toBe(409);
    expect(status.message).toMatch(
      /^Operation cannot be fulfilled on ConfigMap "precondition": the UID in the precondition \(other-uid\) does not match the UID in record \([0-9a-f-]{36}\)\. The object might have been deleted and then recreated$/,
    );
  });
});

describe('uid in a write (the object the client means)', () => {
  it('answers 409 for a PUT whose metadata.uid is not the stored object’s (a precondition)', async () => {
    const created = await core.createNamespacedConfigMap({ namespace, body: configMap('put-uid') });
    const status = await failure(
      core.replaceNamespacedConfigMap({
        name: 'put-uid',
        namespace,
        body: {
          metadata: { ...created.metadata, uid: 'f0000000-0000-0000-0000-00000000000f' },
          data: { a: '2' },
        },
      }),
    );
    // etcd's storage layer checks it: the message is its StorageError, naming the key.
    expect(status).toMatchObject({
      code: 409,
      reason: 'Conflict',
      message: `Operation cannot be fulfilled on configmaps "put-uid": StorageError: invalid object, Code: 4, Key: /registry/configmaps/${namespace}/put-uid, ResourceVersion: 0, AdditionalErrorMsg: Precondition failed: UID in precondition: f0000000-0000-0000-0000-00000000000f, UID in object meta: ${created.metadata?.uid}`,
      details: { name: 'put-uid', kind: 'configmaps' },
    });
    expect((await core.readNamespacedConfigMap({ name: 'put-uid', namespace })).data?.a).toBeUndefined();
  });

  it('names the etcd key of the type in that 409 (Services live under services/specs)', async () => {
    const created = await core.createNamespacedService({
      namespace,
      body: { metadata: { name: 'put-uid' }, spec: { ports: [{ port: 80 }] } },
    });
    const status = await failure(
      core.replaceNamespacedService({
        name: 'put-uid',
        namespace,
        body: { ...created, metadata: { ...created.metadata, uid: 'f0000000-0000-0000-0000-00000000000f' } },
      }),
    );
    expect(status.message).toBe(
      `Operation cannot be fulfilled on services "put-uid": StorageError: invalid object, Code: 4, Key: /registry/services/specs/${namespace}/put-uid, ResourceVersion: 0, AdditionalErrorMsg: Precondition failed: UID in precondition: f0000000-0000-0000-0000-00000000000f, UID in object meta: ${created.metadata?.uid}`,
    );
  });

  it.each([
    ['a merge patch', 'application/merge-patch+json', ''],
    ['server-side apply', 'application/apply-patch+yaml', '?fieldManager=conformance&force=true'],
  ])('answers 422 for %s that would change metadata.uid (immutable)', async (_, contentType, query) => {
    await core.createNamespacedConfigMap({ namespace, body: configMap('patch-uid', { a: '1' }) });
    const body = {
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: { name: 'patch-uid', uid: 'f0000000-0000-0000-0000-00000000000f' },
      data: { a: '2' },
    };
    const reply = await rawRequest(
      target,
      'PATCH',
      `/api/v1/namespaces/${namespace}/configmaps/patch-uid${query}`,
      {
        contentType,
        text: JSON.stringify(body),
      },
    );
    expect(reply.status).toBe(422);
    expect(reply.json).toMatchObject({
      reason: 'Invalid',
      message:
        'ConfigMap "patch-uid" is invalid: metadata.uid: Invalid value: "f0000000-0000-0000-0000-00000000000f": field is immutable',
    });
    expect((await core.readNamespacedConfigMap({ name: 'patch-uid', namespace })).data).toEqual({ a: '1' });
    await core.deleteNamespacedConfigMap({ name: 'patch-uid', namespace });
  });

  it('answers 409 for a server-side apply naming a uid when no object exists', async () => {
    const body = {
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: { name: 'apply-uid', uid: 'f0000000-0000-0000-0000-00000000000f' },
      data: { a: '1' },
    };
    const reply = await rawRequest(
      target,
      'PATCH',
      `/api/v1/namespaces/${namespace}/configmaps/apply-uid?fieldManager=conformance&force=true`,
      { contentType: 'application/apply-patch+yaml', text: JSON.stringify(body) },
    );
    expect(reply.status).toBe(409);
    expect(reply.json).toMatchObject({
      reason: 'Conflict',
      message:
        'Operation cannot be fulfilled on configmaps "apply-uid": uid mismatch: the provided object specified uid f0000000-0000-0000-0000-00000000000f, and no existing object was found',
    });
    expect((await failure(core.readNamespacedConfigMap({ name: 'apply-uid', namespace }))).code).toBe(404);
  });
});
