/**
 * Discovery for every registration, against the in-memory API server: asked once and shared, asked
 * again after a CRD changed what is served, and after a discovery that failed (docs/spec/registration.md §4).
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startApiServer, type InMemoryApiServer } from '@scoby/in-memory-apiserver';
import { DynamicClient, RequestTimeoutError } from '@scoby/controller-runtime';
import { discoverGroupVersions, ServedGroupVersions } from '../../src/registration/served-group-versions.ts';

let server: InMemoryApiServer;
let client: DynamicClient;

beforeAll(async () => {
  server = await startApiServer();
  client = new DynamicClient(server.kubeConfig(), { requestTimeoutMs: 300 });
});
afterAll(async () => {
  client.close();
  await server.stop();
});
beforeEach(() => {
  server.faults.reset();
  server.requestLog.clear();
});

function discoveries(): string[] {
  return server.requestLog
    .entries()
    .map((entry) => entry.path)
    .filter((path) => path === '/api' || path === '/apis');
}

describe('ServedGroupVersions', () => {
  it('asks discovery once for every caller, until a CRD changes what is served', async () => {
    const served = new ServedGroupVersions(() => discoverGroupVersions(client));
    const [first, second] = await Promise.all([served.get(), served.get()]);
    expect(second).toBe(first);
    expect(first.has('v1')).toBe(true);
    expect(first.has('apps/v1')).toBe(true);
    expect(await served.get()).toBe(first);
    expect(discoveries()).toEqual(['/api', '/apis']);

    served.forget();
    expect(await served.get()).not.toBe(first);
    expect(discoveries()).toEqual(['/api', '/apis', '/api', '/apis']);
  });

  it('does not keep a discovery that failed: the next call asks the API server again', async () => {
    const served = new ServedGroupVersions(() => discoverGroupVersions(client));
    const heal = server.faults.blackHole();
    await expect(served.get()).rejects.toBeInstanceOf(RequestTimeoutError);
    heal();
    server.requestLog.clear();

    const answer = await served.get();
    expect(answer.has('apps/v1')).toBe(true);
    expect(discoveries()).toEqual(['/api', '/apis']);
  });

  it('keeps a newer discovery when an older one, forgotten meanwhile, fails', async () => {
    let calls = 0;
    let failFirst: (error: Error) => void = () => undefined;
    const served = new ServedGroupVersions(() => {
      calls += 1;
      if (calls === 1) return new Promise((_, reject) => (failFirst = reject));
      return Promise.resolve(new Set(['v1']));
    });
    const older = served.get();
    served.forget();
    const newer = await served.get();
    failFirst(new Error('socket hang up'));
    await expect(older).rejects.toThrow('socket hang up');
    expect(await served.get()).toBe(newer);
    expect(calls).toBe(2);
  });
});
