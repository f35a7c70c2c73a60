/** A broken hook: answers every request 200 with a body that is not JSON. */
import { createServer } from 'node:http';

export interface GarbageHook {
  url: string;
  /** Every request it answered, as `METHOD path`. */
  requests: string[];
  close(): Promise<void>;
}

/** Listens on `host` (where the controller reaches it: see hookHost()). */
export async function startGarbageHook(host: string, body = 'this is not JSON {'): Promise<GarbageHook> {
  const requests: string[] = [];
  const server = createServer((request, response) => {
    requests.push(`${request.method} ${request.url}`);
    request.resume();
    request.on('end', () => response.writeHead(200, { 'Content-Type': 'text/plain' }).end(body));
  });
  await new Promise<void>((resolve) => server.listen(0, host, resolve));
  const address = server.address();
  const port = typeof address === 'object' && address !== null ? address.port : 0;
  return {
    url: `http://${host}:${port}/`,
    requests,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
