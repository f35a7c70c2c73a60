/** Real servers on 127.0.0.1 for the client tests, closed by the caller. */
import http from 'node:http';
import net from 'node:net';
import type { AddressInfo } from 'node:net';

export interface RecordedRequest {
  method: string;
  url: string;
  headers: http.IncomingHttpHeaders;
  body: string;
}

export interface ScriptedServer {
  url: string;
  requests: RecordedRequest[];
  /** How many TCP connections the server accepted. */
  connections(): number;
  close(): Promise<void>;
}

/** An HTTP server answering every request with `answer`, after recording it. */
export async function startScriptedServer(
  answer: (response: http.ServerResponse, request: RecordedRequest) => void,
): Promise<ScriptedServer> {
  const requests: RecordedRequest[] = [];
  let connections = 0;
  const server = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const recorded = {
        method: request.method ?? '',
        url: request.url ?? '',
        headers: request.headers,
        body: Buffer.concat(chunks).toString('utf8'),
      };
      requests.push(recorded);
      answer(response, recorded);
    });
  });
  server.on('connection', () => connections++);
  const port = await listen(server);
  return {
    url: `http://127.0.0.1:${port}/hook?x=1`,
    requests,
    connections: () => connections,
    close: () => closeServer(server, () => server.closeAllConnections()),
  };
}

/** Answers with the given status, headers and body text. */
export function answerWith(
  status: number,
  body = '',
  headers: Record<string, string> = {},
): (response: http.ServerResponse) => void {
  return (response) => {
    response.writeHead(status, headers);
    response.end(body);
  };
}

export interface RawServer {
  url: string;
  close(): Promise<void>;
}

/** A TCP server whose sockets are handed to `onRequest` once the request has arrived. */
export async function startRawServer(onRequest: (socket: net.Socket) => void): Promise<RawServer> {
  const sockets = new Set<net.Socket>();
  const server = net.createServer((socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.once('data', () => onRequest(socket));
    socket.on('error', () => undefined);
  });
  const port = await listen(server);
  return {
    url: `http://127.0.0.1:${port}/`,
    close: () => closeServer(server, () => sockets.forEach((socket) => socket.destroy())),
  };
}

/** A port nothing listens on: bound once, then released. */
export async function unusedPort(): Promise<number> {
  const server = net.createServer();
  const port = await listen(server);
  await closeServer(server, () => undefined);
  return port;
}

function listen(server: net.Server): Promise<number> {
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () => resolve((server.address() as AddressInfo).port)),
  );
}

function closeServer(server: net.Server, dropConnections: () => void): Promise<void> {
  return new Promise((resolve) => {
    server.close(() => resolve());
    dropConnections();
  });
}
