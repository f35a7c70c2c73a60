/** The SDK's HTTP shell around dispatchHookRequest. */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { dispatchHookRequest, errorAnswer, type HookAnswer, type HookHandlers } from './dispatch.ts';
import type { FormFactorFormat } from './types.ts';

export const DEFAULT_MAX_REQUEST_BYTES = 16 * 1024 * 1024;

export interface HookServerOptions extends HookHandlers {
  /** 0 (the default) picks a free port. */
  port?: number;
  /** Default 127.0.0.1. */
  host?: string;
  /** Default '/'. */
  path?: string;
  /** The `formFactor` shape accepted; handlers always see a string. Default 'string'. */
  formFactorFormat?: FormFactorFormat;
  /** Larger request bodies are answered with 413. Default 16 MiB. */
  maxRequestBytes?: number;
}

export interface HookServer {
  url: string;
  port: number;
  close(): Promise<void>;
}

export async function startHookServer(options: HookServerOptions = {}): Promise<HookServer> {
  const host = options.host ?? '127.0.0.1';
  const path = options.path ?? '/';
  const maxRequestBytes = options.maxRequestBytes ?? DEFAULT_MAX_REQUEST_BYTES;
  const dispatchOptions = { ...options, path, formFactorFormat: options.formFactorFormat ?? 'string' };

  const server = http.createServer((request, response) => {
    readBody(request, maxRequestBytes, async (body) => {
      if (body === undefined) {
        response.shouldKeepAlive = false;
        send(
          response,
          errorAnswer(413, { message: `request body larger than ${maxRequestBytes} bytes`, permanent: true }),
        );
        return;
      }
      const pathname = new URL(request.url ?? '/', 'http://hook').pathname;
      // The client going away before its answer (its timeout) tells the handler to stop.
      const gone = new AbortController();
      response.once('close', () => {
        if (!response.writableFinished) gone.abort();
      });
      send(
        response,
        await dispatchHookRequest(
          { method: request.method ?? '', pathname, body, signal: gone.signal },
          dispatchOptions,
        ),
      );
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, host, () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://${host.includes(':') ? `[${host}]` : host}:${port}${path}`,
    port,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

/** Calls back with the body, or undefined when it is over the limit; not at all if the client goes away. */
function readBody(
  request: http.IncomingMessage,
  maxBytes: number,
  then: (body: string | undefined) => void,
): void {
  const chunks: Buffer[] = [];
  let received = 0;
  const collect = (chunk: Buffer): void => {
    received += chunk.length;
    if (received <= maxBytes) {
      chunks.push(chunk);
      return;
    }
    request.off('data', collect);
    request.resume();
    then(undefined);
  };
  request.on('data', collect);
  request.on('end', () => {
    if (received <= maxBytes) then(Buffer.concat(chunks).toString('utf8'));
  });
}

function send(response: http.ServerResponse, answer: HookAnswer): void {
  response.writeHead(answer.status, answer.headers);
  response.end(answer.body);
}
