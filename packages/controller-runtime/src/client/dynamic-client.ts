/**
 * A dynamic JSON client: any resource, any verb, any subresource, objects kept as plain JSON (the typed
 * client-node APIs turn built-in kinds into class instances with Date fields, which a controller that
 * hashes and compares objects cannot use). Server address, TLS and credentials come from client-node's
 * KubeConfig, so every kubeconfig form client-node accepts works here.
 */
import http from 'node:http';
import https from 'node:https';
import type { KubeConfig } from '@kubernetes/client-node';
import type { KubeObject } from '@scoby/kube-objects';
import { ApiError } from './api-error.ts';
import { answerError } from './answer-error.ts';
import { ClusterConnection, type Connection } from './cluster-connection.ts';
import {
  RequestAbortedError,
  RequestTimeoutError,
  StaleConnectionError,
  WriteRefusedError,
} from './request-errors.ts';
import { type OpenWatch, readWatch, type WatchHandlers } from './watch-request.ts';
import { type ApiRateLimit, TokenBucket } from './rate-limiter.ts';
import { writeScopes } from './write-scope.ts';

export interface ResourceRef {
  group: string;
  version: string;
  /** Lower-case plural, e.g. `deployments`. */
  resource: string;
  namespaced: boolean;
}

export interface ObjectList {
  metadata: { resourceVersion?: string; continue?: string };
  items: KubeObject[];
}

export interface RequestOptions {
  body?: unknown;
  contentType?: string;
  query?: Record<string, string | undefined>;
  /** This request's time limit instead of the client's. */
  timeoutMs?: number;
  /**
   * The caller's cancellation (a reconcile's signal): once it fires the request is not sent, or is
   * cut off if it was, and rejects with a RequestAbortedError.
   */
  signal?: AbortSignal;
}

/** What a single-object request takes besides its object: the caller's cancellation. */
export interface CallOptions {
  signal?: AbortSignal;
}

/** Told of every request sent: its status code, or undefined when no answer came (for metrics). */
export type RequestObserver = (
  method: string,
  host: string,
  code: number | undefined,
  durationMs: number,
) => void;

/** Decides whether this process may write to the cluster (leader election), per write scope. */
export interface WriteFence {
  /**
   * Why a write of `scope` is refused now; undefined while it is allowed. `scope` is the write scope
   * (see write-scope.ts) current when the request was made; undefined outside any.
   */
  refusal(scope: string | undefined): string | undefined;
}

export interface DynamicClientOptions {
  /** How long a request may go unanswered before it is abandoned. Default 30 s. */
  requestTimeoutMs?: number;
  onResponse?: RequestObserver;
  /** Consulted before every write (POST, PUT, PATCH, DELETE); a refused write is not sent. */
  writeFence?: WriteFence;
  /** Told of every 403 answer: the permissions it had may have been taken away. */
  onForbidden?: () => void;
  /**
   * The field manager of every POST, PUT and PATCH that names none itself. Without one
   * kube-apiserver names the writer after the User-Agent, or `unknown` when there is none.
   */
  fieldManager?: string;
  /** The User-Agent header of every request, e.g. `scoby-controller/0.1.0 (scoby)`. */
  userAgent?: string;
  /** The client-side rate limit of requests other than watches; absent: none. */
  rateLimit?: ApiRateLimit;
  /** Told how long each request waited for the rate limit (ms), as client-go's rate limiter metric. */
  onRateLimited?: (method: string, host: string, waitedMs: number) => void;
}

export const DEFAULT_REQUEST_TIMEOUT_MS = 30_000;

const WRITE_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);
/** The writes that take a `fieldManager` (DeleteOptions has none). */
const MANAGED_METHODS = new Set(['POST', 'PUT', 'PATCH']);

function withoutUndefined(query: RequestOptions['query']): Record<string, string> {
  const defined: Record<string, string> = {};
  for (const [key, value] of Object.entries(query ?? {})) if (value !== undefined) defined[key] = value;
  return defined;
}

