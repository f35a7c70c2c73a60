/**
 * What every request to one cluster shares: the headers that authenticate it and a keep-alive agent
 * holding the TLS settings. client-node's applyToHTTPSOptions reads the CA, certificate and key files,
 * runs the authenticators and builds a new Agent on every call; here it runs once, and again only
 * when credentials may have changed.
 */
import http from 'node:http';
import https from 'node:https';
import type { KubeConfig } from '@kubernetes/client-node';

export interface Connection {
  /** Authorization, Impersonate-User: whatever the kubeconfig's user adds to a request. */
  headers: Readonly<Record<string, string>>;
  agent: http.Agent;
}

export interface ClusterConnectionOptions {
  /**
   * How long credentials from an exec plugin or auth provider (OIDC, token file, cloud) are used
   * before client-node is asked again; its authenticators keep them until they expire (exec, OIDC)
   * or for a minute (token file), so asking costs little. Static credentials are never asked again.
   * Default 1 s.
   */
  refreshMs?: number;
  now?: () => number;
}

export const DEFAULT_CREDENTIAL_REFRESH_MS = 1000;

/** The TLS settings client-node puts on request options; an agent takes them for its connections. */
const TLS_OPTIONS = [
  'ca',
  'cert',
  'key',
  'pfx',
  'passphrase',
  'rejectUnauthorized',
  'servername',
] as const satisfies ReadonlyArray<keyof https.AgentOptions>;

type TlsOptions = Pick<https.AgentOptions, (typeof TLS_OPTIONS)[number]>;

interface Loaded {
  connection: Connection;
  /** The TLS settings as text, to tell whether a refresh changed the client's identity. */
  tlsIdentity: string;
  loadedAt: number;
}

export class ClusterConnection {
  readonly #kubeConfig: KubeConfig;
  readonly #secure: boolean;
  readonly #throughProxy: boolean;
  /** Exec plugins and auth providers hand out credentials that expire; a token or certificate does not. */
  readonly refreshable: boolean;
  readonly #refreshMs: number;
  readonly #now: () => number;
  #loaded: Promise<Loaded> | undefined;
  #lastLoaded: Loaded | undefined;
  readonly #agents = new Set<http.Agent>();

  constructor(kubeConfig: KubeConfig, options: ClusterConnectionOptions = {}) {
    const cluster = kubeConfig.getCurrentCluster();
    if (!cluster) throw new Error('the kubeconfig has no current cluster');
    const user = kubeConfig.getCurrentUser();
    this.#kubeConfig = kubeConfig;
    this.#secure = cluster.server.startsWith('https:');
    this.#throughProxy = Boolean(cluster.proxyUrl);
    this.refreshable = Boolean(user?.exec ?? user?.authProvider);
    this.#refreshMs = options.refreshMs ?? DEFAULT_CREDENTIAL_REFRESH_MS;
    this.#now = options.now ?? Date.now;
  }

  /** The connection for the next request; one load shared by every request that waits for it. */
  async current(): Promise<Connection> {
    const loaded = this.#loaded;
    if (loaded !== undefined) {
      const { connection, loadedAt } = await loaded;
      if (!this.refreshable || this.#now() - loadedAt < this.#refreshMs) return connection;
      if (this.#loaded === loaded) this.#startReload();
    } else {
      this.#startReload();
    }
    return (await (this.#loaded as Promise<Loaded>)).connection;
  }

  /**
   * The server refused the credentials (401): the next request asks client-node again. Returns
   * whether that can give different ones.
   */
  invalidate(): boolean {
    if (!this.refreshable) return false;
    this.#startReload();
    return true;
  }

  close(): void {
    for (const agent of this.#agents) agent.destroy();
    this.#agents.clear();
  }

  #startReload(): void {
    // After any load still under way, so loads never overlap.
    const reloading: Promise<Loaded> = Promise.resolve(this.#loaded)
      .catch(() => undefined)
      .then(() => this.#reload())
      .catch((error: unknown) => {
        // A failed load is not kept: the next request asks again.
        if (this.#loaded === reloading) this.#loaded = undefined;
        throw error;
      });
    this.#loaded = reloading;
  }

  async #reload(): Promise<Loaded> {
    const before = this.#lastLoaded;
    const next = await this.#load(before);
    if (before !== undefined && next.connection.agent !== before.connection.agent) {
      this.#retire(before.connection.agent);
    }
    this.#lastLoaded = next;
    return next;
  }

  async #load(before: Loaded | undefined): Promise<Loaded> {
    const options: https.RequestOptions = { headers: {} };
    await this.#kubeConfig.applyToHTTPSOptions(options);
    const headers: Record<string, string> = {};
    for (const [name, value] of Object.entries(options.headers ?? {})) {
      if (value !== undefined) headers[name] = String(value);
    }
    if (options.auth) headers.Authorization = `Basic ${Buffer.from(options.auth).toString('base64')}`;
    const tls: TlsOptions = {};
    for (const key of TLS_OPTIONS) {
      if (options[key] !== undefined) Object.assign(tls, { [key]: options[key] });
    }
    const tlsIdentity = identityOf(tls);
    const clientNodeAgent = options.agent as http.Agent;
    let agent: http.Agent;
    if (this.#throughProxy) {
      // The proxy agent client-node built carries the proxy and the TLS settings.
      agent = clientNodeAgent;
    } else {
      clientNodeAgent.destroy();
      agent =
        before !== undefined && before.tlsIdentity === tlsIdentity
          ? before.connection.agent
          : this.#secure
            ? new https.Agent({ keepAlive: true, ...tls })
            : new http.Agent({ keepAlive: true });
    }
    this.#agents.add(agent);
    return { connection: { headers, agent }, tlsIdentity, loadedAt: this.#now() };
  }

  /** An agent of an older identity finishes what it carries; its connections close as they fall idle. */
  #retire(agent: http.Agent): void {
    this.#agents.delete(agent);
    for (const sockets of Object.values(agent.freeSockets))
      for (const socket of sockets ?? []) socket.destroy();
    agent.on('free', (socket: { destroy(): void }) => socket.destroy());
  }
}

/** Buffers become their bytes through Buffer's toJSON. */
function identityOf(tls: TlsOptions): string {
  return JSON.stringify(tls);
}
