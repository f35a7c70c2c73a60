import { describe, expect, it } from 'vitest';
import { resolveDestination, type ObjectReader, type ResolveContext } from '../src/index.ts';
import { inMemoryReader, type ServedKind, type StoredObject } from './support/in-memory-reader.ts';

const SERVED: ServedKind[] = [
  { apiVersion: 'v1', kind: 'Service', resource: 'services' },
  { apiVersion: 'v1', kind: 'ConfigMap', resource: 'configmaps' },
  { apiVersion: 'eventing.knative.dev/v1', kind: 'Broker', resource: 'brokers' },
  { apiVersion: 'net.example.com/v1', kind: 'Gateway', resource: 'gateways' },
  { apiVersion: 'serving.knative.dev/v1', kind: 'Service', resource: 'services' },
];

function stored(
  apiVersion: string,
  kind: string,
  namespace: string,
  name: string,
  rest: object = {},
): StoredObject {
  return { apiVersion, kind, metadata: { namespace, name }, ...rest };
}

function gateway(name: string, status: unknown): StoredObject {
  return stored('net.example.com/v1', 'Gateway', 'shop', name, { status });
}

/** The cluster of docs/spec/address.md §6, plus objects for the error cases. */
const OBJECTS: StoredObject[] = [
  stored('v1', 'Service', 'shop', 'collector', { spec: { ports: [{ port: 8080, targetPort: 8080 }] } }),
  stored('v1', 'Service', 'hooks', 'mailer-hook'),
  stored('v1', 'ConfigMap', 'shop', 'settings', { data: { url: 'http://x' } }),
  stored('eventing.knative.dev/v1', 'Broker', 'infra', 'default', {
    status: { address: { url: 'http://broker-ingress.knative-eventing.svc.cluster.local/infra/default' } },
  }),
  gateway('edge', { address: { url: 'https://edge.shop.example.com:8443/base?tenant=a' } }),
  gateway('no-status', undefined),
  gateway('no-address', { conditions: [] }),
  gateway('no-url', { address: {} }),
  gateway('empty-url', { address: { url: '' } }),
  gateway('number-url', { address: { url: 42 } }),
  gateway('boolean-url', { address: { url: true } }),
  gateway('null-url', { address: { url: null } }),
  gateway('object-url', { address: { url: { host: 'x' } } }),
  gateway('bad-url', { address: { url: 'http://edge:port/' } }),
  stored('serving.knative.dev/v1', 'Service', 'shop', 'collector', {
    status: { address: { url: 'http://collector.shop.knative.example' } },
  }),
];

/** The resolveAddress context: namespace `shop`. */
function instanceContext(reader: ObjectReader = inMemoryReader(SERVED, OBJECTS)): ResolveContext {
  return { namespace: 'shop', clusterDomain: 'cluster.local', reader };
}

/** The hook-address context: no namespace to fall back on. */
function hookContext(): ResolveContext {
  return { clusterDomain: 'cluster.local', reader: inMemoryReader(SERVED, OBJECTS) };
}

const collector = { apiVersion: 'v1', kind: 'Service', name: 'collector' };
const broker = { apiVersion: 'eventing.knative.dev/v1', kind: 'Broker', name: 'default', namespace: 'infra' };
const edge = { apiVersion: 'net.example.com/v1', kind: 'Gateway', name: 'edge' };

function gatewayRef(name: string) {
  return { ref: { ...edge, name } };
}

describe('resolveDestination: examples of docs/spec/address.md §6', () => {
  it.each([
    ['A1', { ref: collector }, 'http://collector.shop.svc.cluster.local'],
    ['A2', { ref: collector, uri: '/events' }, 'http://collector.shop.svc.cluster.local/events'],
    ['A3', { ref: collector, uri: 'http://:9000/v1' }, 'http://collector.shop.svc.cluster.local:9000/v1'],
    ['A4', { ref: collector, uri: 'https://' }, 'https://collector.shop.svc.cluster.local'],
    ['A5', { ref: collector, uri: '?format=ce' }, 'http://collector.shop.svc.cluster.local?format=ce'],
    ['A6', { ref: broker }, 'http://broker-ingress.knative-eventing.svc.cluster.local/infra/default'],
    ['A7', { ref: broker, uri: '/other' }, 'http://broker-ingress.knative-eventing.svc.cluster.local/other'],
    ['A8', { ref: edge, uri: '//:9443?tenant=b' }, 'https://edge.shop.example.com:9443/base?tenant=b'],
    ['A9', { uri: 'https://api.example.net/in' }, 'https://api.example.net/in'],
    ['A10', { uri: '/relative' }, '/relative'],
  ])('%s', async (_example, destination, url) => {
    expect(await resolveDestination(destination, instanceContext())).toEqual({ ok: true, url });
  });

  it('A11 (hook address)', async () => {
    const destination = {
      ref: { apiVersion: 'v1', kind: 'Service', name: 'mailer-hook', namespace: 'hooks' },
      uri: 'http://:8080/v1',
    };
    expect(await resolveDestination(destination, hookContext())).toEqual({
      ok: true,
      url: 'http://mailer-hook.hooks.svc.cluster.local:8080/v1',
    });
  });
});

