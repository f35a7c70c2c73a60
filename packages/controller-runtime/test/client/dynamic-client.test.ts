/**
 * The client's own limits: a request the API never answers is abandoned after its timeout, and
 * writes are refused (or cut off in flight) when the write fence says this process must not write.
 */
import { startApiServer, type InMemoryApiServer } from '@scoby/in-memory-apiserver';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DynamicClient, type ResourceRef } from '../../src/client/dynamic-client.ts';
import { RequestTimeoutError, WriteRefusedError } from '../../src/client/request-errors.ts';

const CONFIGMAPS: ResourceRef = { group: '', version: 'v1', resource: 'configmaps', namespaced: true };
const configMap = (name: string) => ({
  apiVersion: 'v1',
  kind: 'ConfigMap',
  metadata: { namespace: 'default', name },
});

let server: InMemoryApiServer;
const clients: DynamicClient[] = [];

function client(options: ConstructorParameters<typeof DynamicClient>[1] = {}): DynamicClient {
  const created = new DynamicClient(server.kubeConfig(), options);
  clients.push(created);
  return created;
}

beforeEach(async () => {
  server = await startApiServer();
});
afterEach(async () => {
  for (const created of clients.splice(0)) created.close();
  await server.stop();
});

async function failureOf(call: Promise<unknown>): Promise<Error> {
  try {
    await call;
  } catch (error) {
    return error as Error;
  }
  throw new Error('expected the call to fail');
}

describe('request timeout', () => {
  it('abandons a request the API server never answers, naming method, path and limit', async () => {
    server.faults.blackHole();
    const started = Date.now();
    const error = await failureOf(client({ requestTimeoutMs: 200 }).list(CONFIGMAPS, 'default'));
    expect(error).toBeInstanceOf(RequestTimeoutError);
    expect(error.message).toBe(
      'GET /api/v1/namespaces/default/configmaps timed out: no answer from the API server within 200 ms',
    );
    expect(Date.now() - started).toBeLessThan(2000);
  });

  it('takes a per-request limit over the client default', async () => {
    server.faults.blackHole();
    const error = await failureOf(
      client({ requestTimeoutMs: 60_000 }).request('GET', '/api/v1/namespaces', { timeoutMs: 100 }),
    );
    expect(error.message).toBe(
      'GET /api/v1/namespaces timed out: no answer from the API server within 100 ms',
    );
  });

  it('keeps working after a timeout once the API server answers again', async () => {
    const heal = server.faults.blackHole();
    const fast = client({ requestTimeoutMs: 100 });
    await failureOf(fast.list(CONFIGMAPS, 'default'));
    heal();
    expect((await fast.list(CONFIGMAPS, 'default')).items).toEqual([]);
  });
});

describe('write fence', () => {
  it('refuses writes without sending them while the fence says no; reads go through', async () => {
    let refusal: string | undefined = 'not the leader';
    const fenced = client({ writeFence: { refusal: () => refusal } });
    server.requestLog.clear();
    const error = await failureOf(fenced.create(CONFIGMAPS, configMap('refused')));
    expect(error).toBeInstanceOf(WriteRefusedError);
    expect(error.message).toBe('POST /api/v1/namespaces/default/configmaps refused: not the leader');
    expect((await fenced.list(CONFIGMAPS, 'default')).items).toEqual([]);
    refusal = undefined;
    await fenced.create(CONFIGMAPS, configMap('allowed'));
    expect(server.requestLog.entries().map((entry) => `${entry.method} ${entry.code}`)).toEqual([
      'GET 200',
      'POST 201',
    ]);
  });

  it('abortWrites cuts off writes in flight, so they never land, and leaves reads alone', async () => {
    const writer = client();
    const heal = server.faults.blackHole({ deliverOnHeal: true });
    const write = failureOf(writer.create(CONFIGMAPS, configMap('stale')));
    const read = writer.list(CONFIGMAPS, 'default');
    await new Promise((resolve) => setTimeout(resolve, 100));
    writer.abortWrites('the leader lease was lost');
    const error = await write;
    expect(error).toBeInstanceOf(WriteRefusedError);
    expect(error.message).toBe(
      'POST /api/v1/namespaces/default/configmaps refused: the leader lease was lost',
    );
    heal();
    expect((await read).items).toEqual([]);
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(server.requestLog.entries().map((entry) => entry.method)).toEqual(['GET']);
    await expect(writer.get(CONFIGMAPS, 'default', 'stale')).rejects.toMatchObject({ code: 404 });
  });
});
