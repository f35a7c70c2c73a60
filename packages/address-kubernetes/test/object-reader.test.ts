import {
  ApiextensionsV1Api,
  CoreV1Api,
  CustomObjectsApi,
  type KubeConfig,
  type V1CustomResourceDefinition,
} from '@kubernetes/client-node';
import { resolveDestination, type ObjectReader } from '@scoby/address';
import { startApiServer } from '@scoby/in-memory-apiserver';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createObjectReader } from '../src/index.ts';

type ApiServer = Awaited<ReturnType<typeof startApiServer>>;

const BROKER_URL = 'http://broker-ingress.knative-eventing.svc.cluster.local/infra/default';

/** A namespaced CRD without a status subresource, so a create may set `.status`. */
function addressableCrd(group: string, kind: string, plural: string): V1CustomResourceDefinition {
  return {
    apiVersion: 'apiextensions.k8s.io/v1',
    kind: 'CustomResourceDefinition',
    metadata: { name: `${plural}.${group}` },
    spec: {
      group,
      scope: 'Namespaced',
      names: { kind, plural, singular: kind.toLowerCase(), listKind: `${kind}List` },
      versions: [
        {
          name: 'v1',
          served: true,
          storage: true,
          schema: { openAPIV3Schema: { type: 'object', x_kubernetes_preserve_unknown_fields: true } },
        },
      ],
    },
  };
}

/** Retries `action` until it succeeds: a new CRD may take a moment to be served. */
async function eventually<T>(action: () => Promise<T>, timeoutMs = 5_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      return await action();
    } catch (error) {
      if (Date.now() > deadline) throw error;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }
}

