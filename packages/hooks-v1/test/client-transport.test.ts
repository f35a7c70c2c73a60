import { afterEach, describe, expect, it } from 'vitest';
import { createHookClient, type HookClient, type HookResult } from '../src/index.ts';
import { finalizeCall, preReconcileCall } from './support/fixtures.ts';
import {
  startRawServer,
  startScriptedServer,
  unusedPort,
  type RawServer,
  type ScriptedServer,
} from './support/servers.ts';

let server: RawServer | ScriptedServer | undefined;
let client: HookClient | undefined;

afterEach(async () => {
  client?.close();
  await server?.close();
  server = client = undefined;
});

const transient = { ok: false, permanent: false, continue: false, transient: true };

async function timed(call: () => Promise<HookResult>): Promise<{ result: HookResult; elapsedMs: number }> {
  const started = performance.now();
  const result = await call();
  return { result, elapsedMs: performance.now() - started };
}

describe('timeouts (§2)', () => {
  it('a server that never answers: fails after the configured time, within 100 ms', async () => {
    const silent = (server = await startRawServer(() => undefined));
    const hookClient = (client = createHookClient());
    const { result, elapsedMs } = await timed(() =>
      hookClient.call(preReconcileCall(silent.url, { timeoutMs: 300 })),
    );
    expect(result).toEqual({
      ...transient,
      outcome: 'timeout',
      message: `pre-reconcile hook: request to ${silent.url} timed out after 0.3s`,
    });
    expect(elapsedMs).toBeGreaterThanOrEqual(295);
    expect(elapsedMs).toBeLessThan(400);
  });

  it('the timeout covers the body: headers then a stalled body', async () => {
    const stalling = (server = await startRawServer((socket) => {
      socket.write('HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{"obj');
    }));
    const hookClient = (client = createHookClient());
    const { result, elapsedMs } = await timed(() =>
      hookClient.call(finalizeCall(stalling.url, { timeoutMs: 500 })),
    );
    expect(result).toEqual({
      ...transient,
      outcome: 'timeout',
      message: `finalize hook: request to ${stalling.url} timed out after 0.5s`,
    });
    expect(elapsedMs).toBeGreaterThanOrEqual(495);
    expect(elapsedMs).toBeLessThan(600);
  });

  it('a timeout beyond the 24.8 days of a Node timer (P30D) lets a call answered after 200 ms succeed', async () => {
    server = await startScriptedServer((response) => {
      setTimeout(() => response.end('{"object": {"status": {"note": "late"}}}'), 200);
    });
    client = createHookClient();
    const thirtyDaysMs = 30 * 24 * 3600 * 1000;
    const { result, elapsedMs } = await timed(() =>
      client!.call(preReconcileCall(server!.url, { timeoutMs: thirtyDaysMs })),
    );
    expect(result).toEqual({ ok: true, object: { status: { note: 'late' } } });
    expect(elapsedMs).toBeGreaterThanOrEqual(195);
  });

  it('formats whole seconds without decimals', async () => {
    server = await startRawServer(() => undefined);
    client = createHookClient();
    const result = await client.call(preReconcileCall(server.url, { timeoutMs: 1000 }));
    expect(result).toEqual({
      ...transient,
      outcome: 'timeout',
      message: `pre-reconcile hook: request to ${server.url} timed out after 1s`,
    });
  });
});

