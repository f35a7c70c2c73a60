import { once } from 'node:events';
import {
  createServer as createHttpServer,
  get,
  type IncomingMessage,
  type Server as HttpServer,
} from 'node:http';
import { connect, createServer, type Server, type Socket } from 'node:net';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startFaultProxy, type FaultProxy } from '../../src/fault-proxy.ts';

/** An echo server that records what it received and the connections it saw. */
interface Echo {
  server: Server;
  port: number;
  received: () => string;
  sockets: Socket[];
}

async function startEcho(): Promise<Echo> {
  let received = '';
  const sockets: Socket[] = [];
  const server = createServer((socket) => {
    sockets.push(socket);
    socket.on('data', (chunk: Buffer) => {
      received += chunk.toString();
      socket.write(chunk);
    });
    socket.on('error', () => {});
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const port = (server.address() as { port: number }).port;
  return { server, port, received: () => received, sockets };
}

/** A client connection and everything it has read so far. */
async function dial(
  proxy: FaultProxy,
): Promise<{ socket: Socket; read: () => string; ended: Promise<void> }> {
  const socket = connect(proxy.port, proxy.host);
  let read = '';
  socket.on('data', (chunk: Buffer) => (read += chunk.toString()));
  socket.on('error', () => {});
  const ended = new Promise<void>((resolve) => socket.on('end', () => resolve()));
  await once(socket, 'connect');
  return { socket, read: () => read, ended };
}

async function eventually(what: string, probe: () => boolean, timeoutMs = 5000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!probe()) {
    if (Date.now() > deadline) throw new Error(`${what}: not within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

/** Long enough for loopback bytes to arrive if anything forwarded them. */
const settle = () => new Promise((resolve) => setTimeout(resolve, 200));

let echo: Echo;
let proxy: FaultProxy;

beforeEach(async () => {
  echo = await startEcho();
  proxy = await startFaultProxy({ host: '127.0.0.1', port: echo.port });
});

afterEach(async () => {
  await proxy.close();
  for (const socket of echo.sockets) socket.destroy();
  echo.server.close();
});

describe('the fault proxy', () => {
  it('forwards bytes both ways while healthy', async () => {
    expect(proxy.host).toBe('127.0.0.1');
    expect(proxy.port).not.toBe(echo.port);
    const client = await dial(proxy);
    client.socket.write('hello');
    await eventually('echo', () => client.read() === 'hello');
    expect(echo.received()).toBe('hello');
    expect(proxy.stats()).toEqual({ connections: 1, heldBytes: 0 });
  });

  it('moves no byte while partitioned and delivers what it kept, in order, at heal', async () => {
    const client = await dial(proxy);
    client.socket.write('a');
    await eventually('first echo', () => client.read() === 'a');
    proxy.partition();
    expect(proxy.partitioned).toBe(true);
    client.socket.write('b');
    client.socket.write('c');
    // The server side writes too: that direction is held as well.
    await eventually('one server connection', () => echo.sockets.length === 1);
    echo.sockets[0]!.write('!');
    await settle();
    expect(echo.received()).toBe('a');
    expect(client.read()).toBe('a');
    expect(proxy.stats()).toEqual({ connections: 1, heldBytes: 3 });

    proxy.heal();
    expect(proxy.partitioned).toBe(false);
    await eventually('kept bytes echoed', () => client.read() === 'a!bc');
    expect(echo.received()).toBe('abc');
    expect(proxy.stats().heldBytes).toBe(0);
  });

  it('holds a connection opened during the partition away from the server until heal', async () => {
    proxy.partition();
    const client = await dial(proxy);
    client.socket.write('held');
    await settle();
    expect(echo.sockets).toHaveLength(0);
    expect(proxy.stats()).toEqual({ connections: 1, heldBytes: 4 });
    proxy.heal();
    await eventually('held request echoed', () => client.read() === 'held');
    expect(echo.sockets).toHaveLength(1);
    expect(echo.received()).toBe('held');
  });

  it('drops at heal a connection its client closed during the partition, with what it sent', async () => {
    const open = await dial(proxy);
    await eventually('server connection', () => echo.sockets.length === 1);
    const serverSide = echo.sockets[0]!;
    const serverSideClosed = once(serverSide, 'close');
    proxy.partition();
    open.socket.write('cut off');
    open.socket.destroy();
    const fresh = await dial(proxy);
    fresh.socket.write('never');
    fresh.socket.end();
    await settle();
    proxy.heal();
    await serverSideClosed;
    await settle();
    expect(echo.received()).toBe('');
    expect(echo.sockets).toHaveLength(1);
    expect(proxy.stats()).toEqual({ connections: 0, heldBytes: 0 });
  });

  it('passes the server’s end to the client after the bytes kept before it', async () => {
    const client = await dial(proxy);
    await eventually('server connection', () => echo.sockets.length === 1);
    proxy.partition();
    echo.sockets[0]!.end('bye');
    await settle();
    expect(client.read()).toBe('');
    proxy.heal();
    await client.ended;
    expect(client.read()).toBe('bye');
  });

  it('carries HTTP requests, and a request cut off by its client’s timeout is not delivered later', async () => {
    const requests: string[] = [];
    const http: HttpServer = createHttpServer((request, response) => {
      requests.push(`${request.method} ${request.url}`);
      response.end('ok');
    });
    http.listen(0, '127.0.0.1');
    await once(http, 'listening');
    const httpProxy = await startFaultProxy({
      host: '127.0.0.1',
      port: (http.address() as { port: number }).port,
    });
    const fetchBody = (path: string, timeoutMs: number) =>
      new Promise<string>((resolve, reject) => {
        const request = get(
          { host: httpProxy.host, port: httpProxy.port, path, agent: false },
          (response: IncomingMessage) => {
            let body = '';
            response.on('data', (chunk: Buffer) => (body += chunk.toString()));
            response.on('end', () => resolve(body));
          },
        );
        request.setTimeout(timeoutMs, () => request.destroy(new Error('timed out')));
        request.on('error', reject);
      });
    try {
      expect(await fetchBody('/before', 2000)).toBe('ok');
      httpProxy.partition();
      await expect(fetchBody('/during', 200)).rejects.toThrow('timed out');
      const waiting = fetchBody('/across', 5000);
      await settle();
      httpProxy.heal();
      expect(await waiting).toBe('ok');
      expect(await fetchBody('/after', 2000)).toBe('ok');
      expect(requests).toEqual(['GET /before', 'GET /across', 'GET /after']);
    } finally {
      await httpProxy.close();
      http.close();
    }
  });

  it('close() stops listening and ends every connection', async () => {
    const client = await dial(proxy);
    const closed = once(client.socket, 'close');
    await proxy.close();
    await closed;
    await expect(dial(proxy)).rejects.toThrow(/ECONNREFUSED/);
  });
});
