import { writeFile } from 'node:fs/promises';
import { createServer, type Server, type ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import type { Duplex } from 'node:stream';
import { KubeConfig } from '@kubernetes/client-node';
import type { KubeObject } from '@scoby/kube-objects';
import { systemClock, timestamp, type Cluster } from './cluster.ts';
import { startCrdController } from './controllers/crd-controller.ts';
import { startGarbageCollector } from './controllers/garbage-collector.ts';
import { startNamespaceController } from './controllers/namespace-controller.ts';
import { AccessPolicy, type Authorization } from './authorization.ts';
import { coreEventOf } from './events/event-shapes.ts';
import { DEFAULT_EVENT_TTL_MS, startEventTtl } from './events/event-ttl.ts';
import { FaultInjector, type Faults } from './faults.ts';
import { OpenApiDocuments } from './openapi/documents.ts';
import { handleRequest } from './http/handler.ts';
import { kubeconfigYaml } from './kubeconfig.ts';
import { ResourceRegistry } from './registry.ts';
import { BoundedRequestLog, type RequestLog } from './request-log.ts';
import { clusterIpAllocator } from './simulators/cluster-ip.ts';
import { knativeServiceSimulation } from './simulators/knative.ts';
import { startStatusSimulator, type StatusSimulation } from './simulators/status-simulator.ts';
import { deploymentSimulation, statefulSetSimulation } from './simulators/workloads.ts';
import { resourceKey } from './resource-type.ts';
import { ObjectStore } from './store.ts';
import { createObject } from './verbs/create.ts';
import { WatchHub } from './watch.ts';

export interface ApiServerOptions {
  /** 0 or absent: a random free port on 127.0.0.1. */
  port?: number;
  /** Simulated built-in controllers; each defaults to on. */
  simulate?: {
    deployments?: boolean | { delayMs: number };
    services?: boolean;
    knativeServices?: boolean | { delayMs: number };
    statefulSets?: boolean | { delayMs: number };
  };
  /** How many changes are kept for watches resuming from a resourceVersion (older ones get 410 Gone). Default 10,000. */
  watchHistory?: number;
  /** Interval of BOOKMARK events on watches that allow them. Default 1,000 ms. */
  bookmarkIntervalMs?: number;
  /** How many requests the request log keeps. Default 10,000. */
  requestLogLimit?: number;
  /** How long an Event lives after its last write (kube-apiserver's --event-ttl). Default 1 h. */
  eventTtlMs?: number;
}

export interface InMemoryApiServer {
  /** http://127.0.0.1:<port> */
  readonly url: string;
  /** Credentials of `user` (default `in-memory`): the request log and black holes tell clients apart by it. */
  kubeConfig(user?: string): KubeConfig;
  kubeconfigYaml(): string;
  writeKubeconfig(file: string): Promise<void>;
  readonly requestLog: RequestLog;
  readonly faults: Faults;
  /** SelfSubjectAccessReview answers: everything is allowed unless denied here. */
  readonly authorization: Authorization;
  /** Closes every watch and connection, stops the simulated controllers, and the server. */
  stop(): Promise<void>;
}

const DEFAULT_SIMULATION_DELAY_MS = 5;

function delayOf(setting: boolean | { delayMs: number } | undefined): number | undefined {
  if (setting === false) return undefined;
  return typeof setting === 'object' ? setting.delayMs : DEFAULT_SIMULATION_DELAY_MS;
}

/** The reply still being written on a connection, which a malformed next request must not overtake. */
const pendingReplies = new WeakMap<Socket, Promise<void>>();

function holdParseErrorsUntilAnswered(socket: Socket, response: ServerResponse): void {
  pendingReplies.set(
    socket,
    new Promise((resolve) => {
      response.once('finish', resolve);
      response.once('close', resolve);
    }),
  );
}

/**
 * Bytes a client sends after a request without a length (Node's DELETE with a body written to it has
 * neither Content-Length nor chunked encoding) are a malformed next request. Go's server answers the
 * request first, then the garbage with 400 and closes; Node's default would send its 400 at once, ahead
 * of the pending reply, so the client read it as the answer to its request.
 */
function answerParseErrorAfterPendingReply(_error: Error, socket: Duplex): void {
  const pending = pendingReplies.get(socket as Socket) ?? Promise.resolve();
  void pending.then(() => {
    if (socket.writable) socket.end('HTTP/1.1 400 Bad Request\r\nConnection: close\r\n\r\n');
    else socket.destroy();
  });
}

function listen(server: Server, port: number): Promise<number> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => {
      const address = server.address();
      resolve(typeof address === 'object' && address !== null ? address.port : port);
    });
  });
}

