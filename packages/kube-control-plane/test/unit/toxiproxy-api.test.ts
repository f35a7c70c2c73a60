/**
 * Requests to toxiproxy's API. Its server answers a request that outlasts its limit with Go's
 * http.TimeoutHandler page (503); on a loaded machine POST /reset did, which ended a fault-bench run.
 */
import { once } from 'node:events';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { callToxiproxy } from '../../src/toxiproxy.ts';

const GO_TIMEOUT_PAGE = '<html><head><title>Timeout</title></head><body><h1>Timeout</h1></body></html>';

let server: Server | undefined;
afterEach(async () => {
  server?.close();
  server = undefined;
});

/** An API answering each request with the next of `answers` (the last one repeated), and what it was sent. */
async function api(answers: Array<{ status: number; body: string }>) {
  const requests: string[] = [];
  server = createServer((request, response) => {
    requests.push(`${request.method} ${request.url}`);
    const answer = answers[Math.min(requests.length - 1, answers.length - 1)]!;
    response.writeHead(answer.status, { 'Content-Type': 'text/html' }).end(answer.body);
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, requests };
}

describe('a request to toxiproxy’s API', () => {
  it('is sent again after the API’s timeout answer when it is idempotent', async () => {
    const { url, requests } = await api([
      { status: 503, body: GO_TIMEOUT_PAGE },
      { status: 204, body: '' },
    ]);
    await expect(callToxiproxy(url, 'POST', '/reset', undefined, { idempotent: true })).resolves.toBe(
      undefined,
    );
    expect(requests).toEqual(['POST /reset', 'POST /reset']);
  });

  it('gives up after three timeout answers, saying what it got', async () => {
    const { url, requests } = await api([{ status: 503, body: GO_TIMEOUT_PAGE }]);
    await expect(callToxiproxy(url, 'POST', '/reset', undefined, { idempotent: true })).rejects.toThrow(
      `toxiproxy POST /reset answered 503: ${GO_TIMEOUT_PAGE}`,
    );
    expect(requests).toHaveLength(3);
  });

  it('is sent once when it is not idempotent, or when the answer is another failure', async () => {
    const timedOut = await api([{ status: 503, body: GO_TIMEOUT_PAGE }]);
    await expect(callToxiproxy(timedOut.url, 'POST', '/proxies/kube/toxics', {})).rejects.toThrow(
      'answered 503',
    );
    expect(timedOut.requests).toEqual(['POST /proxies/kube/toxics']);
    server?.close();

    const refused = await api([{ status: 409, body: 'toxic already exists' }]);
    await expect(
      callToxiproxy(refused.url, 'POST', '/reset', undefined, { idempotent: true }),
    ).rejects.toThrow('toxiproxy POST /reset answered 409: toxic already exists');
    expect(refused.requests).toEqual(['POST /reset']);
  });
});