describe('transport failures (§6.4)', () => {
  it('connection refused', async () => {
    const url = `http://127.0.0.1:${await unusedPort()}/`;
    client = createHookClient();
    expect(await client.call(preReconcileCall(url))).toEqual({
      ...transient,
      outcome: 'transport-error',
      message: `pre-reconcile hook: request to ${url} failed: connect ECONNREFUSED ${url.slice(7, -1)}`,
    });
  });

  it('connection reset in the middle of the body', async () => {
    server = await startRawServer((socket) => {
      socket.write('HTTP/1.1 200 OK\r\nContent-Length: 100\r\n\r\n{"object":', () =>
        socket.resetAndDestroy(),
      );
    });
    client = createHookClient();
    const result = await client.call(preReconcileCall(server.url));
    expect(result).toEqual({
      ...transient,
      outcome: 'transport-error',
      message: `pre-reconcile hook: request to ${server.url} failed: connection broke before the response was complete (ECONNRESET)`,
    });
  });

  it('connection closed before any answer', async () => {
    server = await startRawServer((socket) => socket.end());
    client = createHookClient();
    expect(await client.call(preReconcileCall(server.url))).toEqual({
      ...transient,
      outcome: 'transport-error',
      message: `pre-reconcile hook: request to ${server.url} failed: socket hang up`,
    });
  });

  it('an oversized body announced by Content-Length is abandoned', async () => {
    server = await startScriptedServer((response) => {
      response.writeHead(200, { 'Content-Length': '65' });
      response.end(`{"object": {"status": {"note": "${'x'.repeat(29)}"}}}`);
    });
    client = createHookClient({ maxResponseBytes: 64 });
    expect(await client.call(preReconcileCall(server.url))).toEqual({
      ...transient,
      outcome: 'transport-error',
      message: `pre-reconcile hook: request to ${server.url} failed: response body larger than 64 bytes`,
    });
  });

  it('an oversized chunked body is abandoned once the limit is passed, also for error answers', async () => {
    server = await startScriptedServer((response) => {
      response.writeHead(500);
      response.write('x'.repeat(40));
      response.end('y'.repeat(40));
    });
    client = createHookClient({ maxResponseBytes: 64 });
    expect(await client.call(preReconcileCall(server.url))).toEqual({
      ...transient,
      outcome: 'transport-error',
      message: `pre-reconcile hook: request to ${server.url} failed: response body larger than 64 bytes`,
    });
  });

  describe('at the 16 MiB cap of §2', () => {
    const overCap = 16 * 1024 * 1024 + 1;
    const tooLarge = (url: string) =>
      `pre-reconcile hook: request to ${url} failed: response body larger than 16777216 bytes`;

    it('16 MiB + 1 byte announced by Content-Length: refused before any of the body is read', async () => {
      // Headers only, then silence: only the announced length can end the call before its timeout.
      server = await startRawServer((socket) => {
        socket.write(`HTTP/1.1 200 OK\r\nContent-Length: ${overCap}\r\n\r\n`);
      });
      client = createHookClient();
      const { result, elapsedMs } = await timed(() =>
        client!.call(preReconcileCall(server!.url, { timeoutMs: 10_000 })),
      );
      expect(result).toEqual({ ...transient, outcome: 'transport-error', message: tooLarge(server.url) });
      expect(elapsedMs).toBeLessThan(2000);
    });

    it('16 MiB + 1 byte without Content-Length: abandoned as the cap is passed, without waiting for the end', async () => {
      // Chunked, and never ended: only counting while streaming can end the call before its timeout.
      server = await startScriptedServer((response) => {
        response.writeHead(200, { 'Content-Type': 'application/json' });
        const piece = Buffer.alloc(1024 * 1024, 'x');
        for (let i = 0; i < 16; i++) response.write(piece);
        response.write('x');
      });
      client = createHookClient();
      const { result, elapsedMs } = await timed(() =>
        client!.call(preReconcileCall(server!.url, { timeoutMs: 10_000 })),
      );
      expect(result).toEqual({ ...transient, outcome: 'transport-error', message: tooLarge(server.url) });
      expect(elapsedMs).toBeLessThan(5000);
    });
  });

  it('a body of exactly the limit is read', async () => {
    const body = `{"object": {"status": {"note": "${'x'.repeat(28)}"}}}`;
    expect(body).toHaveLength(64);
    server = await startScriptedServer((response) => response.end(body));
    client = createHookClient({ maxResponseBytes: 64 });
    expect(await client.call(preReconcileCall(server.url))).toEqual({
      ok: true,
      object: { status: { note: 'x'.repeat(28) } },
    });
  });

  it('a TLS failure: https to a plain HTTP server', async () => {
    server = await startRawServer((socket) => socket.end('HTTP/1.1 400 Bad Request\r\n\r\n'));
    const url = server.url.replace('http:', 'https:');
    client = createHookClient();
    const result = await client.call(preReconcileCall(url));
    expect(result).toMatchObject({
      ...transient,
      outcome: 'transport-error',
      message: expect.stringMatching(
        /^pre-reconcile hook: request to https:\/\/127\.0\.0\.1:\d+\/ failed: .*SSL/,
      ),
    });
  });

  it.each([
    ['not a url', 'invalid URL'],
    ['ftp://127.0.0.1/hook', 'unsupported protocol "ftp:"'],
  ])('the URL %j', async (url, cause) => {
    client = createHookClient();
    expect(await client.call(preReconcileCall(url))).toEqual({
      ...transient,
      outcome: 'transport-error',
      message: `pre-reconcile hook: request to ${url} failed: ${cause}`,
    });
  });

  it('an object that cannot be serialised', async () => {
    client = createHookClient();
    const spec = { size: 1n };
    const result = await client.call(
      preReconcileCall('http://127.0.0.1:1/', {
        object: { apiVersion: 'v1', kind: 'X', metadata: {}, spec },
      }),
    );
    expect(result).toEqual({
      ...transient,
      outcome: 'transport-error',
      message:
        'pre-reconcile hook: request to http://127.0.0.1:1/ failed: Do not know how to serialize a BigInt',
    });
  });
});

describe('cutting calls (a stopping controller)', () => {
  it('cuts a call in flight and every later one with an AbortError, at once', async () => {
    const silent = (server = await startRawServer(() => undefined));
    const hookClient = (client = createHookClient());
    const started = performance.now();
    const waiting = hookClient.call(preReconcileCall(silent.url, { timeoutMs: 600_000 }));
    await new Promise((resolve) => setTimeout(resolve, 100));
    hookClient.cutCalls();
    const cut = await waiting.then(
      () => undefined,
      (error: unknown) => error as Error,
    );
    expect(cut).toMatchObject({
      name: 'AbortError',
      message: `the pre-reconcile call to ${silent.url} was cut: the controller is stopping`,
    });
    expect(performance.now() - started).toBeLessThan(5_000);
    await expect(hookClient.call(finalizeCall(silent.url))).rejects.toMatchObject({ name: 'AbortError' });
  });
});
