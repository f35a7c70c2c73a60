import net from 'node:net';
import type { AddressInfo } from 'node:net';
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

/**
 * A hook server that answers the first request of each connection and closes the connection, without
 * answering, on any later request of it: a kept-alive connection the server has dropped (a restart,
 * its idle timeout) as the client sends on it.
 */
async function droppingServer(
  options: { stopOnDrop?: boolean } = {},
): Promise<{ url: string; connections: () => number; close: () => void }> {
  const sockets = new Set<net.Socket>();
  let connections = 0;
  const tcp = net.createServer((socket) => {
    connections += 1;
    const index = connections;
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => undefined);
    let requests = 0;
    socket.on('data', () => {
      requests += 1;
      if (requests > 1) {
        if (options.stopOnDrop) tcp.close();
        socket.destroy();
        return;
      }
      const body = JSON.stringify({ connection: index });
      socket.write(
        `HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\nConnection: keep-alive\r\n\r\n${body}`,
      );
    });
  });
  await new Promise<void>((resolve) => tcp.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(tcp.address() as AddressInfo).port}/`,
    connections: () => connections,
    close: () => {
      for (const socket of sockets) socket.destroy();
      tcp.close();
    },
  };
}

describe('a kept-alive connection the hook server closed (§2)', () => {
  it('costs nothing: the request is sent once more on a new connection', async () => {
    const dropping = await droppingServer();
    transport = createUrlTransport(dropping.url);
    try {
      expect(await transport.send('{}', { timeoutMs: 5000 })).toMatchObject({
        kind: 'response',
        body: '{"connection":1}',
      });
      expect(await transport.send('{}', { timeoutMs: 5000 })).toMatchObject({
        kind: 'response',
        body: '{"connection":2}',
      });
      expect(dropping.connections()).toBe(2);
    } finally {
      dropping.close();
    }
  });

  it('is a failure once the new connection is refused too', async () => {
    // The server drops the kept-alive connection as the second request arrives, and stops listening.
    const dropping = await droppingServer({ stopOnDrop: true });
    transport = createUrlTransport(dropping.url);
    try {
      await transport.send('{}', { timeoutMs: 5000 });
      const outcome = await transport.send('{}', { timeoutMs: 5000 });
      const port = new URL(dropping.url).port;
      expect(outcome).toEqual({ kind: 'failed', cause: `connect ECONNREFUSED 127.0.0.1:${port}` });
      expect(dropping.connections()).toBe(1);
    } finally {
      dropping.close();
    }
  });
});
