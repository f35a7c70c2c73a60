/**
 * Toxiproxy (github.com/Shopify/toxiproxy, its server built by `npm run kube-binaries`) between
 * clients and the API server: TCP proxies on loopback whose connections get "toxics" — latency with
 * jitter, resets, a black hole that closes after a while, a bandwidth limit, a cut after so many
 * bytes. Toxics apply to the connections already open as well as to new ones, so a watch open for
 * minutes is hit as a request is.
 *
 * Beside fault-proxy.ts, not instead of it: a partition there keeps the bytes and delivers them at
 * heal, as TCP retransmits across a partition that heals; Toxiproxy's `timeout` toxic has already
 * acknowledged the bytes it drops, so a TLS stream that outlives it is corrupt. The partition tests
 * need the first; the faults of a hostile network below are what Toxiproxy models.
 *
 * Its HTTP API is five JSON calls (create a proxy, add, remove a toxic, enable, reset): fetch does them,
 * no client library.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { locateToxiproxy } from './binaries.ts';
import { Component } from './component.ts';
import { freePorts } from './ports.ts';
import { Reaper } from './reaper.ts';

/** Which way a toxic acts: on what the API server sends (downstream) or what the client sends (upstream). */
export type ToxicStream = 'downstream' | 'upstream';

/** The toxics the fault bench uses, with Toxiproxy's attributes (times in ms, rate in KB/s). */
export type ToxicSpec =
  | { type: 'latency'; attributes: { latency: number; jitter: number } }
  /**
   * Ends the connection when data next arrives, `timeout` ms later: with a reset (RST) when the toxic
   * was in place as it opened, with a FIN when it was open before (Toxiproxy 2.5 sets SO_LINGER 0 at a
   * connection's start only). A watch is cut mid-answer either way.
   */
  | { type: 'reset_peer'; attributes: { timeout: number } }
  /** Drops every byte, and closes the connection after `timeout` ms (0: never). */
  | { type: 'timeout'; attributes: { timeout: number } }
  | { type: 'bandwidth'; attributes: { rate: number } }
  /** Closes the connection once `bytes` have passed. */
  | { type: 'limit_data'; attributes: { bytes: number } };

export type Toxic = ToxicSpec & { name: string; stream: ToxicStream };

export interface ToxicProxy {
  readonly name: string;
  /** 127.0.0.1 */
  readonly host: string;
  readonly port: number;
  readonly upstream: { host: string; port: number };
  addToxic(toxic: Toxic): Promise<void>;
  removeToxic(name: string): Promise<void>;
  /** The names of the toxics in place. */
  toxics(): Promise<string[]>;
  /** Closes every connection open through the proxy (disabled, then enabled again). */
  cutConnections(): Promise<void>;
}

export interface Toxiproxy {
  /** http://127.0.0.1:PORT, its API. */
  readonly apiUrl: string;
  readonly pid: number | undefined;
  /** A proxy on 127.0.0.1 (a port of the kernel's choice) to `upstream`. */
  createProxy(name: string, upstream: { host: string; port: number }): Promise<ToxicProxy>;
  /** Removes every toxic of every proxy. */
  removeAllToxics(): Promise<void>;
  stop(): Promise<void>;
}

/**
 * The answer of Go's http.TimeoutHandler, which toxiproxy's API gives a request that outlasted its
 * limit: seen on POST /reset on a loaded machine (closing many connections), where it ended a run.
 */
const API_TIMEOUT = /<title>Timeout<\/title>/;
const API_ATTEMPTS = 3;

/**
 * One request to toxiproxy's API. An `idempotent` one (the same state whether it ran once or twice)
 * is sent again after the API's own timeout answer: the handler may still have finished.
 */
export async function callToxiproxy(
  apiUrl: string,
  method: string,
  path: string,
  body?: unknown,
  options: { idempotent?: boolean } = {},
): Promise<unknown> {
  for (let attempt = 1; ; attempt++) {
    const response = await fetch(`${apiUrl}${path}`, {
      method,
      headers: { 'Content-Type': 'application/json', 'User-Agent': 'scoby-fault-bench' },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    const text = await response.text();
    if (response.ok) return text === '' ? undefined : (JSON.parse(text) as unknown);
    const timedOut = response.status === 503 && API_TIMEOUT.test(text);
    if (options.idempotent && timedOut && attempt < API_ATTEMPTS) {
      await new Promise((resolve) => setTimeout(resolve, 250 * attempt));
      continue;
    }
    throw new Error(`toxiproxy ${method} ${path} answered ${response.status}: ${text.trim()}`);
  }
}

/** Starts toxiproxy-server on 127.0.0.1 (default: the binary `npm run kube-binaries` built). */
export async function startToxiproxy(
  options: { binary?: string; startTimeoutMs?: number } = {},
): Promise<Toxiproxy> {
  let binary = options.binary;
  if (binary === undefined) {
    const located = locateToxiproxy();
    if (!located.ok) throw new Error(located.message);
    binary = located.path;
  }
  const workDir = await mkdtemp(join(tmpdir(), 'scoby-toxiproxy-'));
  const reaper = new Reaper(join(workDir, 'pids'));
  const [port] = await freePorts(1);
  const apiUrl = `http://127.0.0.1:${port}`;
  const server = new Component(
    'toxiproxy',
    binary,
    ['-host', '127.0.0.1', '-port', String(port)],
    join(workDir, 'toxiproxy.log'),
    (pid) => reaper.watch(pid),
  );
  const killOnExit = () => server.killNow();
  process.once('exit', killOnExit);
  const stop = async () => {
    await server.stop();
    process.removeListener('exit', killOnExit);
    reaper.dismiss();
    await rm(workDir, { recursive: true, force: true });
  };
  try {
    await server.waitUntil(
      'ready',
      async () => (await fetch(`${apiUrl}/version`)).ok,
      options.startTimeoutMs ?? 30_000,
    );
  } catch (error) {
    await stop();
    throw error;
  }
  return {
    apiUrl,
    get pid() {
      return server.pid;
    },
    async createProxy(name, upstream) {
      const created = (await callToxiproxy(apiUrl, 'POST', '/proxies', {
        name,
        listen: '127.0.0.1:0',
        upstream: `${upstream.host}:${upstream.port}`,
        enabled: true,
      })) as { listen: string };
      const listenPort = Number(created.listen.slice(created.listen.lastIndexOf(':') + 1));
      const path = `/proxies/${encodeURIComponent(name)}`;
      return {
        name,
        host: '127.0.0.1',
        port: listenPort,
        upstream,
        async addToxic(toxic) {
          await callToxiproxy(apiUrl, 'POST', `${path}/toxics`, { ...toxic, toxicity: 1 });
        },
        async removeToxic(toxicName) {
          await callToxiproxy(apiUrl, 'DELETE', `${path}/toxics/${encodeURIComponent(toxicName)}`);
        },
        async toxics() {
          const listed = (await callToxiproxy(apiUrl, 'GET', `${path}/toxics`, undefined, {
            idempotent: true,
          })) as Array<{ name: string }>;
          return listed.map((toxic) => toxic.name);
        },
        async cutConnections() {
          await callToxiproxy(apiUrl, 'POST', path, { enabled: false }, { idempotent: true });
          await callToxiproxy(apiUrl, 'POST', path, { enabled: true }, { idempotent: true });
        },
      };
    },
    async removeAllToxics() {
      // POST /reset also enables every proxy; they are never disabled here.
      await callToxiproxy(apiUrl, 'POST', '/reset', undefined, { idempotent: true });
    },
    stop,
  };
}
