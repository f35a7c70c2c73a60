import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { createServer as createListener, type AddressInfo, type Server } from 'node:net';
import type { Registry } from 'prom-client';

export interface OpsServerOptions {
  port: number;
  host?: string;
  /**
   * A listener bound beforehand (bindOpsPort): the server takes it over and port and host are not
   * used. A program that must not start anything while its port is taken binds first.
   */
  listener?: Server;
  registry: Registry;
  /** What keeps the process from being healthy, one sentence each; /healthz fails while there is any. */
  healthProblems?: () => readonly string[];
  /** What is wrong without being the process's problem (a stalled registration): listed after `ok` in /healthz. */
  healthNotes?: () => readonly string[];
}

export interface OpsServer {
  /** The bound port (useful with port 0). */
  readonly port: number;
  /** What /readyz answers from now on: the process decides (informers synced, leader election healthy). */
  setReady(ready: boolean): void;
  close(): Promise<void>;
}

/**
 * The operations endpoint: /metrics (Prometheus text), /healthz and /livez (the same check: 200
 * unless the process reports a problem, e.g. a wedged work queue: then 500 naming it, so a kubelet
 * restarts the process; notes that are no such problem follow the 200's `ok`, one a line) and
 * /readyz (200 once set ready, 503 before and after).
 */
export async function startOpsServer(options: OpsServerOptions): Promise<OpsServer> {
  let ready = false;
  const reply = (response: ServerResponse, status: number, contentType: string, body: string) => {
    response.writeHead(status, { 'Content-Type': contentType });
    response.end(body);
  };
  const handle = async (request: IncomingMessage, response: ServerResponse) => {
    const path = new URL(request.url ?? '/', 'http://ops').pathname;
    if (path === '/metrics') {
      reply(response, 200, options.registry.contentType, await options.registry.metrics());
    } else if (path === '/healthz' || path === '/livez') {
      const problems = options.healthProblems?.() ?? [];
      const notes = options.healthNotes?.() ?? [];
      if (problems.length === 0)
        reply(response, 200, 'text/plain; charset=utf-8', ['ok', ...notes, ''].join('\n'));
      else reply(response, 500, 'text/plain; charset=utf-8', `${problems.join('\n')}\n`);
    } else if (path === '/readyz') {
      reply(response, ready ? 200 : 503, 'text/plain; charset=utf-8', ready ? 'ok\n' : 'not ready\n');
    } else {
      reply(response, 404, 'text/plain; charset=utf-8', 'not found\n');
    }
  };
  const server = createServer((request, response) => {
    handle(request, response).catch((error: unknown) => {
      reply(
        response,
        500,
        'text/plain; charset=utf-8',
        `${error instanceof Error ? error.message : String(error)}\n`,
      );
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    const listening = () => {
      server.off('error', reject);
      resolve();
    };
    if (options.listener) server.listen(options.listener, listening);
    else server.listen(options.port, options.host, listening);
  });
  return {
    port: (server.address() as AddressInfo).port,
    setReady: (value) => {
      ready = value;
    },
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.close((error) => (error ? reject(error) : resolve()));
        server.closeAllConnections();
      }),
  };
}

/** Binds the ops address now, for startOpsServer's `listener`; rejects as listen does (EADDRINUSE). */
export async function bindOpsPort(port: number, host?: string): Promise<Server> {
  const listener = createListener();
  await new Promise<void>((resolve, reject) => {
    listener.once('error', reject);
    listener.listen(port, host, () => {
      listener.off('error', reject);
      resolve();
    });
  });
  return listener;
}
