import { afterEach, describe, expect, it } from 'vitest';
import { createUrlTransport, DEFAULT_USER_AGENT, type UrlTransport } from '../src/client-entry.ts';
import {
  startRawServer,
  startScriptedServer,
  type RawServer,
  type ScriptedServer,
} from './support/servers.ts';

let server: RawServer | ScriptedServer | undefined;
let transport: UrlTransport | undefined;

afterEach(async () => {
  transport?.close();
  await server?.close();
  server = transport = undefined;
});

describe('createUrlTransport: the client POST as a function (§2)', () => {
  it('posts the payload with the client headers and resolves with the raw answer', async () => {
    const scripted = (server = await startScriptedServer((response) => {
      response.writeHead(503, { 'Retry-After': '7' });
      response.end('{"message": "busy"}');
    }));
    transport = createUrlTransport(scripted.url);
    const outcome = await transport.send('{"phase": "finalize"}', { timeoutMs: 5000 });
    expect(outcome).toMatchObject({
      kind: 'response',
      status: 503,
      headers: { 'retry-after': '7' },
      body: '{"message": "busy"}',
    });
    expect(scripted.requests).toHaveLength(1);
    expect(scripted.requests[0]).toMatchObject({
      method: 'POST',
      url: '/hook?x=1',
      body: '{"phase": "finalize"}',
      headers: {
        'content-type': 'application/json',
        accept: 'application/json',
        'user-agent': DEFAULT_USER_AGENT,
      },
    });
  });

  it('times out after timeoutMs, and caps the answer size', async () => {
    server = await startRawServer(() => undefined);
    transport = createUrlTransport(server.url);
    expect(await transport.send('{}', { timeoutMs: 200 })).toEqual({ kind: 'timeout' });
    transport.close();
    await server.close();
    server = await startScriptedServer((response) => response.end('x'.repeat(2048)));
    transport = createUrlTransport(server.url, { maxResponseBytes: 1024 });
    expect(await transport.send('{}', { timeoutMs: 5000 })).toEqual({
      kind: 'failed',
      cause: 'response body larger than 1024 bytes',
    });
  });
});
