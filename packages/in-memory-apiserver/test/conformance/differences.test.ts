/**
 * The known differences between the in-memory server and kube-apiserver (see the package README), each
 * shown by asserting what either server answers, so that the list cannot go stale silently: a difference
 * that goes away makes its test fail on the in-memory server.
 */
import { AppsV1Api, CoreV1Api, KubeConfig } from '@kubernetes/client-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  connect,
  CONTROLLER_PATIENCE_MS,
  eventually,
  freshNamespace,
  rawRequest,
  type Target,
} from './harness.ts';

let target: Target;
let core: CoreV1Api;
let namespace: string;

beforeAll(async () => {
  target = await connect();
  core = target.kubeConfig.makeApiClient(CoreV1Api);
  namespace = await freshNamespace(target, 'differs');
});
afterAll(() => target.stop());

function post(path: string, object: unknown): Promise<{ status: number; json: unknown }> {
  return rawRequest(target, 'POST', path, { contentType: 'application/json', text: JSON.stringify(object) });
}

function apply(name: string, manager: string, data: Record<string, string>) {
  return rawRequest(
    target,
    'PATCH',
    `/api/v1/namespaces/${namespace}/configmaps/${name}?fieldManager=${manager}`,
    {
      contentType: 'application/apply-patch+yaml',
      text: JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name }, data }),
    },
  );
}

describe('error messages', () => {
  it('differs: a built-in body of another kind or version is a 400 whose message is not the Go scheme’s', async () => {
    const configMaps = `/api/v1/namespaces/${namespace}/configmaps`;
    const secret = await post(configMaps, { apiVersion: 'v1', kind: 'Secret', metadata: { name: 'k1' } });
    const appsV1 = await post(configMaps, {
      apiVersion: 'apps/v1',
      kind: 'ConfigMap',
      metadata: { name: 'k2' },
    });
    expect([secret.status, appsV1.status]).toEqual([400, 400]);
    const messages = [secret, appsV1].map((reply) => (reply.json as { message: string }).message);
    expect(messages).toEqual(
      target.server
        ? [
            'the kind in the data (Secret) does not match the expected kind (ConfigMap)',
            'the API version in the data (apps/v1) does not match the expected API version (v1)',
          ]
        : [
            'Secret in version "v1" cannot be handled as a ConfigMap: converting (v1.Secret) to (core.ConfigMap): unknown conversion',
            'ConfigMap in version "v1" cannot be handled as a ConfigMap: no kind "ConfigMap" is registered for version "apps/v1" in scheme "pkg/runtime/scheme.go:110"',
          ],
    );
  });

  it('differs: malformed YAML is a 400 worded by another YAML parser', async () => {
    const reply = await rawRequest(
      target,
      'PATCH',
      `/api/v1/namespaces/${namespace}/configmaps/malformed?fieldManager=conformance`,
      { contentType: 'application/apply-patch+yaml', text: 'not: [valid' },
    );
    expect(reply.status).toBe(400);
    expect((reply.json as { message: string }).message).toBe(
      target.server
        ? 'error decoding YAML: Flow sequence in block collection must be sufficiently indented and end with a ] at line 1, column 12:\n\nnot: [valid\n           ^\n'
        : "error decoding YAML: error converting YAML to JSON: yaml: line 1: did not find expected ',' or ']'",
    );
  });
});

describe('server-side apply', () => {
  it('differs: no managedFields entries for applies, and a patch without fieldManager owns nothing', async () => {
    const first = await apply('owned', 'alpha', { a: '1' });
    expect(first.status).toBe(201);
    const edited = await rawRequest(target, 'PATCH', `/api/v1/namespaces/${namespace}/configmaps/owned`, {
      contentType: 'application/merge-patch+json',
      text: JSON.stringify({ data: { a: '3' } }),
    });
    expect(edited.status).toBe(200);
    const again = await apply('owned', 'alpha', { a: '1' });
    const stored = await core.readNamespacedConfigMap({ name: 'owned', namespace });
    if (target.server) {
      expect(
        (first.json as { metadata: { managedFields?: unknown } }).metadata.managedFields,
      ).toBeUndefined();
      expect(again.status).toBe(200);
      expect(stored.data).toEqual({ a: '1' });
      return;
    }
    expect((first.json as { metadata: { managedFields: unknown } }).metadata.managedFields).toEqual([
      expect.objectContaining({
        manager: 'alpha',
        operation: 'Apply',
        fieldsType: 'FieldsV1',
        fieldsV1: { 'f:data': { 'f:a': {} } },
      }),
    ]);
    // kube-apiserver names the patch's manager after the client's user agent.
    expect(again).toEqual({
      status: 409,
      json: expect.objectContaining({
        message: expect.stringMatching(
          /^Apply failed with 1 conflict: conflict with "[^"]+" using v1: \.data\.a$/,
        ),
        reason: 'Conflict',
      }),
    });
    expect(stored.data).toEqual({ a: '3' });
  });
});

