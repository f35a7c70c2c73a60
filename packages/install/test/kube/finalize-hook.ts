/**
 * A hook with the `finalize` capability (docs/spec/hooks-v1.md §7) on 127.0.0.1: it records every call
 * and refuses (HTTP 500) to let go of the instances it is told to hold.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface FinalizeCall {
  phase: string;
  name: string;
  /** Epoch milliseconds. */
  at: number;
}

export interface FinalizeHook {
  readonly url: string;
  readonly calls: FinalizeCall[];
  close(): Promise<void>;
}

export async function startFinalizeHook(hold: string[]): Promise<FinalizeHook> {
  const calls: FinalizeCall[] = [];
  const server = http.createServer((request, response) => {
    let body = '';
    request.on('data', (chunk: Buffer) => (body += chunk.toString()));
    request.on('end', () => {
      const { phase, object } = JSON.parse(body) as { phase: string; object: { metadata: { name: string } } };
      calls.push({ phase, name: object.metadata.name, at: Date.now() });
      const held = phase === 'finalize' && hold.includes(object.metadata.name);
      response.writeHead(held ? 500 : 204, held ? { 'Content-Type': 'application/json' } : {});
      response.end(held ? JSON.stringify({ message: 'still cleaning up' }) : undefined);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/v1`,
    calls,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
