/**
 * The scale subresource (kubectl scale, autoscalers) of Deployments, StatefulSets and CRDs that declare
 * subresources.scale.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  connect,
  createRaw,
  CONTROLLER_PATIENCE_MS,
  eventually,
  freshNamespace,
  installEstablished,
  rawRequest,
  uniqueName,
  type Target,
} from './harness.ts';

let target: Target;
let namespace: string;

beforeAll(async () => {
  target = await connect();
  namespace = await freshNamespace(target, 'scale');
});
afterAll(() => target.stop());

type Json = Record<string, unknown> & { metadata: Record<string, string> };

const post = (path: string, object: unknown) => createRaw<Json>(target, path, object);

const template = {
  metadata: { labels: { app: 'web' } },
  spec: { containers: [{ name: 'main', image: 'nginx:1' }] },
};

describe('the scale subresource of built-ins', () => {
  it('shows a Deployment as a Scale and changes its replicas by merge patch', async () => {
    const apps = `/apis/apps/v1/namespaces/${namespace}/deployments`;
    const created = await post(apps, {
      metadata: { name: 'web' },
      spec: { replicas: 2, selector: { matchLabels: { app: 'web' } }, template },
    });
    const scale = await rawRequest(target, 'GET', `${apps}/web/scale`);
    expect(scale.status).toBe(200);
    expect(scale.json).toEqual({
      kind: 'Scale',
      apiVersion: 'autoscaling/v1',
      metadata: {
        name: 'web',
        namespace,
        uid: created.metadata.uid,
        resourceVersion: expect.any(String),
        creationTimestamp: created.metadata.creationTimestamp,
      },
      spec: { replicas: 2 },
      status: { replicas: expect.any(Number), selector: 'app=web' },
    });
    const patched = await rawRequest(target, 'PATCH', `${apps}/web/scale`, {
      contentType: 'application/merge-patch+json',
      text: JSON.stringify({ spec: { replicas: 3 } }),
    });
    expect(patched.status, JSON.stringify(patched.json)).toBe(200);
    expect(patched.json).toMatchObject({ kind: 'Scale', spec: { replicas: 3 } });
    const deployment = (await rawRequest(target, 'GET', `${apps}/web`)).json as {
      metadata: { generation: number; resourceVersion: string };
      spec: { replicas: number };
    };
    expect(deployment.spec.replicas).toBe(3);
    expect(deployment.metadata.generation).toBe(2);
  });

  it('answers 404 for the Scale of a missing Deployment before it validates the Scale', async () => {
    const reply = await rawRequest(
      target,
      'PUT',
      `/apis/apps/v1/namespaces/${namespace}/deployments/missing/scale`,
      {
        contentType: 'application/json',
        text: JSON.stringify({
          apiVersion: 'autoscaling/v1',
          kind: 'Scale',
          metadata: { name: 'missing' },
          spec: { replicas: -2 },
        }),
      },
    );
    expect(reply).toMatchObject({
      status: 404,
      json: { reason: 'NotFound', message: 'deployments.apps "missing" not found' },
    });
  });

  it('writes no spec.replicas at 0 (omitempty in autoscaling/v1)', async () => {
    const apps = `/apis/apps/v1/namespaces/${namespace}/deployments`;
    await post(apps, {
      metadata: { name: 'idle' },
      spec: { replicas: 0, selector: { matchLabels: { app: 'web' } }, template },
    });
    const scale = await rawRequest(target, 'GET', `${apps}/idle/scale`);
    expect((scale.json as { spec: unknown }).spec).toEqual({});
  });

  it('refuses a stale resourceVersion (409) and negative replicas (422), and scales a StatefulSet by PUT', async () => {
    const apps = `/apis/apps/v1/namespaces/${namespace}`;
    await post(`${apps}/statefulsets`, {
      metadata: { name: 'db' },
      spec: { replicas: 1, serviceName: 'db', selector: { matchLabels: { app: 'web' } }, template },
    });
    const scale = (await rawRequest(target, 'GET', `${apps}/statefulsets/db/scale`)).json as Json & {
      spec: { replicas: number };
    };
    expect(scale.spec.replicas).toBe(1);
    const put = (body: unknown) =>
      rawRequest(target, 'PUT', `${apps}/statefulsets/db/scale`, {
        contentType: 'application/json',
        text: JSON.stringify(body),
      });
    const stale = await put({
      ...scale,
      metadata: { ...scale.metadata, resourceVersion: '1' },
      spec: { replicas: 2 },
    });
    expect(stale).toMatchObject({
      status: 409,
      json: {
        reason: 'Conflict',
        message:
          'Operation cannot be fulfilled on statefulsets.apps "db": the object has been modified; please apply your changes to the latest version and try again',
      },
    });
    const negative = await put({ ...scale, spec: { replicas: -1 } });
    expect(negative).toMatchObject({
      status: 422,
      json: {
        reason: 'Invalid',
        message:
          'Scale.autoscaling "db" is invalid: spec.replicas: Invalid value: -1: must be greater than or equal to 0',
        details: { name: 'db', group: 'autoscaling', kind: 'Scale' },
      },
    });
    // The real StatefulSet controller writes status meanwhile: PUT the Scale read last, again on a conflict.
    const scaled = await eventually(async () => {
      const fresh = (await rawRequest(target, 'GET', `${apps}/statefulsets/db/scale`)).json as Json;
      const reply = await put({ ...fresh, spec: { replicas: 4 } });
      return reply.status === 409 ? undefined : reply;
    }, CONTROLLER_PATIENCE_MS);
    expect(scaled).toMatchObject({ status: 200, json: { spec: { replicas: 4 } } });
    const statefulSet = (await rawRequest(target, 'GET', `${apps}/statefulsets/db`)).json as {
      spec: { replicas: number };
    };
    expect(statefulSet.spec.replicas).toBe(4);
  });
});

describe('the scale subresource of custom resources', () => {
  it('reads and writes the paths the CRD names, and is not served without subresources.scale', async () => {
    const group = `${uniqueName('scale')}.example.com`;
    await installEstablished(target, {
      metadata: { name: `pools.${group}` },
      spec: {
        group,
        scope: 'Namespaced',
        names: { plural: 'pools', kind: 'Pool' },
        versions: [
          {
            name: 'v1',
            served: true,
            storage: true,
            subresources: {
              status: {},
              scale: {
                specReplicasPath: '.spec.size',
                statusReplicasPath: '.status.size',
                labelSelectorPath: '.status.selector',
              },
            },
            schema: { openAPIV3Schema: { type: 'object', x_kubernetes_preserve_unknown_fields: true } },
          },
        ],
      },
    });
    const pools = `/apis/${group}/v1/namespaces/${namespace}/pools`;
    await post(pools, {
      apiVersion: `${group}/v1`,
      kind: 'Pool',
      metadata: { name: 'p' },
      spec: { size: 2 },
    });
    const current = (await rawRequest(target, 'GET', `${pools}/p`)).json as Json;
    const status = await rawRequest(target, 'PUT', `${pools}/p/status`, {
      contentType: 'application/json',
      text: JSON.stringify({ ...current, status: { size: 1, selector: 'app=pool' } }),
    });
    expect(status.status, JSON.stringify(status.json)).toBe(200);
    const scale = await rawRequest(target, 'GET', `${pools}/p/scale`);
    expect(scale.json).toMatchObject({
      kind: 'Scale',
      apiVersion: 'autoscaling/v1',
      spec: { replicas: 2 },
      status: { replicas: 1, selector: 'app=pool' },
    });
    const patched = await rawRequest(target, 'PATCH', `${pools}/p/scale`, {
      contentType: 'application/merge-patch+json',
      text: JSON.stringify({ spec: { replicas: 5 } }),
    });
    expect(patched.status, JSON.stringify(patched.json)).toBe(200);
    expect(
      ((await rawRequest(target, 'GET', `${pools}/p`)).json as { spec: { size: number } }).spec.size,
    ).toBe(5);
    const discovered = (await rawRequest(target, 'GET', `/apis/${group}/v1`)).json as {
      resources: { name: string }[];
    };
    expect(discovered.resources).toContainEqual({
      name: 'pools/scale',
      singularName: '',
      namespaced: true,
      group: 'autoscaling',
      version: 'v1',
      kind: 'Scale',
      verbs: ['get', 'patch', 'update'],
    });
    const namespaces = await rawRequest(
      target,
      'GET',
      `/api/v1/namespaces/${namespace}/configmaps/none/scale`,
    );
    expect(namespaces.status).toBe(404);
  });
});
