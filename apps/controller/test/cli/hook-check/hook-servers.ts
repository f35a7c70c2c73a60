/**
 * Real HTTP hooks for `scoby hook check`'s tests: the example hook's handlers behind the SDK's
 * dispatch, with one thing broken by `breakIt`.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
// eslint-disable-next-line @nx/enforce-module-boundaries -- the example hook app is a test fixture here, not a dependency of the controller
import { exampleHandlers } from '@scoby/example-hook';
import { dispatchHookRequest } from '@scoby/hooks-v1';

export interface Incoming {
  /** The parsed body's phase when it parses and names one of §3's two phases. */
  phase?: 'pre-reconcile' | 'finalize';
  body: string;
  /** The parsed body, when it parses. */
  json?: unknown;
}

/** Answers the request itself and returns true, or returns false to let the example hook answer. */
export type Breakage = (incoming: Incoming, response: http.ServerResponse) => boolean | Promise<boolean>;

export interface TestHook {
  url: string;
  close(): Promise<void>;
}

function parse(body: string): unknown {
  try {
    return JSON.parse(body);
  } catch {
    return undefined;
  }
}

export async function startTestHook(breakIt: Breakage = () => false): Promise<TestHook> {
  const handlers = exampleHandlers({ conditionType: 'HookChecked' });
  const server = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      void (async () => {
        const body = Buffer.concat(chunks).toString('utf8');
        const json = parse(body);
        const phase = (json as { phase?: unknown } | undefined)?.phase;
        const incoming: Incoming = {
          body,
          ...(json === undefined ? {} : { json }),
          ...(phase === 'pre-reconcile' || phase === 'finalize' ? { phase } : {}),
        };
        if (await breakIt(incoming, response)) return;
        const answer = await dispatchHookRequest(
          { method: request.method ?? '', pathname: '/', body },
          { ...handlers, path: '/', formFactorFormat: 'string' },
        );
        response.writeHead(answer.status, answer.headers);
        response.end(answer.body);
      })();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/`,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

export function answer(
  response: http.ServerResponse,
  status: number,
  body: string,
  headers: Record<string, string> = {},
): true {
  response.writeHead(status, { 'Content-Type': 'application/json', ...headers });
  response.end(body);
  return true;
}