describe('resolveDestination: rules', () => {
  it('fills a missing ref.namespace with the instance namespace and reads the object there', async () => {
    const reader = inMemoryReader(SERVED, OBJECTS);
    await resolveDestination({ ref: collector }, instanceContext(reader));
    expect(reader.requests).toEqual([
      { apiVersion: 'v1', kind: 'Service', namespace: 'shop', name: 'collector' },
    ]);
  });

  it('keeps a written ref.namespace', async () => {
    const destination = { ref: { ...collector, name: 'mailer-hook', namespace: 'hooks' } };
    expect(await resolveDestination(destination, instanceContext())).toEqual({
      ok: true,
      url: 'http://mailer-hook.hooks.svc.cluster.local',
    });
  });

  it('treats an empty ref.namespace as missing', async () => {
    expect(await resolveDestination({ ref: { ...collector, namespace: '' } }, instanceContext())).toEqual({
      ok: true,
      url: 'http://collector.shop.svc.cluster.local',
    });
  });

  it('builds Service URLs with the given cluster domain', async () => {
    const context = { ...instanceContext(), clusterDomain: 'corp.internal' };
    expect(await resolveDestination({ ref: collector }, context)).toEqual({
      ok: true,
      url: 'http://collector.shop.svc.corp.internal',
    });
  });

  it('uses status.address.url for a Service of any apiVersion other than v1', async () => {
    const knativeService = { apiVersion: 'serving.knative.dev/v1', kind: 'Service', name: 'collector' };
    expect(await resolveDestination({ ref: knativeService, uri: '/in' }, instanceContext())).toEqual({
      ok: true,
      url: 'http://collector.shop.knative.example/in',
    });
  });

  it('ignores keys other than ref and uri', async () => {
    expect(
      await resolveDestination({ ref: collector, uri: '/e', port: 9, extra: { a: 1 } }, instanceContext()),
    ).toEqual({
      ok: true,
      url: 'http://collector.shop.svc.cluster.local/e',
    });
  });

  it('returns a uri alone exactly as written, without reading anything', async () => {
    const reader = inMemoryReader(SERVED, OBJECTS);
    expect(await resolveDestination({ uri: 'HTTP://Example.COM:/x/../y' }, instanceContext(reader))).toEqual({
      ok: true,
      url: 'HTTP://Example.COM:/x/../y',
    });
    expect(reader.requests).toEqual([]);
  });

  it('treats null and "" as absent', async () => {
    expect(await resolveDestination({ ref: collector, uri: '' }, instanceContext())).toEqual({
      ok: true,
      url: 'http://collector.shop.svc.cluster.local',
    });
    expect(await resolveDestination({ ref: null, uri: '/x' }, instanceContext())).toEqual({
      ok: true,
      url: '/x',
    });
  });
});

