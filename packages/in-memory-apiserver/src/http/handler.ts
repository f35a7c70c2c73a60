import type { IncomingMessage, ServerResponse } from 'node:http';
import { setTimeout as delay } from 'node:timers/promises';
import { parse as parseYaml } from 'yaml';
import type { AccessPolicy } from '../authorization.ts';
import type { KubeObject } from '@scoby/kube-objects';
import { atVersion, type Cluster } from '../cluster.ts';
import { apiGroupDocument, apiGroupList, apiResourceList, apiVersions, VERSION_INFO } from '../discovery.ts';
import type { FaultHooks } from '../faults.ts';
import type { OpenApiDocuments } from '../openapi/documents.ts';
import { openApiReply } from '../openapi/http.ts';
import { requestedTable, tableOf, tableWatchEvents } from '../table/table.ts';
import type { BoundedRequestLog, RequestLogEntry } from '../request-log.ts';
import { resourceNotFoundReply, type Reply } from '../status.ts';
import type { WatchHub, WatchSink } from '../watch.ts';
import { dispatch, parseBody, type Dispatched } from './dispatch.ts';
import { resolveRequest, type ResolvedRequest } from './resolve.ts';
import { parseRoute } from './route.ts';

export interface HandlerContext {
  cluster: Cluster;
  hub: WatchHub;
  faults: FaultHooks;
  access: AccessPolicy;
  openapi: OpenApiDocuments;
  log: BoundedRequestLog;
  serverAddress(): string;
}