describe('createObjectReader against an API server', () => {
  let server: ApiServer;
  let kubeConfig: KubeConfig;
  let reader: ObjectReader;

  beforeAll(async () => {
    server = await startApiServer();
    kubeConfig = server.kubeConfig();
    const core = kubeConfig.makeApiClient(CoreV1Api);
    const extensions = kubeConfig.makeApiClient(ApiextensionsV1Api);
    const custom = kubeConfig.makeApiClient(CustomObjectsApi);
    for (const name of ['shop', 'infra']) await core.createNamespace({ body: { metadata: { name } } });
    await core.createNamespacedService({
      namespace: 'shop',
      body: { metadata: { name: 'collector' }, spec: { ports: [{ port: 8080 }] } },
    });
    await extensions.createCustomResourceDefinition({
      body: addressableCrd('eventing.knative.dev', 'Broker', 'brokers'),
    });
    await eventually(() =>
      custom.createNamespacedCustomObject({
        group: 'eventing.knative.dev',
        version: 'v1',
        namespace: 'infra',
        plural: 'brokers',
        body: {
          apiVersion: 'eventing.knative.dev/v1',
          kind: 'Broker',
          metadata: { name: 'default' },
          status: { address: { url: BROKER_URL } },
        },
      }),
    );
    reader = createObjectReader(kubeConfig);
  });

  afterAll(async () => {
    await server?.stop();
  });

  it('reads a core Service', async () => {
    const ref = { apiVersion: 'v1', kind: 'Service', namespace: 'shop', name: 'collector' };
    expect(await reader.get(ref)).toMatchObject({
      found: true,
      object: { apiVersion: 'v1', kind: 'Service', metadata: { namespace: 'shop', name: 'collector' } },
    });
  });

  it('reads a custom resource with its status', async () => {
    const ref = {
      apiVersion: 'eventing.knative.dev/v1',
      kind: 'Broker',
      namespace: 'infra',
      name: 'default',
    };
    expect(await reader.get(ref)).toMatchObject({
      found: true,
      object: {
        kind: 'Broker',
        metadata: { name: 'default', namespace: 'infra' },
        status: { address: { url: BROKER_URL } },
      },
    });
  });

  it('reads a cluster-scoped object without its namespace in the path', async () => {
    const ref = { apiVersion: 'v1', kind: 'Namespace', namespace: 'infra', name: 'shop' };
    expect(await reader.get(ref)).toMatchObject({
      found: true,
      object: { kind: 'Namespace', metadata: { name: 'shop' } },
    });
  });

  it("returns the API server's message for a missing Service", async () => {
    const ref = { apiVersion: 'v1', kind: 'Service', namespace: 'infra', name: 'collector' };
    expect(await reader.get(ref)).toEqual({ found: false, message: 'services "collector" not found' });
  });

  it("returns the API server's message for a missing custom resource", async () => {
    const ref = { apiVersion: 'eventing.knative.dev/v1', kind: 'Broker', namespace: 'shop', name: 'default' };
    expect(await reader.get(ref)).toEqual({
      found: false,
      message: 'brokers.eventing.knative.dev "default" not found',
    });
  });

  it('reports a kind its group does not serve as unknown', async () => {
    expect(await reader.get({ apiVersion: 'v1', kind: 'Widget', namespace: 'shop', name: 'w' })).toEqual({
      unknownKind: true,
    });
  });

  it('reports an unserved group as unknown', async () => {
    const ref = { apiVersion: 'net.example.com/v1', kind: 'Gateway', namespace: 'shop', name: 'edge' };
    expect(await reader.get(ref)).toEqual({ unknownKind: true });
  });

  it('refreshes discovery when a kind is missing from an apiVersion it has cached', async () => {
    const ref = {
      apiVersion: 'eventing.knative.dev/v1',
      kind: 'Trigger',
      namespace: 'infra',
      name: 'orders',
    };
    expect(await reader.get(ref)).toEqual({ unknownKind: true });
    const extensions = kubeConfig.makeApiClient(ApiextensionsV1Api);
    await extensions.createCustomResourceDefinition({
      body: addressableCrd('eventing.knative.dev', 'Trigger', 'triggers'),
    });
    expect(
      await eventually(async () => {
        const result = await reader.get(ref);
        if ('unknownKind' in result) throw new Error('Trigger not discovered yet');
        return result;
      }),
    ).toEqual({ found: false, message: 'triggers.eventing.knative.dev "orders" not found' });
  });

  it.each([
    [
      403,
      'brokers.eventing.knative.dev "default" is forbidden: User "system:serviceaccount:scoby:scoby" cannot get resource "brokers" in API group "eventing.knative.dev" in the namespace "infra"',
    ],
    [500, 'etcdserver: request timed out'],
  ])("returns the API server's message for HTTP %i", async (code, message) => {
    server.faults.failNext(
      { verb: 'get', resource: 'brokers', namespace: 'infra', name: 'default' },
      { code, message },
    );
    const ref = {
      apiVersion: 'eventing.knative.dev/v1',
      kind: 'Broker',
      namespace: 'infra',
      name: 'default',
    };
    expect(await reader.get(ref)).toEqual({ found: false, message });
  });

  it('asks discovery once per apiVersion while the kind stays known', async () => {
    const freshReader = createObjectReader(kubeConfig);
    const ref = { apiVersion: 'v1', kind: 'Service', namespace: 'shop', name: 'collector' };
    server.requestLog.clear();
    await freshReader.get(ref);
    await freshReader.get({ ...ref, name: 'other' });
    expect(server.requestLog.entries().map(({ method, path, code }) => `${method} ${path} ${code}`)).toEqual([
      'GET /api/v1 200',
      'GET /api/v1/namespaces/shop/services/collector 200',
      'GET /api/v1/namespaces/shop/services/other 404',
    ]);
  });

  it('keeps the status.address of a Knative Service, whose kind is also called Service', async () => {
    const extensions = kubeConfig.makeApiClient(ApiextensionsV1Api);
    const custom = kubeConfig.makeApiClient(CustomObjectsApi);
    await extensions.createCustomResourceDefinition({
      body: addressableCrd('serving.knative.dev', 'Service', 'services'),
    });
    await eventually(() =>
      custom.createNamespacedCustomObject({
        group: 'serving.knative.dev',
        version: 'v1',
        namespace: 'shop',
        plural: 'services',
        body: { apiVersion: 'serving.knative.dev/v1', kind: 'Service', metadata: { name: 'display' } },
      }),
    );
    const ref = { apiVersion: 'serving.knative.dev/v1', kind: 'Service', name: 'display' };
    const context = { namespace: 'shop', clusterDomain: 'cluster.local', reader };
    expect(
      await eventually(async () => {
        const resolution = await resolveDestination({ ref, uri: '/in' }, context);
        if (!resolution.ok) throw new Error(resolution.message);
        return resolution;
      }),
    ).toEqual({ ok: true, url: 'http://display.shop.svc.cluster.local/in' });
  });

  it('gives up on a request the API server never answers, and says which', async () => {
    const heal = server.faults.blackHole();
    try {
      const impatient = createObjectReader(kubeConfig, { requestTimeoutMs: 200 });
      const started = Date.now();
      expect(
        await impatient.get({ apiVersion: 'v1', kind: 'Service', namespace: 'shop', name: 'collector' }),
      ).toEqual({
        found: false,
        message: 'GET /api/v1 timed out: no answer from the API server within 200 ms',
      });
      expect(Date.now() - started).toBeLessThan(2000);
    } finally {
      heal();
    }
  });

  it('resolves destinations end to end', async () => {
    const context = { namespace: 'shop', clusterDomain: 'cluster.local', reader };
    const service = {
      ref: { apiVersion: 'v1', kind: 'Service', name: 'collector' },
      uri: 'http://:8080/events',
    };
    const broker = {
      ref: { apiVersion: 'eventing.knative.dev/v1', kind: 'Broker', name: 'default', namespace: 'infra' },
    };
    expect(await resolveDestination(service, context)).toEqual({
      ok: true,
      url: 'http://collector.shop.svc.cluster.local:8080/events',
    });
    expect(await resolveDestination(broker, context)).toEqual({ ok: true, url: BROKER_URL });
  });
});