describe('security', () => {
  it('differs: plain HTTP and no authentication (any bearer token is a user)', async () => {
    const cluster = target.kubeConfig.getCurrentCluster();
    if (!cluster) throw new Error('no current cluster');
    const stranger = new KubeConfig();
    stranger.loadFromOptions({
      clusters: [cluster],
      users: [{ name: 'stranger', token: 'not-a-token-the-server-issued' }],
      contexts: [{ name: 'stranger', cluster: cluster.name, user: 'stranger' }],
      currentContext: 'stranger',
    });
    const listed = await rawRequest(
      { ...target, kubeConfig: stranger },
      'GET',
      `/api/v1/namespaces/${namespace}/configmaps`,
    );
    if (target.server) {
      expect(cluster.server).toMatch(/^http:/);
      expect(listed).toMatchObject({ status: 200, json: { kind: 'ConfigMapList' } });
      return;
    }
    expect(cluster.server).toMatch(/^https:/);
    expect(listed).toEqual({
      status: 401,
      json: {
        kind: 'Status',
        apiVersion: 'v1',
        metadata: {},
        status: 'Failure',
        message: 'Unauthorized',
        reason: 'Unauthorized',
        code: 401,
      },
    });
  });

  it('differs: no authorization (RBAC): a user without rights may do anything', async () => {
    const listed = await rawRequest(target, 'GET', `/api/v1/namespaces/${namespace}/configmaps`, undefined, {
      'Impersonate-User': 'nobody',
    });
    if (target.server) {
      expect(listed.status).toBe(200);
      return;
    }
    expect(listed).toMatchObject({
      status: 403,
      json: {
        reason: 'Forbidden',
        message: `configmaps is forbidden: User "nobody" cannot list resource "configmaps" in API group "" in the namespace "${namespace}"`,
      },
    });
  });
});

describe('controllers', () => {
  it('differs: no deployment.kubernetes.io/revision annotation is written, so a PUT without annotations bumps generation only on kube-apiserver', async () => {
    // A namespace of its own: the ReplicaSet kube makes must not meet the other tests' listings.
    const apps = `/apis/apps/v1/namespaces/${await freshNamespace(target, 'revision')}/deployments`;
    const labels = { app: 'revision' };
    const body = {
      metadata: { name: 'revision' },
      spec: {
        replicas: 0,
        selector: { matchLabels: labels },
        template: {
          metadata: { labels },
          spec: { containers: [{ name: 'main', image: 'example.com/app:1' }] },
        },
      },
    };
    await post(apps, body);
    // Read and PUT again while the deployment controller's own writes make the read stale.
    const put = await eventually(async () => {
      const current = (await rawRequest(target, 'GET', `${apps}/revision`)).json as {
        metadata: { resourceVersion: string; annotations?: Record<string, string> };
      };
      const revision = current.metadata.annotations?.['deployment.kubernetes.io/revision'];
      if (!target.server && revision === undefined) return undefined;
      const reply = await rawRequest(target, 'PUT', `${apps}/revision`, {
        contentType: 'application/json',
        text: JSON.stringify({
          ...body,
          metadata: { ...body.metadata, resourceVersion: current.metadata.resourceVersion },
        }),
      });
      return reply.status === 409 ? undefined : reply;
    }, CONTROLLER_PATIENCE_MS);
    expect(put.status).toBe(200);
    const written = put.json as { metadata: { generation: number } };
    expect(written.metadata.generation).toBe(target.server ? 1 : 2);
    // An annotation a client changes bumps it on both.
    const patched = await rawRequest(target, 'PATCH', `${apps}/revision`, {
      contentType: 'application/merge-patch+json',
      text: JSON.stringify({ metadata: { annotations: { note: 'changed' } } }),
    });
    expect((patched.json as { metadata: { generation: number } }).metadata.generation).toBe(
      target.server ? 2 : 3,
    );
  });

  it('differs: workloads are simulated: a Deployment becomes available without ReplicaSets or Pods', async () => {
    const apps = target.kubeConfig.makeApiClient(AppsV1Api);
    const labels = { app: 'simulated' };
    await apps.createNamespacedDeployment({
      namespace,
      body: {
        metadata: { name: 'simulated' },
        spec: {
          replicas: 2,
          selector: { matchLabels: labels },
          template: {
            metadata: { labels },
            spec: { containers: [{ name: 'main', image: 'example.com/app:1' }] },
          },
        },
      },
    });
    await eventually(async () => {
      const current = await apps.readNamespacedDeployment({ name: 'simulated', namespace });
      return current.status?.availableReplicas === 2 ? true : undefined;
    }, CONTROLLER_PATIENCE_MS);
    const pods = await rawRequest(
      target,
      'GET',
      `/api/v1/namespaces/${namespace}/pods?labelSelector=app%3Dsimulated`,
    );
    const replicaSets = await rawRequest(target, 'GET', `/apis/apps/v1/namespaces/${namespace}/replicasets`);
    if (target.server) {
      expect(pods.status).toBe(404);
      expect(replicaSets.status).toBe(404);
      return;
    }
    expect((pods.json as { items: unknown[] }).items).toHaveLength(2);
    expect((replicaSets.json as { items: unknown[] }).items).toHaveLength(1);
  });
});