export interface DeleteOptions extends CallOptions {
  propagationPolicy?: 'Background' | 'Foreground' | 'Orphan';
  preconditions?: { uid?: string; resourceVersion?: string };
}

export const MERGE_PATCH = 'application/merge-patch+json';
export const APPLY_PATCH = 'application/apply-patch+yaml';
export const JSON_PATCH = 'application/json-patch+json';

export function resourcePath(
  ref: ResourceRef,
  namespace?: string,
  name?: string,
  subresource?: string,
): string {
  const base = ref.group === '' ? `/api/${ref.version}` : `/apis/${ref.group}/${ref.version}`;
  const scope = ref.namespaced && namespace ? `/namespaces/${encodeURIComponent(namespace)}` : '';
  const item = name === undefined ? '' : `/${encodeURIComponent(name)}`;
  return `${base}${scope}/${ref.resource}${item}${subresource ? `/${subresource}` : ''}`;
}

function withSignal(request: RequestOptions, options: CallOptions): RequestOptions {
  return options.signal === undefined ? request : { ...request, signal: options.signal };
}

function searchOf(query: Record<string, string | undefined> | undefined): string {
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(query ?? {})) {
    if (value !== undefined) search.set(key, value);
  }
  return search.size > 0 ? `?${search.toString()}` : '';
}

export class DynamicClient {
  readonly #kubeConfig: KubeConfig;
  readonly #server: URL;
  /** The server's host name, an IPv6 address without its brackets. */
  readonly #hostname: string;
  /** The server URL's path without a trailing slash, prefixed to every request path. */
  readonly #basePath: string;
  readonly #connection: ClusterConnection;
  readonly #discovery = new Map<string, Promise<Map<string, ResourceRef>>>();
  readonly #requestTimeoutMs: number;
  readonly #onResponse: RequestObserver | undefined;
  readonly #writeFence: WriteFence | undefined;
  readonly #onForbidden: (() => void) | undefined;
  readonly #fieldManager: string | undefined;
  readonly #userAgent: string | undefined;
  /** How to cut off each write that was sent and is not answered yet, with its write scope. */
  readonly #writesInFlight = new Map<(reason: string) => void, string | undefined>();
  readonly #bucket: TokenBucket | undefined;
  readonly #onRateLimited: DynamicClientOptions['onRateLimited'];

  constructor(kubeConfig: KubeConfig, options: DynamicClientOptions = {}) {
    const cluster = kubeConfig.getCurrentCluster();
    if (!cluster) throw new Error('the kubeconfig has no current cluster');
    this.#kubeConfig = kubeConfig;
    this.#server = new URL(cluster.server);
    this.#hostname = this.#server.hostname.replace(/^\[(.*)\]$/, '$1');
    this.#basePath = this.#server.pathname.replace(/\/$/, '');
    this.#connection = new ClusterConnection(kubeConfig);
    this.#requestTimeoutMs = options.requestTimeoutMs ?? DEFAULT_REQUEST_TIMEOUT_MS;
    this.#onResponse = options.onResponse;
    this.#writeFence = options.writeFence;
    this.#onForbidden = options.onForbidden;
    this.#fieldManager = options.fieldManager;
    this.#userAgent = options.userAgent;
    this.#bucket = options.rateLimit === undefined ? undefined : new TokenBucket(options.rateLimit);
    this.#onRateLimited = options.onRateLimited;
  }

  get kubeConfig(): KubeConfig {
    return this.#kubeConfig;
  }

