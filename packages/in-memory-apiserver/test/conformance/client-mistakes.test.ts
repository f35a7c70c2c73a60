/**
 * Requests with client mistakes that the in-memory server once answered otherwise than kube-apiserver
 * (found by sending the same raw requests to both): a resourceVersion on create, env names, Secret data
 * that is not base64, and a DELETE whose body has no length.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connect, freshNamespace, nodeRequest, rawRequest, type Target } from './harness.ts';

let target: Target;
let namespace: string;

beforeAll(async () => {
  target = await connect();
  namespace = await freshNamespace(target, 'mistakes');
});
afterAll(() => target.stop());

function post(path: string, object: unknown) {
  return rawRequest(target, 'POST', path, { contentType: 'application/json', text: JSON.stringify(object) });
}

const STORAGE_REFUSES_VERSION = {
  kind: 'Status',
  apiVersion: 'v1',
  metadata: {},
  status: 'Failure',
  message: 'resourceVersion should not be set on objects to be created',
  code: 500,
};

describe('a create whose body carries metadata.resourceVersion', () => {
  it('is refused by the storage with a 500, whether the name is free or taken', async () => {
    const configMaps = `/api/v1/namespaces/${namespace}/configmaps`;
    const fresh = await post(configMaps, { metadata: { name: 'versioned', resourceVersion: '12345' } });
    expect(fresh).toEqual({ status: 500, json: STORAGE_REFUSES_VERSION });
    await post(configMaps, { metadata: { name: 'taken' } });
    const taken = await post(configMaps, { metadata: { name: 'taken', resourceVersion: '1' } });
    expect(taken).toEqual({ status: 500, json: STORAGE_REFUSES_VERSION });
  });

  it('goes through when the version is 0 or not a number, and is validated first', async () => {
    const configMaps = `/api/v1/namespaces/${namespace}/configmaps`;
    const zero = await post(configMaps, { metadata: { name: 'zero', resourceVersion: '0' } });
    const word = await post(configMaps, { metadata: { name: 'word', resourceVersion: 'abc' } });
    expect([zero.status, word.status]).toEqual([201, 201]);
    const invalid = await post(configMaps, { metadata: { name: 'Invalid_', resourceVersion: '7' } });
    expect(invalid.status).toBe(422);
  });

  it('is created by a dry run, which never reaches the storage', async () => {
    const reply = await post(`/api/v1/namespaces/${namespace}/configmaps?dryRun=All`, {
      metadata: { name: 'dry', resourceVersion: '12345' },
    });
    expect(reply.status).toBe(201);
  });
});

const RELAXED =
  "a valid environment variable name must consist only of printable ASCII characters other than '='";

function deploymentWithEnv(name: string, env: unknown[]) {
  return {
    metadata: { name },
    spec: {
      selector: { matchLabels: { app: name } },
      template: {
        metadata: { labels: { app: name } },
        spec: { containers: [{ name: 'main', image: 'example.com/app:1', env }] },
      },
    },
  };
}

describe('env var names of a pod template', () => {
  const deployments = () => `/apis/apps/v1/namespaces/${namespace}/deployments`;

  it('take printable ASCII but "=" (the relaxed rule of kube 1.34)', async () => {
    const reply = await post(
      deployments(),
      deploymentWithEnv('relaxed', [
        { name: '1st.var-name with space', value: 'a' },
        { name: 'spec.some[0].path~!', value: 'b' },
      ]),
    );
    expect(reply.status).toBe(201);
  });

  it('refuse "=", non-ASCII and control characters with a 422', async () => {
    const reply = await post(
      deployments(),
      deploymentWithEnv('bad-env', [
        { name: 'MY=VAR', value: 'a' },
        { name: 'Äpfel', value: 'b' },
        { name: 'tab\there', value: 'c' },
        { name: '', value: 'd' },
      ]),
    );
    const env = 'spec.template.spec.containers[0].env';
    expect(reply).toMatchObject({
      status: 422,
      json: {
        reason: 'Invalid',
        message: `Deployment.apps "bad-env" is invalid: [${env}[0].name: Invalid value: "MY=VAR": ${RELAXED}, ${env}[1].name: Invalid value: "Äpfel": ${RELAXED}, ${env}[2].name: Invalid value: "tab\\there": ${RELAXED}, ${env}[3].name: Required value]`,
      },
    });
  });
});

describe('Secret data', () => {
  it('that is not base64 is a 400 with Go’s base64 error', async () => {
    const reply = await post(`/api/v1/namespaces/${namespace}/secrets`, {
      metadata: { name: 'not-base64' },
      data: { key: 'not base64' },
    });
    expect(reply).toMatchObject({
      status: 400,
      json: {
        reason: 'BadRequest',
        message: 'Secret in version "v1" cannot be handled as a Secret: illegal base64 data at input byte 3',
      },
    });
  });

  it('takes base64 with line breaks, as Go’s decoder skips them', async () => {
    const reply = await post(`/api/v1/namespaces/${namespace}/secrets`, {
      metadata: { name: 'wrapped' },
      data: { key: 'aGVs\nbG8=' },
    });
    expect(reply.status).toBe(201);
  });
});

describe('a DELETE with a body', () => {
  const body = JSON.stringify({
    apiVersion: 'v1',
    kind: 'DeleteOptions',
    preconditions: { uid: '00000000-0000-0000-0000-000000000000' },
  });

  it('sent without a length (Node writes no Content-Length) deletes: the body is not read', async () => {
    await post(`/api/v1/namespaces/${namespace}/configmaps`, { metadata: { name: 'unread' } });
    const path = `/api/v1/namespaces/${namespace}/configmaps/unread`;
    const reply = await nodeRequest(target, 'DELETE', path, body, false);
    expect(reply).toMatchObject({ status: 200, json: { kind: 'Status', status: 'Success' } });
    expect((await rawRequest(target, 'GET', path)).status).toBe(404);
  });

  it('sent with a Content-Length is read: a uid precondition that fails is a 409', async () => {
    await post(`/api/v1/namespaces/${namespace}/configmaps`, { metadata: { name: 'read' } });
    const path = `/api/v1/namespaces/${namespace}/configmaps/read`;
    const reply = await nodeRequest(target, 'DELETE', path, body, true);
    expect(reply).toMatchObject({ status: 409, json: { reason: 'Conflict' } });
    expect((await rawRequest(target, 'GET', path)).status).toBe(200);
  });
});

describe('a server-side apply whose configuration carries managedFields', () => {
  it('is a 400, even with an empty list: the field manager owns them', async () => {
    for (const managedFields of [[], [{ manager: 'someone', operation: 'Update', apiVersion: 'v1' }]]) {
      const reply = await rawRequest(
        target,
        'PATCH',
        `/api/v1/namespaces/${namespace}/configmaps/applied?fieldManager=conformance`,
        {
          contentType: 'application/apply-patch+yaml',
          text: JSON.stringify({
            apiVersion: 'v1',
            kind: 'ConfigMap',
            metadata: { name: 'applied', managedFields },
          }),
        },
      );
      expect(reply).toEqual({
        status: 400,
        json: {
          kind: 'Status',
          apiVersion: 'v1',
          metadata: {},
          status: 'Failure',
          message: 'metadata.managedFields must be nil',
          reason: 'BadRequest',
          code: 400,
        },
      });
    }
  });
});

describe('a write that sets metadata.deletionTimestamp', () => {
  it('is a 422 (immutable, reported twice in the causes) by update and by patch; the object is not deleted', async () => {
    const path = `/api/v1/namespaces/${namespace}/configmaps/undying`;
    const created = (
      await post(`/api/v1/namespaces/${namespace}/configmaps`, { metadata: { name: 'undying' } })
    ).json as { metadata: Record<string, unknown> };
    const cause = {
      reason: 'FieldValueInvalid',
      message: 'Invalid value: "2020-01-01T00:00:00Z": field is immutable',
      field: 'metadata.deletionTimestamp',
    };
    const expected = {
      status: 422,
      json: expect.objectContaining({
        message:
          'ConfigMap "undying" is invalid: metadata.deletionTimestamp: Invalid value: "2020-01-01T00:00:00Z": field is immutable',
        details: { name: 'undying', kind: 'ConfigMap', causes: [cause, cause] },
      }),
    };
    const put = await rawRequest(target, 'PUT', path, {
      contentType: 'application/json',
      text: JSON.stringify({ metadata: { ...created.metadata, deletionTimestamp: '2020-01-01T00:00:00Z' } }),
    });
    expect(put).toEqual(expected);
    const patched = await rawRequest(target, 'PATCH', path, {
      contentType: 'application/merge-patch+json',
      text: JSON.stringify({ metadata: { deletionTimestamp: '2020-01-01T00:00:00Z' } }),
    });
    expect(patched).toEqual(expected);
    const read = (await rawRequest(target, 'GET', path)).json as { metadata: Record<string, unknown> };
    expect(read.metadata.deletionTimestamp).toBeUndefined();
  });
});

describe('a JSON patch that does not apply', () => {
  it('is a generic 422 without the reason (a test that fails, a path that is not there)', async () => {
    await post(`/api/v1/namespaces/${namespace}/configmaps`, { metadata: { name: 'json-patched' } });
    for (const operation of [
      { op: 'test', path: '/metadata/name', value: 'other' },
      { op: 'remove', path: '/metadata/labels/absent' },
    ]) {
      const reply = await rawRequest(
        target,
        'PATCH',
        `/api/v1/namespaces/${namespace}/configmaps/json-patched`,
        {
          contentType: 'application/json-patch+json',
          text: JSON.stringify([operation]),
        },
      );
      expect(reply).toEqual({
        status: 422,
        json: {
          kind: 'Status',
          apiVersion: 'v1',
          metadata: {},
          status: 'Failure',
          message: 'the server rejected our request due to an error in our request',
          reason: 'Invalid',
          details: {},
          code: 422,
        },
      });
    }
  });
});

describe('a /status write of a Deployment', () => {
  it('takes the metadata it sends but the labels (a finalizer left out is removed), not the spec', async () => {
    const apps = `/apis/apps/v1/namespaces/${namespace}/deployments`;
    const labels = { app: 'status-write' };
    const created = (
      await post(apps, {
        metadata: { name: 'status-write', labels, finalizers: ['example.com/hold'] },
        spec: {
          replicas: 0,
          selector: { matchLabels: labels },
          template: {
            metadata: { labels },
            spec: { containers: [{ name: 'main', image: 'example.com/app:1' }] },
          },
        },
      })
    ).json as { metadata: { resourceVersion: string; generation: number }; spec: { replicas: number } };
    const reply = await rawRequest(target, 'PUT', `${apps}/status-write/status`, {
      contentType: 'application/json',
      text: JSON.stringify({
        metadata: { name: 'status-write', annotations: { note: 'x' } },
        spec: { ...created.spec, replicas: 3 },
        status: {},
      }),
    });
    expect(reply.status).toBe(200);
    const written = reply.json as {
      metadata: {
        labels?: unknown;
        annotations?: Record<string, string>;
        finalizers?: unknown;
        generation: number;
      };
      spec: { replicas: number };
    };
    expect(written.metadata.labels).toEqual(labels);
    expect(written.metadata.annotations?.note).toBe('x');
    expect(written.metadata.finalizers).toBeUndefined();
    expect(written.spec.replicas).toBe(0);
    expect(written.metadata.generation).toBe(created.metadata.generation);
  });
});

describe('a merge patch whose result the decoder refuses (Secret data that is not base64)', () => {
  it('is a 422 for the field "patch" quoting the patched object (managedFields in it differ: listed)', async () => {
    await post(`/api/v1/namespaces/${namespace}/secrets`, { metadata: { name: 'patched-secret' } });
    const reply = await rawRequest(
      target,
      'PATCH',
      `/api/v1/namespaces/${namespace}/secrets/patched-secret`,
      {
        contentType: 'application/merge-patch+json',
        text: JSON.stringify({ data: { key: 'not base64' } }),
      },
    );
    const json = reply.json as {
      message: string;
      reason: string;
      details: { causes: { field: string; reason: string }[] };
    };
    expect([reply.status, json.reason]).toEqual([422, 'Invalid']);
    expect(json.message).toMatch(
      /^ "" is invalid: patch: Invalid value: "\{\\"apiVersion\\":\\"v1\\",\\"data\\":\{\\"key\\":\\"not base64\\"\},\\"kind\\":\\"Secret\\",\\"metadata\\":/,
    );
    expect(json.message).toMatch(/": illegal base64 data at input byte 3$/);
    expect(json.details.causes.map((cause) => [cause.field, cause.reason])).toEqual([
      ['patch', 'FieldValueInvalid'],
    ]);
  });
});

describe('a server-side apply whose object the decoder refuses (Secret data that is not base64)', () => {
  it('is the field manager’s 500 without reason, whether it creates or updates', async () => {
    for (const name of ['applied-secret', 'applied-secret']) {
      const reply = await rawRequest(
        target,
        'PATCH',
        `/api/v1/namespaces/${namespace}/secrets/${name}?fieldManager=conformance`,
        {
          contentType: 'application/apply-patch+yaml',
          text: JSON.stringify({
            apiVersion: 'v1',
            kind: 'Secret',
            metadata: { name },
            data: { key: 'not base64' },
          }),
        },
      );
      expect(reply).toEqual({
        status: 500,
        json: {
          kind: 'Status',
          apiVersion: 'v1',
          metadata: {},
          status: 'Failure',
          message: `failed to convert new object (/${name}; /v1, Kind=Secret) to proper version: unable to convert unstructured object to /v1, Kind=Secret: error decoding from json: illegal base64 data at input byte 3`,
          code: 500,
        },
      });
      await post(`/api/v1/namespaces/${namespace}/secrets`, { metadata: { name } });
    }
  });
});

describe('an update that removes the last finalizer of an object being deleted', () => {
  it('answers the object as written, without the finalizer, and the object is gone', async () => {
    const path = `/api/v1/namespaces/${namespace}/secrets/held`;
    await post(`/api/v1/namespaces/${namespace}/secrets`, {
      metadata: { name: 'held', finalizers: ['example.com/hold'] },
    });
    await rawRequest(target, 'DELETE', path);
    const current = (await rawRequest(target, 'GET', path)).json as { metadata: Record<string, unknown> };
    const { finalizers: _held, ...metadata } = current.metadata;
    const reply = await rawRequest(target, 'PUT', path, {
      contentType: 'application/json',
      text: JSON.stringify({ metadata }),
    });
    expect(reply.status).toBe(200);
    expect((reply.json as { metadata: Record<string, unknown> }).metadata.finalizers).toBeUndefined();
    expect((await rawRequest(target, 'GET', path)).status).toBe(404);
  });
});

describe('a create of a name held by an object being deleted', () => {
  it('is a 409 AlreadyExists that says the object is being deleted', async () => {
    const secrets = `/api/v1/namespaces/${namespace}/secrets`;
    await post(secrets, { metadata: { name: 'going', finalizers: ['example.com/hold'] } });
    await rawRequest(target, 'DELETE', `${secrets}/going`);
    const reply = await post(secrets, { metadata: { name: 'going' } });
    expect(reply).toMatchObject({
      status: 409,
      json: { reason: 'AlreadyExists', message: 'object is being deleted: secrets "going" already exists' },
    });
    await rawRequest(target, 'PATCH', `${secrets}/going`, {
      contentType: 'application/merge-patch+json',
      text: JSON.stringify({ metadata: { finalizers: null } }),
    });
  });
});
