/**
 * The throttle fault: kube-apiserver's answer under load (priority and fairness), a 429 Status with
 * `Retry-After` and `details.retryAfterSeconds`, for one user's requests until stopped; watches are
 * not throttled.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startApiServer, type InMemoryApiServer } from '../../src/index.ts';

let server: InMemoryApiServer;

beforeEach(async () => {
  server = await startApiServer();
});
afterEach(() => server.stop());

function get(user: string, path: string): Promise<Response> {
  return fetch(new URL(path, server.url), { headers: { Authorization: `Bearer ${user}` } });
}

describe('faults.throttle', () => {
  it("answers the user's requests 429 with Retry-After until stopped, and no one else's", async () => {
    const stop = server.faults.throttle({ user: 'busy' }, { retryAfterSeconds: 5 });
    const refused = await get('busy', '/api/v1/namespaces');
    expect(refused.status).toBe(429);
    expect(refused.headers.get('retry-after')).toBe('5');
    expect(await refused.json()).toMatchObject({
      kind: 'Status',
      code: 429,
      reason: 'TooManyRequests',
      details: { retryAfterSeconds: 5 },
    });
    expect((await get('other', '/api/v1/namespaces')).status).toBe(200);
    const watch = await get('busy', '/api/v1/namespaces?watch=true&timeoutSeconds=1');
    expect(watch.status).toBe(200);
    await watch.body?.cancel();
    stop();
    expect((await get('busy', '/api/v1/namespaces')).status).toBe(200);
  });

  it('answers 503 when asked to', async () => {
    const stop = server.faults.throttle({}, { retryAfterSeconds: 1, code: 503 });
    const refused = await get('anyone', '/api/v1/namespaces');
    expect([refused.status, refused.headers.get('retry-after')]).toEqual([503, '1']);
    stop();
  });
});