describe('resolveDestination: errors of docs/spec/address.md §7', () => {
  async function failure(
    destination: unknown,
    context: ResolveContext = instanceContext(),
  ): Promise<unknown> {
    return resolveDestination(destination, context);
  }

  it.each([
    ['an empty object', {}],
    ['undefined', undefined],
    ['null', null],
    ['null ref and empty uri', { ref: null, uri: '' }],
    ['only other keys', { url: 'http://x' }],
  ])('neither ref nor uri: %s', async (_case, destination) => {
    expect(await failure(destination)).toEqual({ ok: false, message: 'ref or uri should be informed' });
  });

  it.each([
    ['apiVersion', { kind: 'Service', name: 'collector' }],
    ['kind', { apiVersion: 'v1', name: 'collector' }],
    ['name', { apiVersion: 'v1', kind: 'Service', name: '' }],
  ])('ref lacks %s', async (field, ref) => {
    expect(await failure({ ref })).toEqual({ ok: false, message: `ref.${field} is required` });
  });

  it('reports the first missing ref field in the order apiVersion, kind, name', async () => {
    expect(await failure({ ref: {} })).toEqual({ ok: false, message: 'ref.apiVersion is required' });
  });

  it('requires ref.namespace for a hook address', async () => {
    expect(await failure({ ref: collector, uri: '/x' }, hookContext())).toEqual({
      ok: false,
      message: 'ref.namespace is required',
    });
  });

  it.each([
    [
      { ref: collector, uri: 'http://:80a/x' },
      'invalid URI "http://:80a/x": invalid port "80a": only digits are allowed',
    ],
    [{ uri: 'http://[::1/x' }, 'invalid URI "http://[::1/x": unclosed "[" in host "[::1"'],
    [{ uri: 'http://host/a b' }, 'invalid URI "http://host/a b": invalid character " " in path'],
  ])('uri unparsable: %j', async (destination, message) => {
    expect(await failure(destination)).toEqual({ ok: false, message });
  });

  it('uri has a host while ref is set, reported before any read', async () => {
    const reader = inMemoryReader(SERVED, OBJECTS);
    expect(
      await failure({ ref: collector, uri: 'http://elsewhere:8080/v1' }, instanceContext(reader)),
    ).toEqual({
      ok: false,
      message: 'URI should not contain a host while also informing a Reference: "http://elsewhere:8080/v1"',
    });
    expect(reader.requests).toEqual([]);
  });

  it('kind unknown to discovery', async () => {
    expect(await failure({ ref: { apiVersion: 'example.com/v1', kind: 'Widget', name: 'w' } })).toEqual({
      ok: false,
      message: 'no API resource for kind "Widget" in "example.com/v1"',
    });
  });

  it('Service missing', async () => {
    expect(await failure({ ref: { ...collector, namespace: 'other' } })).toEqual({
      ok: false,
      message: 'services "collector" not found',
    });
  });

  it('addressable missing', async () => {
    expect(await failure({ ref: { ...broker, namespace: 'shop' } })).toEqual({
      ok: false,
      message: 'brokers.eventing.knative.dev "default" not found',
    });
  });

  it('forbidden or other API error: the API server message', async () => {
    const forbidden =
      'brokers.eventing.knative.dev "default" is forbidden: User "system:serviceaccount:scoby:scoby" cannot get resource "brokers" in API group "eventing.knative.dev" in the namespace "infra"';
    const reader: ObjectReader = { get: async () => ({ found: false, message: forbidden }) };
    expect(await failure({ ref: broker }, instanceContext(reader))).toEqual({
      ok: false,
      message: forbidden,
    });
  });

  it('a reader that throws: its error message', async () => {
    const reader: ObjectReader = {
      get: async () => {
        throw new Error('connect ECONNREFUSED 127.0.0.1:6443');
      },
    };
    expect(await failure({ ref: broker }, instanceContext(reader))).toEqual({
      ok: false,
      message: 'connect ECONNREFUSED 127.0.0.1:6443',
    });
  });

  it.each(['no-status', 'no-address', 'no-url', 'empty-url'])(
    'status.address.url missing or "": %s',
    async (name) => {
      expect(await failure(gatewayRef(name))).toEqual({
        ok: false,
        message: 'object does not inform "status.address.url"',
      });
    },
  );

  it('a non-addressable kind has no status.address.url', async () => {
    const settings = { apiVersion: 'v1', kind: 'ConfigMap', name: 'settings' };
    expect(await failure({ ref: settings })).toEqual({
      ok: false,
      message: 'object does not inform "status.address.url"',
    });
  });

  it.each([
    ['number-url', 'number'],
    ['boolean-url', 'boolean'],
    ['null-url', 'null'],
    ['object-url', 'object'],
  ])('status.address.url not a string: %s', async (name, type) => {
    expect(await failure(gatewayRef(name))).toEqual({
      ok: false,
      message: `unexpected value at "status.address.url": expected string, got ${type}`,
    });
  });

  it('base URL unparsable', async () => {
    expect(await failure(gatewayRef('bad-url'))).toEqual({
      ok: false,
      message:
        'resolved reference to "http://edge:port/" cannot be parsed: invalid port "port": only digits are allowed',
    });
  });
});

describe('resolveDestination: malformed shapes', () => {
  it.each([
    ['a string destination', 'http://x', 'destination must be an object with "ref" and/or "uri", got string'],
    [
      'an array destination',
      [{ uri: '/x' }],
      'destination must be an object with "ref" and/or "uri", got array',
    ],
    ['a string ref', { ref: 'v1/Service/collector' }, 'ref must be an object, got string'],
    ['a numeric uri', { uri: 8080 }, 'uri must be a string, got number'],
    ['a numeric ref.name', { ref: { ...collector, name: 7 } }, 'ref.name must be a string, got number'],
    [
      'a boolean ref.namespace',
      { ref: { ...collector, namespace: true } },
      'ref.namespace must be a string, got boolean',
    ],
  ])('%s', async (_case, destination, message) => {
    expect(await resolveDestination(destination, instanceContext())).toEqual({ ok: false, message });
  });
});
