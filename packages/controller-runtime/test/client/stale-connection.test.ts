/**
 * A server closes idle keep-alive connections; a request the client sends on one just as it closes is
 * reset before any handler saw it. The client sends such a request once more on a new connection, and
 * only such a request: a reset on a fresh connection is an answer of sorts and reaches the caller.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { KubeConfig } from '@kubernetes/client-node';
import { afterEach, describe, expect, it } from 'vitest';
import { DynamicClient } from '../../src/client/dynamic-client.ts';

let server: http.Server | undefined;
let client: DynamicClient | undefined;
afterEach(async () => {
  client?.close();
  await new Promise((resolve) => (server ? server.close(resolve) : resolve(undefined)));
  server = undefined;
});

/** Answers the first `answered` requests of each connection with `{}` and resets the connection on the next. */
async function serverAnswering(answered: number): Promise<{ requests: string[]; url: string }> {
  const requests: string[] = [];
  const perSocket = new WeakMap<object, number>();
  server = http.createServer((request, response) => {
    const count = (perSocket.get(request.socket) ?? 0) + 1;
    perSocket.set(request.socket, count);
    requests.push(`${request.method} ${request.url} #${count}`);
    if (count > answered) {
      request.socket.destroy();
      return;
    }
    response.setHeader('Content-Type', 'application/json');
    response.end('{}');
  });
  await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
  return { requests, url: `http://127.0.0.1:${(server!.address() as AddressInfo).port}` };
}

function clientFor(url: string): DynamicClient {
  const kubeConfig = new KubeConfig();
  kubeConfig.loadFromOptions({
    clusters: [{ name: 'c', server: url, skipTLSVerify: true }],
    users: [{ name: 'u', token: 't' }],
    contexts: [{ name: 'x', cluster: 'c', user: 'u' }],
    currentContext: 'x',
  });
  client = new DynamicClient(kubeConfig);
  return client;
}

describe('a reset connection', () => {
  it('that was reused is tried once more on a new connection', async () => {
    const { requests, url } = await serverAnswering(1);
    const dynamic = clientFor(url);
    await dynamic.request('GET', '/api/v1/namespaces/default/configmaps/a');
    await dynamic.request('GET', '/api/v1/namespaces/default/configmaps/b');
    expect(requests).toEqual([
      'GET /api/v1/namespaces/default/configmaps/a #1',
      'GET /api/v1/namespaces/default/configmaps/b #2',
      'GET /api/v1/namespaces/default/configmaps/b #1',
    ]);
  });

  it('that was new reaches the caller, sent once', async () => {
    const { requests, url } = await serverAnswering(0);
    const failure = await clientFor(url)
      .request('GET', '/api/v1/namespaces/default/configmaps/a')
      .catch((error: unknown) => error as NodeJS.ErrnoException);
    expect((failure as NodeJS.ErrnoException).code).toBe('ECONNRESET');
    expect(requests).toEqual(['GET /api/v1/namespaces/default/configmaps/a #1']);
  });
});
