import { afterEach, describe, expect, it } from 'vitest';
import {
  createHookClient,
  HookError,
  startHookServer,
  type HookClient,
  type HookServer,
  type HookServerOptions,
} from '../src/index.ts';
import { deployment, finalizeCall, preReconcileCall, service } from './support/fixtures.ts';

let server: HookServer | undefined;
let client: HookClient | undefined;

afterEach(async () => {
  client?.close();
  await server?.close();
  server = client = undefined;
});

async function serve(options: HookServerOptions): Promise<HookServer> {
  server = await startHookServer(options);
  return server;
}

async function post(url: string, body: string): Promise<{ status: number; body: string }> {
  const response = await fetch(url, {
    method: 'POST',
    body,
    headers: { 'Content-Type': 'application/json' },
  });
  return { status: response.status, body: await response.text() };
}

describe('startHookServer over HTTP', () => {
  it('listens on 127.0.0.1 at a random port and the given path', async () => {
    const { url, port } = await serve({ path: '/v1/hook' });
    expect(port).toBeGreaterThan(0);
    expect(url).toBe(`http://127.0.0.1:${port}/v1/hook`);
  });

  it('answers 404 on other paths and ignores the query on its own', async () => {
    const { port } = await serve({ path: '/v1' });
    expect(await post(`http://127.0.0.1:${port}/v2`, '{}')).toEqual({
      status: 404,
      body: '{"message":"no hook at /v2; the hook path is /v1","permanent":false,"continue":false}',
    });
    const finalize = JSON.stringify({
      formFactor: 'deployment',
      phase: 'finalize',
      object: { apiVersion: 'v1', kind: 'X', metadata: {} },
    });
    expect(await post(`http://127.0.0.1:${port}/v1?attempt=2`, finalize)).toEqual({ status: 204, body: '' });
  });

  it('answers 405 with Allow to a GET', async () => {
    const { url } = await serve({});
    const response = await fetch(url);
    expect([response.status, response.headers.get('allow')]).toEqual([405, 'POST']);
  });

  it('answers 400 to an invalid request', async () => {
    const { url } = await serve({});
    expect(await post(url, '{"phase": "finalize"}')).toEqual({
      status: 400,
      body: '{"message":"invalid request: formFactor is required","permanent":true,"continue":false}',
    });
  });

  it('answers 413 to a request over the limit', async () => {
    const { url } = await serve({ maxRequestBytes: 10 });
    expect(await post(url, '{"phase": "finalize"}')).toEqual({
      status: 413,
      body: '{"message":"request body larger than 10 bytes","permanent":true,"continue":false}',
    });
  });

  it('fails to start on a port in use', async () => {
    const { port } = await serve({});
    await expect(startHookServer({ port })).rejects.toThrow('EADDRINUSE');
  });
});

describe('round trip: hook client and SDK', () => {
  it('pre-reconcile: the handler sees the request and its answer reaches the client', async () => {
    const { url } = await serve({
      preReconcile: (request) => ({
        object: {
          status: { seen: `${request.phase} ${request.formFactor} ${request.object.metadata.name}` },
        },
        children: { ...request.children, deployment: { ...deployment, spec: { replicas: 7 } } },
      }),
    });
    client = createHookClient();
    expect(await client.call(preReconcileCall(url))).toEqual({
      ok: true,
      object: { status: { seen: 'pre-reconcile deployment orders' } },
      children: { deployment: { ...deployment, spec: { replicas: 7 } }, service },
    });
  });

  it('finalize: a refusal reaches the client as the §6.4 message', async () => {
    const { url } = await serve({
      finalize: () => {
        throw new HookError('waiting for condition CleanedUp', { status: 409 });
      },
    });
    client = createHookClient();
    expect(await client.call(finalizeCall(url))).toEqual({
      ok: false,
      message: 'finalize hook: HTTP 409: waiting for condition CleanedUp',
      permanent: false,
      continue: false,
      transient: true,
      outcome: 'error-answer',
      status: 409,
    });
  });

  it('Retry-After and permanent reach the client', async () => {
    const { url } = await serve({
      preReconcile: () => {
        throw new HookError('quota service unreachable', {
          status: 503,
          permanent: true,
          retryAfterSeconds: 30,
        });
      },
    });
    client = createHookClient();
    expect(await client.call(preReconcileCall(url))).toEqual({
      ok: false,
      message: 'pre-reconcile hook: HTTP 503: quota service unreachable',
      permanent: false,
      continue: false,
      transient: true,
      outcome: 'error-answer',
      retryAfterMs: 30_000,
      status: 503,
    });
  });

  it('the object form of formFactor, on both sides', async () => {
    const { url } = await serve({
      formFactorFormat: 'object',
      preReconcile: (request) => ({ object: { status: { ff: request.formFactor } } }),
    });
    client = createHookClient({ formFactorFormat: 'object' });
    expect(await client.call(preReconcileCall(url, { formFactor: 'ksvc', children: {} }))).toEqual({
      ok: true,
      object: { status: { ff: 'ksvc' } },
    });
  });

  it('a client in the other format gets a permanent 400', async () => {
    const { url } = await serve({ formFactorFormat: 'object' });
    client = createHookClient();
    expect(await client.call(finalizeCall(url))).toEqual({
      ok: false,
      message: 'finalize hook: HTTP 400: invalid request: formFactor must be object',
      permanent: true,
      continue: false,
      transient: false,
      outcome: 'error-answer',
      status: 400,
    });
  });
});
