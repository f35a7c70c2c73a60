/**
 * A hook whose every answer a test scripts: it records each request (parsed body, headers, time)
 * and answers with whatever the script returns, including never (a hanging hook). Built on node:http
 * rather than the hooks-v1 SDK so it can misbehave in ways the SDK would not allow.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { KubeObject } from '@scoby/kube-objects';

export interface HookRequestRecord {
  /** Path and query as requested. */
  target: string;
  method: string;
  headers: http.IncomingHttpHeaders;
  body: {
    formFactor: unknown;
    phase: 'pre-reconcile' | 'finalize';
    object: KubeObject;
    children?: Record<string, KubeObject>;
  };
  /** Epoch milliseconds when the request body was complete. */
  at: number;
}

export type HookReply =
  | { status: number; headers?: Record<string, string>; body?: unknown }
  /** Never answers; the connection is dropped when the hook closes. */
  | 'hang'
  /** Destroys the connection without an answer: the client sees a reset. */
  | 'reset';

export type HookScript = (request: HookRequestRecord) => HookReply | Promise<HookReply>;

export interface ScriptedHook {
  readonly url: string;
  readonly port: number;
  /** Every request received, in arrival order. */
  readonly requests: HookRequestRecord[];
  /** Requests of one phase, optionally for one instance name. */
  callsFor(phase: 'pre-reconcile' | 'finalize', instanceName?: string): HookRequestRecord[];
  /** Replaces the script for the following requests. */
  answerWith(script: HookScript): void;
  close(): Promise<void>;
}

/** 204 without a body: "no change" in pre-reconcile, "let it go" in finalize. */
export const NO_CHANGE: HookScript = () => ({ status: 204 });

export function errorReply(
  status: number,
  body: Record<string, unknown>,
  headers: Record<string, string> = {},
): HookReply {
  return { status, headers: { 'Content-Type': 'application/json', ...headers }, body };
}

/** Starts on 127.0.0.1; `port` lets a test bring a stopped hook back at the same address. */
export async function startScriptedHook(
  script: HookScript,
  options: { port?: number; path?: string } = {},
): Promise<ScriptedHook> {
  let current = script;
  const requests: HookRequestRecord[] = [];
  const server = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const record: HookRequestRecord = {
        target: request.url ?? '',
        method: request.method ?? '',
        headers: request.headers,
        body: JSON.parse(Buffer.concat(chunks).toString('utf8')) as HookRequestRecord['body'],
        at: Date.now(),
      };
      requests.push(record);
      void Promise.resolve(current(record)).then((reply) => {
        if (reply === 'hang') return;
        if (reply === 'reset') {
          request.socket.destroy();
          return;
        }
        const text =
          reply.body === undefined
            ? ''
            : typeof reply.body === 'string'
              ? reply.body
              : JSON.stringify(reply.body);
        response.writeHead(reply.status, reply.headers ?? {});
        response.end(text);
      });
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}${options.path ?? '/'}`,
    port,
    requests,
    callsFor: (phase, instanceName) =>
      requests.filter(
        (entry) =>
          entry.body.phase === phase &&
          (instanceName === undefined || entry.body.object.metadata.name === instanceName),
      ),
    answerWith(next) {
      current = next;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
