/**
 * Built-in bodies decoded as kube-apiserver's Go decoder reads them: a JSON value of the wrong type is
 * a 400, fields the type does not declare are dropped and reported by `fieldValidation` (Strict: 400,
 * Warn, the default: `Warning` headers, Ignore: silently); server-side apply refuses them always.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  connect,
  freshNamespace,
  installEstablished,
  namespacedCrd,
  rawResponse,
  uniqueName,
  type Target,
} from './harness.ts';

let target: Target;
let namespace: string;

beforeAll(async () => {
  target = await connect();
  namespace = await freshNamespace(target, 'decode');
});
afterAll(() => target.stop());

function post(resource: string, object: unknown, query = '') {
  return rawResponse(target, 'POST', `${resource}${query}`, {
    contentType: 'application/json',
    text: JSON.stringify(object),
  });
}

const configMaps = () => `/api/v1/namespaces/${namespace}/configmaps`;
const deployments = () => `/apis/apps/v1/namespaces/${namespace}/deployments`;

function deployment(name: string, spec: Record<string, unknown>, template: Record<string, unknown> = {}) {
  return {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name },
    spec: {
      selector: { matchLabels: { a: 'b' } },
      template: {
        metadata: { labels: { a: 'b' } },
        spec: { containers: [{ name: 'm', image: 'example.com/m:1', ...template }] },
      },
      ...spec,
    },
  };
}

describe('types', () => {
  it('answers 400 with Go’s decoding error for a value of the wrong JSON type', async () => {
    const configMap = await post(configMaps(), { metadata: { name: 'numeric' }, data: { a: 1 } });
    expect(configMap).toMatchObject({
      status: 400,
      json: {
        reason: 'BadRequest',
        message:
          'ConfigMap in version "v1" cannot be handled as a ConfigMap: json: cannot unmarshal number into Go struct field ConfigMap.data of type string',
      },
    });
    const replicas = await post(deployments(), deployment('replicas', { replicas: '2' }));
    expect((replicas.json as { message: string }).message).toBe(
      'Deployment in version "v1" cannot be handled as a Deployment: json: cannot unmarshal string into Go struct field DeploymentSpec.spec.replicas of type int32',
    );
    const image = await post(deployments(), deployment('image', {}, { image: 5 }));
    expect((image.json as { message: string }).message).toBe(
      'Deployment in version "v1" cannot be handled as a Deployment: json: cannot unmarshal number into Go struct field Container.spec.template.spec.containers.image of type string',
    );
  });
});

describe('unknown fields', () => {
  const withUnknown = (name: string) =>
    deployment(name, { bar: 2 }, { ports: [{ containerPort: 80, foo: 1 }] });

  it('are refused with fieldValidation=Strict, naming each', async () => {
    const reply = await post(deployments(), withUnknown('strict'), '?fieldValidation=Strict');
    expect(reply).toMatchObject({
      status: 400,
      json: {
        reason: 'BadRequest',
        message:
          'Deployment in version "v1" cannot be handled as a Deployment: strict decoding error: unknown field "spec.template.spec.containers[0].ports[0].foo", unknown field "spec.bar"',
      },
    });
  });

  it('are dropped with a Warning header each by default (Warn)', async () => {
    const reply = await post(deployments(), withUnknown('warned'));
    expect(reply.status).toBe(201);
    expect(reply.headers.warning).toBe(
      '299 - "unknown field \\"spec.template.spec.containers[0].ports[0].foo\\"", 299 - "unknown field \\"spec.bar\\""',
    );
    const spec = (
      reply.json as { spec: { bar?: unknown; template: { spec: { containers: { ports: unknown }[] } } } }
    ).spec;
    expect(spec.bar).toBeUndefined();
    expect(spec.template.spec.containers[0]?.ports).toEqual([{ containerPort: 80, protocol: 'TCP' }]);
  });

  it('are dropped silently with fieldValidation=Ignore', async () => {
    const reply = await post(
      configMaps(),
      { metadata: { name: 'ignored', bogus: 1 }, extra: 1 },
      '?fieldValidation=Ignore',
    );
    expect(reply.status).toBe(201);
    expect(reply.headers.warning).toBeUndefined();
    expect(reply.json).not.toHaveProperty('extra');
    expect((reply.json as { metadata: object }).metadata).not.toHaveProperty('bogus');
  });

  it('fail a server-side apply whatever fieldValidation says', async () => {
    const name = uniqueName('applied');
    const reply = await rawResponse(
      target,
      'PATCH',
      `${configMaps()}/${name}?fieldManager=conformance&fieldValidation=Ignore`,
      {
        contentType: 'application/apply-patch+yaml',
        text: JSON.stringify({
          apiVersion: 'v1',
          kind: 'ConfigMap',
          metadata: { name },
          data: { a: 'b' },
          extra: 1,
        }),
      },
    );
    expect({ status: reply.status, json: reply.json }).toEqual({
      status: 500,
      json: {
        kind: 'Status',
        apiVersion: 'v1',
        metadata: {},
        status: 'Failure',
        // The object as the configuration names it: this one has no namespace.
        message: `failed to create typed patch object (/${name}; /v1, Kind=ConfigMap): .extra: field not declared in schema`,
        code: 500,
      },
    });
  });
});

describe('unknown fields of custom resources', () => {
  const group = `${uniqueName('fields')}.example.com`;
  beforeAll(() =>
    installEstablished(
      target,
      namespacedCrd(
        group,
        { plural: 'gizmos', kind: 'Gizmo' },
        {
          type: 'object',
          properties: { spec: { type: 'object', properties: { size: { type: 'integer' } } } },
        },
      ),
    ),
  );
  const gizmo = (name: string) => ({
    apiVersion: `${group}/v1`,
    kind: 'Gizmo',
    metadata: { name, bogus: 1 },
    spec: { size: 1, extra: { deep: 1 } },
    top: 2,
  });
  const gizmos = () => `/apis/${group}/v1/namespaces/${namespace}/gizmos`;

  it('are named (the outermost pruned key) in the Strict error and in warnings, and dropped', async () => {
    const strict = await post(gizmos(), gizmo('strict'), '?fieldValidation=Strict');
    expect(strict).toMatchObject({
      status: 400,
      json: {
        message:
          'Gizmo in version "v1" cannot be handled as a Gizmo: strict decoding error: unknown field "metadata.bogus", unknown field "spec.extra", unknown field "top"',
      },
    });
    const warned = await post(gizmos(), gizmo('warned'));
    expect(warned.status).toBe(201);
    expect(warned.headers.warning).toBe(
      '299 - "unknown field \\"metadata.bogus\\"", 299 - "unknown field \\"spec.extra\\"", 299 - "unknown field \\"top\\""',
    );
    expect((warned.json as { spec: unknown }).spec).toEqual({ size: 1 });
    expect((warned.json as { metadata: object }).metadata).not.toHaveProperty('bogus');
  });
});
