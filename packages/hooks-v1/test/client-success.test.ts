import { afterEach, describe, expect, it } from 'vitest';
import { createHookClient, type HookClient } from '../src/index.ts';
import { deployment, finalizeCall, instance, preReconcileCall, service } from './support/fixtures.ts';
import { answerWith, startScriptedServer, type ScriptedServer } from './support/servers.ts';

let server: ScriptedServer | undefined;
let client: HookClient | undefined;

afterEach(async () => {
  client?.close();
  await server?.close();
  server = client = undefined;
});

async function preReconcileAnswered(status: number, body: string): Promise<unknown> {
  server = await startScriptedServer(answerWith(status, body, { 'Content-Type': 'text/plain' }));
  client = createHookClient();
  return client.call(preReconcileCall(server.url));
}

describe('the request', () => {
  it('POSTs the §3 body with the JSON headers to the exact URL, without managedFields', async () => {
    server = await startScriptedServer(answerWith(204));
    client = createHookClient();
    await client.call(preReconcileCall(server.url));
    const [request] = server.requests;
    expect(request?.method).toBe('POST');
    expect(request?.url).toBe('/hook?x=1');
    expect(request?.headers['content-type']).toBe('application/json');
    expect(request?.headers['accept']).toBe('application/json');
    expect(request?.headers['user-agent']).toBe('scoby-controller/0.1.0');
    expect(request?.headers['authorization']).toBeUndefined();
    const { managedFields: _managedFields, ...metadata } = instance.metadata;
    expect(JSON.parse(request?.body ?? '')).toEqual({
      formFactor: 'deployment',
      phase: 'pre-reconcile',
      object: { ...instance, metadata },
      children: { deployment, service },
    });
  });

  it('sends the object form of formFactor when asked, and no children in finalize', async () => {
    server = await startScriptedServer(answerWith(204));
    client = createHookClient({ formFactorFormat: 'object', userAgent: 'scoby-controller/9.9.9' });
    await client.call(finalizeCall(server.url));
    const [request] = server.requests;
    expect(request?.headers['user-agent']).toBe('scoby-controller/9.9.9');
    const { managedFields: _managedFields, ...metadata } = instance.metadata;
    expect(JSON.parse(request?.body ?? '')).toEqual({
      formFactor: { name: 'deployment' },
      phase: 'finalize',
      object: { ...instance, metadata },
    });
  });

  it('reuses one kept-alive connection for several calls', async () => {
    server = await startScriptedServer(answerWith(200, '{}'));
    client = createHookClient();
    for (let i = 0; i < 3; i++) expect(await client.call(preReconcileCall(server.url))).toEqual({ ok: true });
    expect(server.requests).toHaveLength(3);
    expect(server.connections()).toBe(1);
  });
});

describe('2xx pre-reconcile answers (§5)', () => {
  it.each([
    [200, ''],
    [200, '  \n'],
    [204, ''],
    [200, '{}'],
    [200, 'null'],
    [201, '{"object": null, "children": {}}'],
  ])('HTTP %d %j: no change', async (status, body) => {
    expect(await preReconcileAnswered(status, body)).toEqual({ ok: true });
  });

  it('HTTP 200 with object and children: both returned', async () => {
    const children = { deployment: { ...deployment, spec: { replicas: 9 } }, service };
    const object = { status: { observedGeneration: 2, annotations: { hooked: 'yes' } } };
    expect(await preReconcileAnswered(200, JSON.stringify({ object, children }))).toEqual({
      ok: true,
      object,
      children,
    });
  });

  it('reports spec and label changes as ignored', async () => {
    const object = { spec: { smtp: {} }, metadata: { labels: {} }, status: {} };
    expect(await preReconcileAnswered(200, JSON.stringify({ object }))).toEqual({
      ok: true,
      object: { status: {} },
      objectChangesIgnored: ['spec', 'metadata.labels'],
    });
  });

  it.each([
    ['{"object": ', 'pre-reconcile hook: invalid response: body is not a JSON object'],
    ['[{"object": {}}]', 'pre-reconcile hook: invalid response: body is not a JSON object'],
    ['"ok"', 'pre-reconcile hook: invalid response: body is not a JSON object'],
    ['{"object": []}', 'pre-reconcile hook: invalid response: object is not a JSON object'],
    [
      '{"object": {"status": "Ready"}}',
      'pre-reconcile hook: invalid response: object.status is not a JSON object',
    ],
    [
      '{"children": {"deployment": {"apiVersion": "apps/v1", "metadata": {"name": "a"}}, "service": {}}}',
      'pre-reconcile hook: invalid response: children.deployment: kind must be a non-empty string',
    ],
  ])('malformed %s is a transient error', async (body, message) => {
    expect(await preReconcileAnswered(200, body)).toEqual({
      ok: false,
      message,
      permanent: false,
      continue: false,
      transient: true,
      outcome: 'invalid-answer',
      status: 200,
    });
  });

  const moved = { ...service, metadata: { name: 'mailer-orders', namespace: 'default' } };
  const configMap = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'extra' } };
  const asService = { ...service, metadata: { name: 'other' } };
  it.each<[string, Record<string, unknown>, string]>([
    [
      '1',
      { deployment: { ...deployment, apiVersion: '' }, service },
      'children.deployment: apiVersion must be a non-empty string',
    ],
    [
      '2',
      { deployment, service: moved },
      `children.service: metadata.namespace "default" is not the instance's namespace "shop"`,
    ],
    [
      '3',
      { deployment, service, extra: configMap },
      'children.extra: kind "ConfigMap" (v1) is not managed by form factor "deployment"',
    ],
    ['4 (missing)', { deployment }, 'children.service: missing'],
    [
      '4 (kind)',
      { deployment: asService, service },
      'children.deployment: kind "Service" (v1) differs from the kind "Deployment" (apps/v1) that was sent',
    ],
    [
      '5',
      { deployment, service, twin: service },
      'children.twin: kind "Service" and name "mailer-orders" are already used by children.service',
    ],
  ])('children violating rule %s are a transient error', async (_rule, children, detail) => {
    expect(await preReconcileAnswered(200, JSON.stringify({ children }))).toEqual({
      ok: false,
      message: `pre-reconcile hook: invalid response: ${detail}`,
      permanent: false,
      continue: false,
      transient: true,
      outcome: 'invalid-answer',
      status: 200,
    });
  });
});

describe('2xx finalize answers (§5.1)', () => {
  it.each([
    [200, 'not json at all'],
    [200, '{"object": []}'],
    [204, ''],
    [202, '[1, 2]'],
  ])('HTTP %d %j is a success whatever the body', async (status, body) => {
    server = await startScriptedServer(answerWith(status, body));
    client = createHookClient();
    expect(await client.call(finalizeCall(server.url))).toEqual({ ok: true });
  });
});
