/**
 * The suite's own view of the API server, as a user with kubectl has it: plain JSON objects, any kind
 * found through discovery, server-side apply for "apply this YAML". Independent of the controller's
 * client on purpose, so the suite does not share the code it checks.
 */
import http from 'node:http';
import https from 'node:https';
import type { KubeConfig } from '@kubernetes/client-node';
import type { KubeObject } from '@scoby/kube-objects';

export const FIELD_MANAGER = 'scoby-e2e';

export class KubeApiError extends Error {
  readonly code: number;
  readonly reason: string;

  constructor(code: number, reason: string, message: string) {
    super(message);
    this.code = code;
    this.reason = reason;
  }
}

export interface Resource {
  group: string;
  version: string;
  plural: string;
  namespaced: boolean;
}

interface DiscoveredResource {
  name: string;
  kind: string;
  namespaced: boolean;
}

export class KubeClient {
  readonly #kubeConfig: KubeConfig;
  readonly #server: URL;
  readonly #agent: http.Agent;
  readonly #discovery = new Map<string, DiscoveredResource[]>();

  constructor(kubeConfig: KubeConfig) {
    const cluster = kubeConfig.getCurrentCluster();
    if (cluster === null) throw new Error('the kubeconfig names no current cluster');
    this.#kubeConfig = kubeConfig;
    this.#server = new URL(cluster.server);
    this.#agent =
      this.#server.protocol === 'https:'
        ? new https.Agent({ keepAlive: true })
        : new http.Agent({ keepAlive: true });
  }

  /** The resource serving a kind; discovery is asked again when a kind is unknown (CRDs come and go). */
  async resource(apiVersion: string, kind: string): Promise<Resource | undefined> {
    const cached = this.#discovery.get(apiVersion)?.find((entry) => entry.kind === kind);
    const found = cached ?? (await this.#discover(apiVersion)).find((entry) => entry.kind === kind);
    if (found === undefined) return undefined;
    const [group, version] = apiVersion.includes('/')
      ? (apiVersion.split('/') as [string, string])
      : ['', apiVersion];
    return { group, version, plural: found.name, namespaced: found.namespaced };
  }

  async #discover(apiVersion: string): Promise<DiscoveredResource[]> {
    const path = apiVersion.includes('/') ? `/apis/${apiVersion}` : `/api/${apiVersion}`;
    let resources: DiscoveredResource[] = [];
    try {
      const list = await this.request<{ resources?: DiscoveredResource[] }>('GET', path);
      resources = (list.resources ?? []).filter((entry) => !entry.name.includes('/'));
    } catch (error) {
      if (!(error instanceof KubeApiError && error.code === 404)) throw error;
    }
    this.#discovery.set(apiVersion, resources);
    return resources;
  }

  async pathOf(apiVersion: string, kind: string, namespace?: string, name?: string): Promise<string> {
    const resource = await this.resource(apiVersion, kind);
    if (resource === undefined)
      throw new KubeApiError(404, 'NotFound', `the server does not serve kind "${kind}" in "${apiVersion}"`);
    const base =
      resource.group === '' ? `/api/${resource.version}` : `/apis/${resource.group}/${resource.version}`;
    const scope =
      resource.namespaced && namespace !== undefined ? `/namespaces/${encodeURIComponent(namespace)}` : '';
    return `${base}${scope}/${resource.plural}${name === undefined ? '' : `/${encodeURIComponent(name)}`}`;
  }

  /** `kubectl apply --server-side --force-conflicts`. */
  async apply(object: KubeObject): Promise<KubeObject> {
    const path = await this.pathOf(
      object.apiVersion,
      object.kind,
      object.metadata.namespace,
      object.metadata.name,
    );
    return this.request('PATCH', path, {
      body: object,
      contentType: 'application/apply-patch+yaml',
      query: { fieldManager: FIELD_MANAGER, force: 'true' },
    });
  }

  /** `kubectl replace`: the whole object, guarded by the stored resourceVersion. */
  async replace(object: KubeObject): Promise<KubeObject> {
    const { apiVersion, kind, metadata } = object;
    const current = await this.get(apiVersion, kind, metadata.namespace, metadata.name ?? '');
    if (current === undefined)
      throw new KubeApiError(404, 'NotFound', `${kind} "${metadata.name ?? ''}" does not exist`);
    const path = await this.pathOf(apiVersion, kind, metadata.namespace, metadata.name);
    return this.request('PUT', path, {
      body: { ...object, metadata: { ...metadata, resourceVersion: current.metadata.resourceVersion } },
    });
  }

