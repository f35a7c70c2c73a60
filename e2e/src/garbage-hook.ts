/** A broken hook: answers every request 200 with a body that is not JSON. */
import { createServer } from 'node:http';

export interface GarbageHook {
  url: string;
  close(): Promise<void>;
}

export async function startGarbageHook(body = 'this is not JSON {'): Promise<GarbageHook> {
  const server = createServer((request, response) => {
    request.resume();
    request.on('end', () => response.writeHead(200, { 'Content-Type': 'text/plain' }).end(body));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  const port = typeof address === 'object' && address !== null ? address.port : 0;
  return {
    url: `http://127.0.0.1:${port}/`,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