async function readBody(request: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

function loggedBody(text: string): unknown {
  if (text === '') return undefined;
  try {
    return JSON.parse(text);
  } catch {
    try {
      return parseYaml(text) as unknown;
    } catch {
      return text;
    }
  }
}

/**
 * A log entry whose body is parsed when first read: most entries never are, and parsing every one
 * was a measurable share of the server's CPU.
 */
function logEntry(fields: Omit<RequestLogEntry, 'body'>, text: string): RequestLogEntry {
  let parsed: { body: unknown } | undefined;
  return {
    ...fields,
    get body() {
      parsed ??= { body: loggedBody(text) };
      return parsed.body;
    },
  };
}

function found(body: unknown): Reply {
  return body === undefined ? resourceNotFoundReply() : { code: 200, body };
}

/** Discovery and the other non-resource paths; undefined for resource paths. */
function nonResourceReply(
  context: HandlerContext,
  route: ReturnType<typeof parseRoute>,
  url: URL,
  accept: string | undefined,
): Reply | undefined {
  const { registry } = context.cluster;
  switch (route.kind) {
    case 'version':
      return { code: 200, body: VERSION_INFO };
    case 'health':
      return { code: 200, body: 'ok' };
    case 'api':
      return { code: 200, body: apiVersions(context.serverAddress()) };
    case 'apis':
      return { code: 200, body: apiGroupList(registry) };
    case 'group':
      return found(apiGroupDocument(registry, route.group));
    case 'resources':
      return found(apiResourceList(registry, route.group, route.version));
    case 'openapi':
      return openApiReply(context.openapi, route.openapi, url.searchParams, accept, context.cluster.now());
    case 'unknown':
      return { code: 404, body: '404 page not found\n' };
    case 'resource':
      return undefined;
  }
}

function reviewAccess(
  context: HandlerContext,
  user: string | undefined,
  contentType: string,
  text: string,
): Dispatched {
  const body = parseBody({ contentType, text });
  const answer = body.ok ? context.access.review(user, body.value) : body;
  return { reply: answer.ok ? { code: 201, body: answer.value } : answer.failure };
}

function route(
  context: HandlerContext,
  method: string,
  url: URL,
  contentType: string,
  text: string,
  user: string | undefined,
  accept: string | undefined,
): Dispatched & { injected?: true } {
  const parsed = parseRoute(url.pathname);
  const direct = nonResourceReply(context, parsed, url, accept);
  if (direct !== undefined || parsed.kind !== 'resource') return { reply: direct ?? { code: 404, body: '' } };
  const resolved = resolveRequest(context.cluster, method, parsed, url.searchParams);
  if (!resolved.ok) return { reply: resolved.failure };
  const injected = context.faults.take(resolved.value, user);
  if (injected !== undefined) return { reply: injected, injected: true };
  const forbidden = context.access.forbidden(user, resolved.value);
  if (forbidden !== undefined) return { reply: forbidden };
  if (resolved.value.type.group === 'authorization.k8s.io')
    return reviewAccess(context, user, contentType, text);
  const dispatched = inApiShape(
    dispatch(context.cluster, resolved.value, url.searchParams, { contentType, text }),
    resolved.value,
  );
  return requestedTable(accept) === undefined
    ? withTypedListItems(dispatched, resolved.value)
    : asTableWhenAsked(dispatched, resolved.value, url.searchParams, accept, context.cluster.now());
}

/**
 * kube-apiserver decodes built-in objects into typed lists, which drops each item's apiVersion and kind;
 * custom resources are listed unstructured and keep theirs. (A Table is made from the full objects.)
 */
function withTypedListItems(dispatched: Dispatched, request: ResolvedRequest): Dispatched {
  if (!request.type.builtin || request.verb !== 'list' || !('reply' in dispatched)) return dispatched;
  const list = dispatched.reply.body as { items?: KubeObject[] } | undefined;
  if (dispatched.reply.code !== 200 || !Array.isArray(list?.items)) return dispatched;
  const items = list.items.map(({ apiVersion: _apiVersion, kind: _kind, ...item }) => item);
  return { reply: { ...dispatched.reply, body: { ...list, items } } };
}

/** An object a write answers with, in the shape of the API it was written through (Events are stored as core Events). */
function inApiShape(dispatched: Dispatched, request: ResolvedRequest): Dispatched {
  if (!('reply' in dispatched)) return dispatched;
  const body = dispatched.reply.body as KubeObject | undefined;
  if (body?.kind !== request.type.kind || body.metadata === undefined) return dispatched;
  return { reply: { ...dispatched.reply, body: atVersion(request.type, request.version, body) } };
}

/** A get or list answered as a Table when the client asks for one (kubectl get). */
function asTableWhenAsked(
  dispatched: Dispatched,
  request: ResolvedRequest,
  query: URLSearchParams,
  accept: string | undefined,
  now: Date,
): Dispatched {
  const tableVersion = requestedTable(accept);
  if (tableVersion === undefined || !('reply' in dispatched) || dispatched.reply.code !== 200)
    return dispatched;
  if ((request.verb !== 'get' && request.verb !== 'list') || request.subresource !== undefined)
    return dispatched;
  return { reply: tableOf(request.type, request.version, dispatched.reply.body, query, tableVersion, now) };
}

function send(response: ServerResponse, reply: Reply): void {
  const text = typeof reply.body === 'string' ? reply.body : JSON.stringify(reply.body);
  response.writeHead(reply.code, {
    'Content-Type': typeof reply.body === 'string' ? 'text/plain; charset=utf-8' : 'application/json',
    ...reply.headers,
    'Content-Length': Buffer.byteLength(text),
  });
  response.end(text);
}

function stream(
  context: HandlerContext,
  request: IncomingMessage,
  response: ServerResponse,
  watch: Extract<Dispatched, { watch: unknown }>['watch'],
  user: string | undefined,
  url: URL,
): void {
  const shaped = tableWatchEvents(watch.type, watch.version, url.searchParams, request.headers.accept, () =>
    context.cluster.now(),
  );
  response.writeHead(200, {
    'Content-Type': 'application/json',
    'Transfer-Encoding': 'chunked',
    'Cache-Control': 'no-cache',
  });
  response.flushHeaders();
  const sink: WatchSink = {
    user,
    write: (event) => {
      if (!response.writableEnded) response.write(`${JSON.stringify(shaped(event))}\n`);
    },
    end: () => {
      if (!response.writableEnded) response.end();
    },
  };
  request.on('close', () => context.hub.forget(sink));
  context.hub.open({ ...watch, sink });
}

/** The whole HTTP surface: discovery, resources, watches; every request logged with its answer. */
export async function handleRequest(
  context: HandlerContext,
  request: IncomingMessage,
  response: ServerResponse,
): Promise<void> {
  const text = await readBody(request);
  const user = bearerUser(request.headers.authorization);
  const swallowed = context.faults.swallow(user);
  if (swallowed !== undefined) {
    await swallowed;
    // A client that gave up meanwhile closed its connection: its request never arrives. One turn
    // of the event loop lets a close that is already on its way be seen.
    await new Promise((resolve) => setImmediate(resolve));
    if (request.socket.destroyed) return;
  }
  const url = new URL(request.url ?? '/', 'http://in-memory');
  const method = request.method ?? 'GET';
  const contentType = request.headers['content-type'];
  const latency = context.faults.latencyMs();
  if (latency > 0) await delay(latency);
  const outcome = route(context, method, url, contentType ?? '', text, user, request.headers.accept);
  context.log.add(
    logEntry(
      {
        method,
        path: url.pathname,
        user,
        query: Object.fromEntries(url.searchParams),
        contentType,
        userAgent: request.headers['user-agent'],
        code: 'reply' in outcome ? outcome.reply.code : 200,
        injected: outcome.injected === true,
      },
      text,
    ),
  );
  if ('reply' in outcome) send(response, outcome.reply);
  else stream(context, request, response, outcome.watch, user, url);
}

/** Any bearer token is accepted and names the user (the in-memory server does no authentication). */
function bearerUser(authorization: string | undefined): string | undefined {
  const match = /^Bearer\s+(.+)$/i.exec(authorization ?? '');
  return match?.[1];
}
