/**
 * Faults of the network rather than of the API: a black hole that reads requests and never answers
 * (for every client or one user), a partition whose delayed requests arrive when it heals, and
 * watches that stay open but fall silent.
 */
import http from 'node:http';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startApiServer, type InMemoryApiServer } from '../../src/index.ts';

let server: InMemoryApiServer;

beforeEach(async () => {
  server = await startApiServer({ bookmarkIntervalMs: 50 });
});
afterEach(() => server.stop());

interface Sent {
  /** The status code, or `no answer` when none came within the wait. */
  answer(waitMs: number): Promise<number | 'no answer'>;
  abort(): void;
}

/** One request as `user`, on a connection of its own. */
function send(user: string, method: string, path: string, body?: unknown): Sent {
  const url = new URL(server.url);
  const text = body === undefined ? undefined : JSON.stringify(body);
  let answered: number | undefined;
  const request = http.request({
    host: url.hostname,
    port: url.port,
    path,
    method,
    agent: false,
    headers: {
      Authorization: `Bearer ${user}`,
      ...(text === undefined ? {} : { 'Content-Type': 'application/json' }),
    },
  });
  request.on('response', (response) => {
    answered = response.statusCode;
    response.resume();
  });
  request.on('error', () => {});
  request.end(text);
  return {
    async answer(waitMs) {
      const deadline = Date.now() + waitMs;
      while (answered === undefined && Date.now() < deadline) await sleep(10);
      return answered ?? 'no answer';
    },
    abort: () => request.destroy(),
  };
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

const configMap = (name: string) => ({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name } });
const CONFIGMAPS = '/api/v1/namespaces/default/configmaps';

function logged(): Array<{ method: string; path: string; user: string | undefined; code: number }> {
  return server.requestLog.entries().map(({ method, path, user, code }) => ({ method, path, user, code }));
}

describe('black hole', () => {
  it('reads requests and never answers them, even after it heals; later requests are served', async () => {
    const heal = server.faults.blackHole();
    const swallowed = send('a', 'POST', CONFIGMAPS, configMap('lost'));
    expect(await swallowed.answer(300)).toBe('no answer');
    heal();
    expect(await swallowed.answer(300)).toBe('no answer');
    expect(await send('a', 'GET', `${CONFIGMAPS}/lost`).answer(2000)).toBe(404);
    expect(logged()).toEqual([{ method: 'GET', path: `${CONFIGMAPS}/lost`, user: 'a', code: 404 }]);
    swallowed.abort();
  });

  it('swallows only the named user', async () => {
    server.faults.blackHole({ user: 'a' });
    const fromA = send('a', 'GET', CONFIGMAPS);
    expect(await send('b', 'GET', CONFIGMAPS).answer(2000)).toBe(200);
    expect(await fromA.answer(100)).toBe('no answer');
    expect(logged()).toEqual([{ method: 'GET', path: CONFIGMAPS, user: 'b', code: 200 }]);
    fromA.abort();
  });

  it('delivers on heal what still waits, as a partition delays packets; abandoned requests never arrive', async () => {
    const heal = server.faults.blackHole({ user: 'a', deliverOnHeal: true });
    const delayed = send('a', 'POST', CONFIGMAPS, configMap('late'));
    const abandoned = send('a', 'POST', CONFIGMAPS, configMap('abandoned'));
    expect(await delayed.answer(200)).toBe('no answer');
    abandoned.abort();
    await sleep(50);
    heal();
    expect(await delayed.answer(2000)).toBe(201);
    expect(await send('b', 'GET', `${CONFIGMAPS}/abandoned`).answer(2000)).toBe(404);
    expect(logged()).toEqual([
      { method: 'POST', path: CONFIGMAPS, user: 'a', code: 201 },
      { method: 'GET', path: `${CONFIGMAPS}/abandoned`, user: 'b', code: 404 },
    ]);
  });

  it('reset heals every black hole', async () => {
    server.faults.blackHole();
    server.faults.reset();
    expect(await send('a', 'GET', CONFIGMAPS).answer(2000)).toBe(200);
  });
});

/** A watch as `user`, collecting the types of the events it receives. */
function watch(user: string): { types: string[]; stop(): void } {
  const url = new URL(server.url);
  const types: string[] = [];
  let buffered = '';
  const request = http.get({
    host: url.hostname,
    port: url.port,
    path: `${CONFIGMAPS}?watch=true&allowWatchBookmarks=true`,
    agent: false,
    headers: { Authorization: `Bearer ${user}` },
  });
  request.on('response', (response) => {
    response.setEncoding('utf8');
    response.on('data', (chunk: string) => {
      buffered += chunk;
      const lines = buffered.split('\n');
      buffered = lines.pop() ?? '';
      for (const line of lines) types.push((JSON.parse(line) as { type: string }).type);
    });
    response.on('end', () => types.push('END'));
  });
  request.on('error', () => {});
  return { types, stop: () => request.destroy() };
}

async function until(check: () => boolean): Promise<void> {
  const deadline = Date.now() + 2000;
  while (!check()) {
    if (Date.now() > deadline) throw new Error('condition not reached in time');
    await sleep(10);
  }
}

describe('silent watches', () => {
  it('silenceWatches: open watches deliver nothing more, not even bookmarks or their end; new watches work', async () => {
    const before = watch('a');
    await until(() => before.types.includes('BOOKMARK'));
    server.faults.silenceWatches();
    const seen = before.types.length;
    await send('a', 'POST', CONFIGMAPS, configMap('unseen')).answer(2000);
    server.faults.dropWatches();
    await sleep(200);
    expect(before.types.length).toBe(seen);

    const after = watch('a');
    await until(() => after.types.includes('ADDED') && after.types.includes('BOOKMARK'));
    before.stop();
    after.stop();
  });

  it("a black hole silences the open watches of the users it swallows and no one else's", async () => {
    const ofA = watch('a');
    const ofB = watch('b');
    await until(() => ofA.types.includes('BOOKMARK') && ofB.types.includes('BOOKMARK'));
    server.faults.blackHole({ user: 'a' });
    const seen = ofA.types.length;
    await send('b', 'POST', CONFIGMAPS, configMap('only-b-sees')).answer(2000);
    await until(() => ofB.types.includes('ADDED'));
    await sleep(200);
    expect(ofA.types.length).toBe(seen);
    ofA.stop();
    ofB.stop();
  });
});
