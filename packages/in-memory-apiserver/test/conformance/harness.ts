import { randomBytes } from 'node:crypto';
import { request as httpRequest } from 'node:http';
import { request as httpsRequest, type RequestOptions as HttpsRequestOptions } from 'node:https';
import {
  ApiException,
  ApiextensionsV1Api,
  CoreV1Api,
  KubeConfig,
  type V1CustomResourceDefinition,
  type V1JSONSchemaProps,
} from '@kubernetes/client-node';
import fetch, { type RequestInit } from 'node-fetch';
import { startApiServer, type ApiServerOptions, type InMemoryApiServer } from '../../src/index.ts';

/**
 * The cluster the conformance tests run against: the in-memory server, or a real cluster when
 * CONFORMANCE_KUBECONFIG names a kubeconfig file (then `server` is undefined and tests that need fault
 * injection or simulation skip themselves with a printed reason).
 */
export interface Target {
  kubeConfig: KubeConfig;
  server: InMemoryApiServer | undefined;
  stop(): Promise<void>;
}

export const REAL_CLUSTER_KUBECONFIG = process.env.CONFORMANCE_KUBECONFIG;

export async function connect(options: ApiServerOptions = {}): Promise<Target> {
  if (REAL_CLUSTER_KUBECONFIG !== undefined && REAL_CLUSTER_KUBECONFIG !== '') {
    const kubeConfig = new KubeConfig();
    kubeConfig.loadFromFile(REAL_CLUSTER_KUBECONFIG);
    return { kubeConfig, server: undefined, stop: async () => {} };
  }
  const server = await startApiServer(options);
  return { kubeConfig: server.kubeConfig(), server, stop: () => server.stop() };
}

/** The in-memory server, or a skip (with the reason printed) when running against a real cluster. */
export function inMemoryOnly(
  target: Target,
  context: { skip(note?: string): void },
  reason: string,
): InMemoryApiServer {
  if (target.server === undefined) {
    console.log(`skipped against a real cluster: ${reason}`);
    context.skip(reason);
    throw new Error('unreachable: skip() throws');
  }
  return target.server;
}

export function uniqueName(prefix: string): string {
  return `${prefix}-${randomBytes(3).toString('hex')}`;
}

/** A fresh namespace for one test, so tests also run side by side on a shared real cluster. */
export async function freshNamespace(target: Target, prefix = 'conf'): Promise<string> {
  const name = uniqueName(prefix);
  await target.kubeConfig.makeApiClient(CoreV1Api).createNamespace({ body: { metadata: { name } } });
  return name;
}

/** A namespaced CRD serving and storing one version, v1, with the given schema. */
export function namespacedCrd(
  group: string,
  names: { plural: string; kind: string },
  openAPIV3Schema: V1JSONSchemaProps,
): V1CustomResourceDefinition {
  return {
    metadata: { name: `${names.plural}.${group}` },
    spec: {
      group,
      scope: 'Namespaced',
      names,
      versions: [{ name: 'v1', served: true, storage: true, schema: { openAPIV3Schema } }],
    },
  };
}

/** Creates a CRD and waits until it is Established (served). */
export async function installEstablished(target: Target, crd: V1CustomResourceDefinition): Promise<void> {
  const extensions = target.kubeConfig.makeApiClient(ApiextensionsV1Api);
  await extensions.createCustomResourceDefinition({ body: crd });
  await eventually(async () => {
    const current = await extensions.readCustomResourceDefinition({ name: crd.metadata?.name ?? '' });
    const conditions = current.status?.conditions ?? [];
    return conditions.some((condition) => condition.type === 'Established' && condition.status === 'True')
      ? true
      : undefined;
  }, CONTROLLER_PATIENCE_MS);
}

/** The Status object of a failed client call. */
export function statusOf(error: unknown): {
  code: number;
  reason: string;
  message: string;
  details?: Record<string, unknown>;
} {
  if (!(error instanceof ApiException)) throw error;
  const body = typeof error.body === 'string' ? JSON.parse(error.body) : error.body;
  return body;
}

export async function failure(call: Promise<unknown>): Promise<ReturnType<typeof statusOf>> {
  try {
    await call;
  } catch (error) {
    return statusOf(error);
  }
  throw new Error('expected the call to fail');
}

