/**
 * The client's transport: one keep-alive pool and credentials computed once, asked for again only
 * when they can change (exec plugin, token file) — after the refresh period or a 401 — never per request.
 */
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { KubeConfig } from '@kubernetes/client-node';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { DynamicClient } from '../../src/client/dynamic-client.ts';

/** A real HTTP server that accepts one bearer token (read from a file per request) and counts connections. */
interface TokenServer {
  url: string;
  connections: number;
  authorizations: Array<string | undefined>;
  close(): Promise<void>;
}

let dir: string;
let server: TokenServer;
const clients: DynamicClient[] = [];

async function startTokenServer(acceptedTokenFile: string): Promise<TokenServer> {
  const state = { connections: 0, authorizations: [] as Array<string | undefined> };
  const http: Server = createServer((request, response) => {
    void readFile(acceptedTokenFile, 'utf8').then((accepted) => {
      state.authorizations.push(request.headers.authorization);
      const ok = request.headers.authorization === `Bearer ${accepted.trim()}`;
      response.writeHead(ok ? 200 : 401, { 'Content-Type': 'application/json' });
      response.end(JSON.stringify(ok ? { kind: 'Status', status: 'Success' } : { reason: 'Unauthorized' }));
    });
  });
  http.on('connection', () => (state.connections += 1));
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(http.address() as AddressInfo).port}`,
    get connections() {
      return state.connections;
    },
    authorizations: state.authorizations,
    close: () => {
      http.closeAllConnections();
      return new Promise<void>((resolve) => http.close(() => resolve()));
    },
  };
}

function kubeConfig(user: Record<string, unknown>): KubeConfig {
  const config = new KubeConfig();
  config.loadFromOptions({
    clusters: [{ name: 'c', server: server.url, skipTLSVerify: true }],
    users: [{ name: 'u', ...user }],
    contexts: [{ name: 'x', cluster: 'c', user: 'u' }],
    currentContext: 'x',
  });
  return config;
}

function client(config: KubeConfig): DynamicClient {
  const created = new DynamicClient(config);
  clients.push(created);
  return created;
}

async function getTimes(target: DynamicClient, times: number): Promise<void> {
  for (let i = 0; i < times; i += 1) await target.request('GET', '/api/v1/namespaces');
}

beforeEach(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'scoby-connection-'));
  await writeFile(path.join(dir, 'accepted'), 'first');
  server = await startTokenServer(path.join(dir, 'accepted'));
});
afterEach(async () => {
  vi.useRealTimers();
  for (const created of clients.splice(0)) created.close();
  await server.close();
  await rm(dir, { recursive: true, force: true });
});

describe('static credentials', () => {
  it('sends the token with every request over one kept-alive connection', async () => {
    await getTimes(client(kubeConfig({ token: 'first' })), 20);
    expect(server.authorizations).toEqual(Array.from({ length: 20 }, () => 'Bearer first'));
    expect(server.connections).toBe(1);
  });
});

describe('exec plugin', () => {
  /**
   * A credential plugin that prints the token in the file `current` with an expiry already past,
   * so client-node would run it for every request it authenticates; each run leaves a line in `runs`.
   */
  async function execUser(): Promise<Record<string, unknown>> {
    const script = path.join(dir, 'plugin.mjs');
    await writeFile(
      script,
      `import { appendFileSync, readFileSync } from 'node:fs';
appendFileSync(${JSON.stringify(path.join(dir, 'runs'))}, 'run\\n');
const token = readFileSync(${JSON.stringify(path.join(dir, 'current'))}, 'utf8').trim();
console.log(JSON.stringify({ apiVersion: 'client.authentication.k8s.io/v1', kind: 'ExecCredential',
  status: { token, expirationTimestamp: '2000-01-01T00:00:00Z' } }));
`,
    );
    await writeFile(path.join(dir, 'current'), 'first');
    return {
      exec: { apiVersion: 'client.authentication.k8s.io/v1', command: process.execPath, args: [script] },
    };
  }

  const runs = async () => (await readFile(path.join(dir, 'runs'), 'utf8')).split('\n').length - 1;

  it('runs the plugin once for many requests within the refresh period, not once per request', async () => {
    await getTimes(client(kubeConfig(await execUser())), 10);
    expect(server.authorizations).toEqual(Array.from({ length: 10 }, () => 'Bearer first'));
    expect(await runs()).toBe(1);
    expect(server.connections).toBe(1);
  });

  it('asks the plugin again after a 401 and sends the refused request once more with the new token', async () => {
    const target = client(kubeConfig(await execUser()));
    await getTimes(target, 1);
    await writeFile(path.join(dir, 'current'), 'second');
    await writeFile(path.join(dir, 'accepted'), 'second');
    await getTimes(target, 2);
    expect(server.authorizations).toEqual(['Bearer first', 'Bearer first', 'Bearer second', 'Bearer second']);
    expect(await runs()).toBe(2);
  });

  it('asks the plugin again once the refresh period has passed, before the server refuses anything', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    const target = client(kubeConfig(await execUser()));
    await getTimes(target, 1);
    await writeFile(path.join(dir, 'current'), 'second');
    await getTimes(target, 1);
    vi.setSystemTime(Date.now() + 1500);
    await writeFile(path.join(dir, 'accepted'), 'second');
    await getTimes(target, 1);
    expect(server.authorizations).toEqual(['Bearer first', 'Bearer first', 'Bearer second']);
  });
});

describe('token file', () => {
  it('sends the token the file holds now once client-node reads it again (every minute, as client-go)', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    const tokenFile = path.join(dir, 'token');
    await writeFile(tokenFile, 'first');
    const target = client(kubeConfig({ authProvider: { name: 'tokenFile', config: { tokenFile } } }));
    await getTimes(target, 1);
    await writeFile(tokenFile, 'second');
    await writeFile(path.join(dir, 'accepted'), 'second');
    vi.setSystemTime(Date.now() + 61_000);
    await getTimes(target, 1);
    expect(server.authorizations).toEqual(['Bearer first', 'Bearer second']);
    expect(server.connections).toBe(1);
  });
});