function simulations(options: ApiServerOptions): StatusSimulation[] {
  const simulate = options.simulate ?? {};
  const result: StatusSimulation[] = [];
  const deployments = delayOf(simulate.deployments);
  if (deployments !== undefined) result.push(deploymentSimulation(deployments));
  const statefulSets = delayOf(simulate.statefulSets);
  if (statefulSets !== undefined) result.push(statefulSetSimulation(statefulSets));
  const knative = delayOf(simulate.knativeServices);
  if (knative !== undefined) result.push(knativeServiceSimulation(knative));
  return result;
}

/** Starts an in-process Kubernetes API server with namespaces default, kube-system and kube-public. */
export async function startApiServer(options: ApiServerOptions = {}): Promise<InMemoryApiServer> {
  const store = new ObjectStore(options.watchHistory ?? 10_000);
  store.alias(resourceKey('events.k8s.io', 'events'), 'events', (event) => coreEventOf(event) as KubeObject);
  const cluster: Cluster = {
    store,
    registry: new ResourceRegistry(),
    applied: new Map(),
    updated: new Map(),
    created: new Map(),
    allocateClusterIp: options.simulate?.services === false ? undefined : clusterIpAllocator(),
    ...systemClock,
  };
  const hub = new WatchHub(store, options.bookmarkIntervalMs ?? 1000);
  const faults = new FaultInjector();
  const access = new AccessPolicy();
  const openapi = new OpenApiDocuments(cluster.registry);
  const log = new BoundedRequestLog(options.requestLogLimit ?? 10_000);
  const stops = [
    startCrdController(cluster, (key) => hub.closeAll(key)),
    startGarbageCollector(cluster),
    startNamespaceController(cluster),
    startEventTtl(store, options.eventTtlMs ?? DEFAULT_EVENT_TTL_MS),
    ...simulations(options).map((simulation) =>
      startStatusSimulator(cluster, simulation, () => timestamp(cluster.now())),
    ),
  ];
  const namespaceType = cluster.registry.byKey('namespaces');
  for (const name of ['default', 'kube-system', 'kube-public']) {
    if (namespaceType)
      createObject(cluster, namespaceType, 'v1', undefined, { metadata: { name } }, { dryRun: false });
  }

  let url = '';
  const sockets = new Set<Socket>();
  const server = createServer((request, response) => {
    holdParseErrorsUntilAnswered(request.socket, response);
    handleRequest(
      { cluster, hub, faults, access, openapi, log, serverAddress: () => url.replace('http://', '') },
      request,
      response,
    ).catch((error: unknown) => {
      if (!response.headersSent) response.writeHead(500, { 'Content-Type': 'application/json' });
      response.end(
        JSON.stringify({
          kind: 'Status',
          apiVersion: 'v1',
          metadata: {},
          status: 'Failure',
          message: String(error),
          reason: 'InternalError',
          code: 500,
        }),
      );
    });
  });
  server.on('clientError', answerParseErrorAfterPendingReply);
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  const port = await listen(server, options.port ?? 0);
  url = `http://127.0.0.1:${port}`;
  const yaml = kubeconfigYaml(url);

  return {
    url,
    kubeConfig(user) {
      const config = new KubeConfig();
      config.loadFromString(user === undefined ? yaml : kubeconfigYaml(url, user));
      return config;
    },
    kubeconfigYaml: () => yaml,
    writeKubeconfig: (file) => writeFile(file, yaml, 'utf8'),
    requestLog: log,
    authorization: access,
    faults: {
      setLatency: (ms) => faults.setLatency(ms),
      failNext: (match, failure) => faults.failNext(match, failure),
      throttle: (match, options) => faults.throttle(match, options),
      conflictStorm: (match, count) => faults.conflictStorm(match, count),
      blackHole: (blackHole = {}) => {
        const heal = faults.blackHole(blackHole);
        hub.silence(blackHole.user);
        return heal;
      },
      silenceWatches: () => hub.silence(),
      dropWatches: () => hub.closeAll(),
      expireNextWatch: (count = 1) => hub.expireNextWatches(count),
      reset: () => faults.reset(),
    },
    async stop() {
      for (const stop of stops) stop();
      hub.closeAll();
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      for (const socket of sockets) socket.destroy();
      await closed;
    },
  };
}
