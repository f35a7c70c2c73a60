/**
 * The suite's client against a server that answers as kube-apiserver does moments after a CRD is
 * established: its group version's discovery is "404 page not found" in plain text, then served.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { KubeConfig } from '@kubernetes/client-node';
import { afterEach, describe, expect, it } from 'vitest';
import { KubeApiError, KubeClient } from '../../src/kube/client.ts';
import { waitFor } from '../../src/wait.ts';

const servers: http.Server[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => new Promise((resolve) => server.close(resolve))));
});

async function clientOf(handler: http.RequestListener): Promise<{ client: KubeClient; requests: string[] }> {
  const requests: string[] = [];
  const server = http.createServer((request, response) => {
    requests.push(`${request.method ?? ''} ${request.url ?? ''}`);
    handler(request, response);
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const kubeConfig = new KubeConfig();
  kubeConfig.loadFromClusterAndUser(
    {
      name: 'test',
      server: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
      skipTLSVerify: true,
    },
    { name: 'test' },
  );
  return { client: new KubeClient(kubeConfig), requests };
}

function plainNotFound(response: http.ServerResponse): void {
  response.writeHead(404, { 'Content-Type': 'text/plain; charset=utf-8' });
  response.end('404 page not found\n');
}

const DISCOVERY = {
  kind: 'APIResourceList',
  groupVersion: 'widgets.example.dev/v1',
  resources: [{ name: 'widgets', kind: 'Widget', namespaced: true }],
};

describe('KubeClient', () => {
  it('reads a plain-text 404 as an API error with its text', async () => {
    const { client } = await clientOf((_request, response) => plainNotFound(response));
    const failure = await client
      .request('GET', '/apis/widgets.example.dev/v1/namespaces/a/widgets/b')
      .catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(KubeApiError);
    expect(failure).toMatchObject({
      code: 404,
      reason: '',
      message: 'GET /apis/widgets.example.dev/v1/namespaces/a/widgets/b: HTTP 404: 404 page not found\n',
    });
    client.close();
  });

  it('treats a group version whose discovery answers in plain text as not served yet, and applies once it is', async () => {
    let served = false;
    const { client, requests } = await clientOf((request, response) => {
      if (request.url === '/apis/widgets.example.dev/v1') {
        if (!served) {
          served = true;
          plainNotFound(response);
          return;
        }
        response.writeHead(200, { 'Content-Type': 'application/json' });
        response.end(JSON.stringify(DISCOVERY));
        return;
      }
      response.writeHead(200, { 'Content-Type': 'application/json' });
      response.end(
        JSON.stringify({
          apiVersion: 'widgets.example.dev/v1',
          kind: 'Widget',
          metadata: { name: 'b', namespace: 'a' },
        }),
      );
    });
    const widget = {
      apiVersion: 'widgets.example.dev/v1',
      kind: 'Widget',
      metadata: { name: 'b', namespace: 'a' },
    };
    const applied = await waitFor('the widget to be accepted', () => client.apply(widget), {
      timeoutMs: 5_000,
      intervalMs: 10,
      retryOn: (error) => error instanceof KubeApiError && error.code === 404,
    });
    expect(applied.metadata).toEqual({ name: 'b', namespace: 'a' });
    expect(requests).toEqual([
      'GET /apis/widgets.example.dev/v1',
      'GET /apis/widgets.example.dev/v1',
      'PATCH /apis/widgets.example.dev/v1/namespaces/a/widgets/b?fieldManager=scoby-e2e&force=true',
    ]);
    client.close();
  });

  it('fails a successful answer that is not JSON instead of returning it as an object', async () => {
    const { client } = await clientOf((_request, response) => {
      response.writeHead(200, { 'Content-Type': 'text/plain' });
      response.end('ok');
    });
    await expect(client.request('GET', '/readyz')).rejects.toThrow(
      'GET /readyz: HTTP 200 with a body that is not JSON: ok',
    );
    client.close();
  });
});