  async request<T>(method: string, path: string, options: RequestOptions = {}): Promise<T> {
    // Taken before the first await: the write belongs to its caller's scope whatever runs meanwhile.
    const scope = writeScopes.current();
    await this.#rateLimit(method, path, options.signal);
    const managed = this.#fieldManager !== undefined && MANAGED_METHODS.has(method);
    const search = searchOf(
      managed ? { fieldManager: this.#fieldManager, ...withoutUndefined(options.query) } : options.query,
    );
    const body = options.body === undefined ? undefined : JSON.stringify(options.body);
    const connection = await this.#connection.current();
    const send = (sentWith: Connection) =>
      this.#send<T>(
        method,
        path,
        this.#requestOptions(sentWith, method, path + search, body, options),
        body,
        options.timeoutMs,
        options.signal,
        scope,
      );
    try {
      return await send(connection);
    } catch (error) {
      // The server closed an idle keep-alive connection as this request went out on it (Node's own
      // advice): the request never reached a handler, so it is sent once more on a new connection.
      if (error instanceof StaleConnectionError) return send(connection);
      // Expired exec or OIDC credentials: asked for again, the request is sent once more with new ones.
      if (error instanceof ApiError && error.code === 401 && this.#connection.invalidate()) {
        const renewed = await this.#connection.current();
        if (
          renewed.headers.Authorization !== connection.headers.Authorization ||
          renewed.agent !== connection.agent
        ) {
          return send(renewed);
        }
      }
      throw error;
    }
  }

  /** Waits for the rate limit's token; a caller's signal firing meanwhile ends the wait and the request. */
  async #rateLimit(method: string, path: string, signal: AbortSignal | undefined): Promise<void> {
    if (this.#bucket === undefined) return;
    const waitMs = this.#bucket.reserve();
    this.#onRateLimited?.(method, this.#server.host, waitMs);
    if (waitMs <= 0) return;
    await new Promise<void>((resolve, reject) => {
      const onAbort = () => {
        clearTimeout(timer);
        reject(new RequestAbortedError(method, path, signal?.reason));
      };
      const timer = setTimeout(() => {
        signal?.removeEventListener('abort', onAbort);
        resolve();
      }, waitMs);
      signal?.addEventListener('abort', onAbort, { once: true });
    });
  }