  async get(
    apiVersion: string,
    kind: string,
    namespace: string | undefined,
    name: string,
  ): Promise<KubeObject | undefined> {
    try {
      return await this.request('GET', await this.pathOf(apiVersion, kind, namespace, name));
    } catch (error) {
      if (error instanceof KubeApiError && error.code === 404) return undefined;
      throw error;
    }
  }

  async list(apiVersion: string, kind: string, namespace?: string): Promise<KubeObject[]> {
    const list = await this.request<{ items?: KubeObject[] }>(
      'GET',
      await this.pathOf(apiVersion, kind, namespace),
    );
    return list.items ?? [];
  }

  /** Deletes in the background; an object already gone is fine. */
  async delete(apiVersion: string, kind: string, namespace: string | undefined, name: string): Promise<void> {
    try {
      await this.request('DELETE', await this.pathOf(apiVersion, kind, namespace, name), {
        body: { apiVersion: 'v1', kind: 'DeleteOptions', propagationPolicy: 'Background' },
      });
    } catch (error) {
      if (!(error instanceof KubeApiError && error.code === 404)) throw error;
    }
  }

  /** A JSON patch (RFC 6902) of the object or one of its subresources, as `kubectl patch --type=json`. */
  async jsonPatch(object: KubeObject, patch: unknown[], subresource?: 'status'): Promise<KubeObject> {
    const path = await this.pathOf(
      object.apiVersion,
      object.kind,
      object.metadata.namespace,
      object.metadata.name,
    );
    return this.request('PATCH', subresource === undefined ? path : `${path}/${subresource}`, {
      body: patch,
      contentType: 'application/json-patch+json',
    });
  }

  /** GET of a plain-text resource, such as a pod's log. */
  async text(path: string, query: Record<string, string> = {}): Promise<string> {
    return this.request<string>('GET', path, { query, raw: true });
  }

  async request<T>(
    method: string,
    path: string,
    options: { body?: unknown; contentType?: string; query?: Record<string, string>; raw?: boolean } = {},
  ): Promise<T> {
    const url = new URL(path, this.#server);
    for (const [key, value] of Object.entries(options.query ?? {})) url.searchParams.set(key, value);
    const body = options.body === undefined ? undefined : Buffer.from(JSON.stringify(options.body));
    const requestOptions: https.RequestOptions = {
      method,
      agent: this.#agent,
      headers: {
        Accept: 'application/json',
        ...(body === undefined
          ? {}
          : { 'Content-Type': options.contentType ?? 'application/json', 'Content-Length': body.length }),
      },
    };
    await this.#kubeConfig.applyToHTTPSOptions(requestOptions);
    const transport = url.protocol === 'https:' ? https : http;
    const { status, text } = await new Promise<{ status: number; text: string }>((resolve, reject) => {
      const request = transport.request(url, requestOptions, (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () =>
          resolve({ status: response.statusCode ?? 0, text: Buffer.concat(chunks).toString('utf8') }),
        );
        response.on('error', reject);
      });
      request.on('error', reject);
      request.end(body);
    });
    if (options.raw === true && status >= 200 && status < 300) return text as T;
    const parsed = parseAnswer(text);
    if (status >= 200 && status < 300) {
      if (parsed === undefined)
        throw new Error(
          `${method} ${path}: HTTP ${status} with a body that is not JSON: ${text.slice(0, 200)}`,
        );
      return parsed as T;
    }
    const failure = (parsed ?? {}) as { reason?: string; message?: string };
    throw new KubeApiError(
      status,
      failure.reason ?? '',
      `${method} ${path}: HTTP ${status}: ${failure.message ?? text}`,
    );
  }

  close(): void {
    this.#agent.destroy();
  }
}

/**
 * The answer's JSON; undefined when it is not JSON. kube-apiserver answers some requests in plain text,
 * such as "404 page not found" for a group version its discovery does not serve yet, moments after
 * the CRD that adds it.
 */
function parseAnswer(text: string): unknown {
  if (text === '') return {};
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}