/**
 * How long to wait for a controller's work (namespace and CRD clean-up, garbage collection): the real
 * controllers work off queues and take seconds (a namespace ~5 s per round); the in-memory ones act at once.
 */
export const CONTROLLER_PATIENCE_MS = REAL_CLUSTER_KUBECONFIG ? 45_000 : 5_000;

/** For `eventually`: true once the read answers 404, undefined while the object is still there. */
export async function whenNotFound(read: () => Promise<unknown>): Promise<true | undefined> {
  try {
    await read();
    return undefined;
  } catch (error) {
    if (statusOf(error).code === 404) return true;
    throw error;
  }
}

/** Polls until `probe` returns a value other than undefined (or times out). */
export async function eventually<T>(
  probe: () => Promise<T | undefined> | T | undefined,
  timeoutMs = 5000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error('condition not reached in time');
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

/** Raw HTTP against the target, for what the typed clients do not expose. */
export async function rawRequest(
  target: Target,
  method: string,
  path: string,
  body?: { contentType: string; text: string },
  headers: Record<string, string> = {},
): Promise<{ status: number; json: unknown }> {
  const { status, json } = await rawResponse(target, method, path, body, headers);
  return { status, json };
}

/** POSTs an object as JSON and returns what the server created; any other answer than 201 throws it. */
export async function createRaw<Created>(target: Target, path: string, object: unknown): Promise<Created> {
  const reply = await rawRequest(target, 'POST', path, {
    contentType: 'application/json',
    text: JSON.stringify(object),
  });
  if (reply.status !== 201) throw new Error(`POST ${path}: ${reply.status} ${JSON.stringify(reply.json)}`);
  return reply.json as Created;
}

/** {@link rawRequest} with the response headers (lower-case names). */
export async function rawResponse(
  target: Target,
  method: string,
  path: string,
  body?: { contentType: string; text: string },
  headers: Record<string, string> = {},
): Promise<{ status: number; json: unknown; headers: Record<string, string> }> {
  const cluster = target.kubeConfig.getCurrentCluster();
  if (!cluster) throw new Error('no current cluster');
  const init: RequestInit = await target.kubeConfig.applyToFetchOptions({});
  const response = await fetch(cluster.server + path, {
    ...init,
    method,
    headers: {
      ...(init.headers as Record<string, string> | undefined),
      ...(body ? { 'Content-Type': body.contentType } : {}),
      ...headers,
    },
    ...(body ? { body: body.text } : {}),
  });
  const text = await response.text();
  let json: unknown = text;
  try {
    json = JSON.parse(text);
  } catch {
    // not JSON: keep the text
  }
  return { status: response.status, json, headers: Object.fromEntries(response.headers.entries()) };
}

/**
 * A request written with Node's http(s).request as a client writes it: with `lengthKnown` false the
 * body is written after the headers without a Content-Length (Node then sends a DELETE's body with no
 * length at all); true sets one. Answers the status and text of the first reply on the connection.
 */
export async function nodeRequest(
  target: Target,
  method: string,
  path: string,
  body: string,
  lengthKnown: boolean,
): Promise<{ status: number; json: unknown }> {
  const cluster = target.kubeConfig.getCurrentCluster();
  if (!cluster) throw new Error('no current cluster');
  const url = new URL(path, cluster.server);
  const options: HttpsRequestOptions = {
    method,
    hostname: url.hostname,
    port: url.port,
    path: url.pathname + url.search,
    agent: false,
    headers: {
      'Content-Type': 'application/json',
      ...(lengthKnown ? { 'Content-Length': String(Buffer.byteLength(body)) } : {}),
    },
  };
  await target.kubeConfig.applyToHTTPSOptions(options);
  const send = url.protocol === 'https:' ? httpsRequest : httpRequest;
  return new Promise((resolve, reject) => {
    const request = send(options, (response) => {
      let text = '';
      response.setEncoding('utf8');
      response.on('data', (chunk: string) => (text += chunk));
      response.on('end', () => {
        let json: unknown = text;
        try {
          json = JSON.parse(text);
        } catch {
          // not JSON: keep the text
        }
        resolve({ status: response.statusCode ?? 0, json });
      });
    });
    request.on('error', reject);
    request.write(body);
    request.end();
  });
}