  /** Host and path as options: parsing a URL per request was a measurable share of the controller CPU. */
  #requestOptions(
    connection: Connection,
    method: string,
    pathAndQuery: string,
    body: string | undefined,
    options: RequestOptions,
  ): https.RequestOptions {
    return {
      protocol: this.#server.protocol,
      hostname: this.#hostname,
      port: this.#server.port,
      path: this.#basePath + pathAndQuery,
      method,
      agent: connection.agent,
      headers: {
        ...connection.headers,
        ...(this.#userAgent === undefined ? {} : { 'User-Agent': this.#userAgent }),
        Accept: 'application/json',
        // Node frames DELETE bodies only with an explicit length (it does not chunk them by default).
        ...(body === undefined
          ? {}
          : {
              'Content-Type': options.contentType ?? 'application/json',
              'Content-Length': Buffer.byteLength(body),
            }),
      },
    };
  }

  #send<T>(
    method: string,
    path: string,
    requestOptions: https.RequestOptions,
    body: string | undefined,
    requestTimeoutMs: number | undefined,
    signal: AbortSignal | undefined,
    scope: string | undefined,
  ): Promise<T> {
    if (signal?.aborted) return Promise.reject(new RequestAbortedError(method, path, signal.reason));
    const transport = this.#server.protocol === 'https:' ? https : http;
    const writing = WRITE_METHODS.has(method);
    // Checked after the last await, so nothing can revoke the permission between check and send.
    const refusal = writing ? this.#writeFence?.refusal(scope) : undefined;
    if (refusal !== undefined) return Promise.reject(new WriteRefusedError(method, path, refusal));
    const timeoutMs = requestTimeoutMs ?? this.#requestTimeoutMs;
    const sentAt = performance.now();
    const observe = (code: number | undefined) =>
      this.#onResponse?.(method, this.#server.host, code, performance.now() - sentAt);
    let answered = false;
    return new Promise<T>((resolve, reject) => {
      const request = transport.request(requestOptions, (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('error', reject);
        response.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          const code = response.statusCode ?? 0;
          answered = true;
          observe(code);
          if (code >= 200 && code < 300) {
            try {
              resolve((text === '' ? undefined : JSON.parse(text)) as T);
            } catch {
              resolve(undefined as T);
            }
            return;
          }
          if (code === 403) this.#onForbidden?.();
          const retryAfter = response.headers['retry-after'];
          reject(answerError(code, text, Array.isArray(retryAfter) ? retryAfter[0] : retryAfter));
        });
      });
      request.on('error', (error: NodeJS.ErrnoException) => {
        if (!answered) observe(undefined);
        reject(error.code === 'ECONNRESET' && request.reusedSocket ? new StaleConnectionError(error) : error);
      });
      // Rejects first: once an answer has begun, destroying the request reports a plain reset.
      const abandon = (error: Error) => {
        reject(error);
        request.destroy(error);
      };
      // A request that is never answered must not hold its caller forever: past the limit its
      // connection is destroyed, so a late answer cannot arrive either.
      const timer = setTimeout(() => abandon(new RequestTimeoutError(method, path, timeoutMs)), timeoutMs);
      const cutOff = (reason: string) => abandon(new WriteRefusedError(method, path, reason));
      if (writing) this.#writesInFlight.set(cutOff, scope);
      const onAbort = () => abandon(new RequestAbortedError(method, path, signal?.reason));
      signal?.addEventListener('abort', onAbort, { once: true });
      request.once('close', () => {
        clearTimeout(timer);
        this.#writesInFlight.delete(cutOff);
        signal?.removeEventListener('abort', onAbort);
      });
      request.end(body);
    });
  }

  /**
   * Cuts off every write still waiting for its answer, so none of them lands after this process
   * lost the right to write; with `scope`, only the writes made in that write scope (the others,
   * unscoped ones included, go on). Their callers get a WriteRefusedError with `reason`.
   */
  abortWrites(reason: string, scope?: string): void {
    for (const [cutOff, writeScope] of [...this.#writesInFlight]) {
      if (scope !== undefined && writeScope !== scope) continue;
      this.#writesInFlight.delete(cutOff);
      cutOff(reason);
    }
  }

  /** Maps apiVersion + kind to a resource through discovery (cached per apiVersion, refreshed on a miss). */
  async resourceFor(apiVersion: string, kind: string): Promise<ResourceRef | undefined> {
    const cached = await this.#resources(apiVersion, false);
    return cached.get(kind) ?? (await this.#resources(apiVersion, true)).get(kind);
  }

  #resources(apiVersion: string, refresh: boolean): Promise<Map<string, ResourceRef>> {
    const existing = this.#discovery.get(apiVersion);
    if (existing && !refresh) return existing;
    const slash = apiVersion.indexOf('/');
    const group = slash < 0 ? '' : apiVersion.slice(0, slash);
    const version = slash < 0 ? apiVersion : apiVersion.slice(slash + 1);
    const path = group === '' ? `/api/${version}` : `/apis/${group}/${version}`;
    const loading = this.request<{ resources?: { name: string; kind: string; namespaced: boolean }[] }>(
      'GET',
      path,
    )
      .then((list) => {
        const byKind = new Map<string, ResourceRef>();
        for (const entry of list.resources ?? []) {
          if (!entry.name.includes('/')) {
            byKind.set(entry.kind, { group, version, resource: entry.name, namespaced: entry.namespaced });
          }
        }
        return byKind;
      })
      .catch((error: unknown) => {
        this.#discovery.delete(apiVersion);
        if (error instanceof ApiError && error.code === 404) return new Map<string, ResourceRef>();
        throw error;
      });
    this.#discovery.set(apiVersion, loading);
    return loading;
  }

  get(
    ref: ResourceRef,
    namespace: string | undefined,
    name: string,
    options: CallOptions = {},
  ): Promise<KubeObject> {
    return this.request('GET', resourcePath(ref, namespace, name), withSignal({}, options));
  }

  list(ref: ResourceRef, namespace?: string, query: RequestOptions['query'] = {}): Promise<ObjectList> {
    return this.request('GET', resourcePath(ref, namespace), { query });
  }

  /** POST: fails with 409 AlreadyExists when the name is taken. `fieldManager` owns what it sets. */
  create(
    ref: ResourceRef,
    object: KubeObject,
    fieldManager?: string,
    options: CallOptions = {},
  ): Promise<KubeObject> {
    return this.request(
      'POST',
      resourcePath(ref, object.metadata.namespace),
      withSignal({ body: object, query: { fieldManager } }, options),
    );
  }

  /** Server-side apply: every desired field holds afterwards, fields this manager dropped are removed. */
  apply(
    ref: ResourceRef,
    object: KubeObject,
    fieldManager: string,
    options: CallOptions = {},
  ): Promise<KubeObject> {
    return this.request(
      'PATCH',
      resourcePath(ref, object.metadata.namespace, object.metadata.name),
      withSignal({ body: object, contentType: APPLY_PATCH, query: { fieldManager, force: 'true' } }, options),
    );
  }

  patch(
    ref: ResourceRef,
    namespace: string | undefined,
    name: string,
    patch: unknown,
    options: CallOptions & { contentType?: string; subresource?: string } = {},
  ): Promise<KubeObject> {
    return this.request(
      'PATCH',
      resourcePath(ref, namespace, name, options.subresource),
      withSignal({ body: patch, contentType: options.contentType ?? MERGE_PATCH }, options),
    );
  }

  /**
   * PUT: replaces the object (or, with `subresource`, that part of it) by `object`, refused with 409
   * Conflict unless its `metadata.resourceVersion` is the stored one.
   */
  update(
    ref: ResourceRef,
    object: KubeObject,
    options: CallOptions & { subresource?: string } = {},
  ): Promise<KubeObject> {
    return this.request(
      'PUT',
      resourcePath(ref, object.metadata.namespace, object.metadata.name, options.subresource),
      withSignal({ body: object }, options),
    );
  }

  /**
   * DELETE with `Background` propagation unless told otherwise. With `preconditions`, the server
   * deletes only the object with that uid (and resourceVersion), answering 409 Conflict otherwise.
   */
  delete(
    ref: ResourceRef,
    namespace: string | undefined,
    name: string,
    options: DeleteOptions = {},
  ): Promise<unknown> {
    const { propagationPolicy = 'Background', preconditions } = options;
    const body = {
      apiVersion: 'v1',
      kind: 'DeleteOptions',
      propagationPolicy,
      ...(preconditions ? { preconditions } : {}),
    };
    return this.request('DELETE', resourcePath(ref, namespace, name), withSignal({ body }, options));
  }

  /**
   * Watches a collection from `query.resourceVersion`, handing over each event as it arrives. No
   * request timeout: the server ends the watch after `timeoutSeconds`, and the caller watches for silence.
   */
  watch(
    ref: ResourceRef,
    namespace: string | undefined,
    query: Record<string, string | undefined>,
    handlers: WatchHandlers,
  ): OpenWatch {
    let open: OpenWatch | undefined;
    let closed = false;
    const ended = (error?: unknown) => {
      if (error instanceof ApiError && error.code === 401) this.#connection.invalidate();
      if (error instanceof ApiError && error.code === 403) this.#onForbidden?.();
      handlers.ended(error);
    };
    const path = resourcePath(ref, namespace) + searchOf({ ...query, watch: 'true' });
    const transport = this.#server.protocol === 'https:' ? https : http;
    this.#connection.current().then(
      (connection) => {
        if (closed) return;
        const requestOptions = this.#requestOptions(connection, 'GET', path, undefined, {});
        const sentAt = performance.now();
        open = readWatch(
          (onResponse) =>
            transport.request(requestOptions, (response) => {
              this.#onResponse?.('GET', this.#server.host, response.statusCode, performance.now() - sentAt);
              onResponse(response);
            }),
          { event: handlers.event, ended, ...(handlers.opened ? { opened: handlers.opened } : {}) },
        );
      },
      (error: unknown) => !closed && ended(error),
    );
    return {
      close: () => {
        closed = true;
        open?.close();
      },
    };
  }

  close(): void {
    this.#connection.close();
  }
}