describe('discovery', () => {
  it('differs: no aggregated discovery (clients fall back to /api and /apis)', async () => {
    const apis = await rawRequest(target, 'GET', '/apis', undefined, {
      Accept: 'application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList,application/json',
    });
    expect(apis.status).toBe(200);
    expect((apis.json as { kind: string }).kind).toBe(
      target.server ? 'APIGroupList' : 'APIGroupDiscoveryList',
    );
  });
});

describe('differential findings', () => {
  it('differs: a PUT to the /status of a missing Service creates it only on kube-apiserver', async () => {
    const reply = await rawRequest(
      target,
      'PUT',
      `/api/v1/namespaces/${namespace}/services/by-status/status`,
      {
        contentType: 'application/json',
        text: JSON.stringify({
          apiVersion: 'v1',
          kind: 'Service',
          metadata: { name: 'by-status' },
          spec: { ports: [{ port: 80 }] },
          status: { loadBalancer: {} },
        }),
      },
    );
    if (target.server) {
      expect(reply.status).toBe(404);
      return;
    }
    expect(reply.status).toBe(201);
    // kube-apiserver's status storage allocates nothing: the Service has no cluster IP.
    expect((reply.json as { spec: { clusterIP?: string } }).spec.clusterIP).toBeUndefined();
  });
});

describe('watch events of a Service that becomes ExternalName', () => {
  it('differs: the watch event of a Service that becomes ExternalName keeps internalTrafficPolicy only on kube-apiserver', async () => {
    const services = `/api/v1/namespaces/${namespace}/services`;
    const created = await post(services, {
      metadata: { name: 'to-external' },
      spec: { selector: { app: 'a' }, ports: [{ name: 'http', port: 80 }] },
    });
    expect(created.status).toBe(201);
    const { resourceVersion } = (created.json as { metadata: { resourceVersion: string } }).metadata;
    const events: { type: string; object: { spec: Record<string, unknown> } }[] = [];
    const cluster = target.kubeConfig.getCurrentCluster();
    const init = await target.kubeConfig.applyToFetchOptions({});
    const controller = new AbortController();
    const { default: fetch } = await import('node-fetch');
    const response = await fetch(
      `${cluster?.server ?? ''}${services}?watch=true&resourceVersion=${resourceVersion}&fieldSelector=metadata.name%3Dto-external`,
      { ...init, signal: controller.signal as never },
    );
    let pending = '';
    response.body.on('data', (chunk: Buffer) => {
      pending += chunk.toString('utf8');
      const lines = pending.split('\n');
      pending = lines.pop() ?? '';
      for (const line of lines) if (line.trim() !== '') events.push(JSON.parse(line));
    });
    response.body.on('error', () => undefined);
    const patched = await rawRequest(target, 'PATCH', `${services}/to-external`, {
      contentType: 'application/merge-patch+json',
      text: JSON.stringify({ spec: { type: 'ExternalName', externalName: 'x.example.com' } }),
    });
    expect(patched.status).toBe(200);
    expect((patched.json as { spec: Record<string, unknown> }).spec.internalTrafficPolicy).toBeUndefined();
    await eventually(() => (events.some((event) => event.type === 'MODIFIED') ? true : undefined), 10_000);
    controller.abort();
    const modified = events.find((event) => event.type === 'MODIFIED');
    expect(modified?.object.spec.internalTrafficPolicy).toBe(target.server ? undefined : 'Cluster');
  });
});
