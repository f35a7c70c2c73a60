import http from 'node:http';
import { KubeConfig } from '@kubernetes/client-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { answerError } from '../../src/client/answer-error.ts';
import { ApiError, loadRefusal, serverRetryAfterMs } from '../../src/client/api-error.ts';
import { DynamicClient } from '../../src/client/dynamic-client.ts';
import { TokenBucket } from '../../src/client/rate-limiter.ts';

describe('Retry-After of a refusal for load', () => {
  it('reads delta-seconds and HTTP-dates; ignores what it cannot read', () => {
    expect(answerError(429, '', '5').retryAfterSeconds).toBe(5);
    expect(answerError(429, '', ' 0 ').retryAfterSeconds).toBe(0);
    const inTenSeconds = new Date(Date.now() + 10_000).toUTCString();
    expect(answerError(503, '', inTenSeconds).retryAfterSeconds).toBeGreaterThanOrEqual(9);
    expect(answerError(503, '', inTenSeconds).retryAfterSeconds).toBeLessThanOrEqual(10);
    expect(answerError(429, '', 'soon').retryAfterSeconds).toBeUndefined();
    expect(answerError(429, '', '').retryAfterSeconds).toBeUndefined();
    expect(answerError(429, '', '-3').retryAfterSeconds).toBeUndefined();
  });

  it('counts 429, and 503 with Retry-After, as refusals for load, through causes', () => {
    const throttled = new ApiError(429, 'TooManyRequests', 'slow down', 5);
    expect(loadRefusal(throttled)).toBe(throttled);
    expect(loadRefusal(new Error('wrapped', { cause: throttled }))).toBe(throttled);
    expect(loadRefusal(new ApiError(503, 'ServiceUnavailable', 'x', 1))).toBeDefined();
    expect(loadRefusal(new ApiError(503, 'ServiceUnavailable', 'x'))).toBeUndefined();
    expect(loadRefusal(new ApiError(500, 'InternalError', 'x', 1))).toBeUndefined();
    expect(serverRetryAfterMs(throttled)).toBe(5_000);
    expect(serverRetryAfterMs(new ApiError(429, 'TooManyRequests', 'x'))).toBeUndefined();
    expect(serverRetryAfterMs(new ApiError(429, 'TooManyRequests', 'x', 86_400))).toBe(1_000_000);
  });
});

describe('the client-side rate limit', () => {
  it('lets a burst through, then spaces requests at qps, in order', () => {
    let now = 0;
    const bucket = new TokenBucket({ qps: 10, burst: 3 }, () => now);
    expect([bucket.reserve(), bucket.reserve(), bucket.reserve()]).toEqual([0, 0, 0]);
    expect(bucket.reserve()).toBeCloseTo(100);
    expect(bucket.reserve()).toBeCloseTo(200);
    now = 1_000;
    // 1 s refilled 10 tokens, 2 were owed, the bucket holds at most 3.
    expect([bucket.reserve(), bucket.reserve(), bucket.reserve(), bucket.reserve()]).toEqual([0, 0, 0, 100]);
    expect(new TokenBucket({ qps: 0, burst: 1 }).reserve()).toBe(0);
  });

  let server: http.Server;
  let port = 0;
  const arrivals: number[] = [];
  beforeAll(async () => {
    server = http.createServer((request, response) => {
      arrivals.push(performance.now());
      response.setHeader('Content-Type', 'application/json');
      response.end('{}');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as { port: number }).port;
  });
  afterAll(() => new Promise((resolve) => server.close(resolve)));

  it('paces the requests of a DynamicClient and reports each wait', async () => {
    const kubeConfig = new KubeConfig();
    kubeConfig.loadFromOptions({
      clusters: [{ name: 'c', server: `http://127.0.0.1:${port}`, skipTLSVerify: true }],
      users: [{ name: 'u' }],
      contexts: [{ name: 'x', cluster: 'c', user: 'u' }],
      currentContext: 'x',
    });
    const waits: number[] = [];
    const client = new DynamicClient(kubeConfig, {
      rateLimit: { qps: 20, burst: 2 },
      onRateLimited: (_method, _host, waitedMs) => waits.push(waitedMs),
    });
    const started = performance.now();
    await Promise.all(Array.from({ length: 6 }, () => client.request('GET', '/version')));
    client.close();
    // 2 at once, then one every 50 ms: the sixth leaves at 200 ms.
    expect(arrivals.at(-1)! - started).toBeGreaterThanOrEqual(190);
    expect(waits.filter((wait) => wait > 0)).toHaveLength(4);
  });
});
