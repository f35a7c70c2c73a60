/**
 * An HTTP proxy in front of an API server (plain HTTP in memory, TLS on the real control plane) that,
 * while its storm is on, answers every request but watches `429 TooManyRequests` with `Retry-After`,
 * as priority and fairness does under load, and records each refusal with its time. The controller
 * under test is its only client, so what it refuses is that controller's.
 */
import http from 'node:http';
import https from 'node:https';
import { KubeConfig } from '@kubernetes/client-node';

export interface Refusal {
  /** `METHOD /path` (no query). */
  line: string;
  at: number;
}

export interface ThrottlingProxy {
  /** A kubeconfig for the same user, through the proxy. */
  kubeConfig: KubeConfig;
  refused: Refusal[];
  setStorm(on: boolean): void;
  close(): Promise<void>;
}

export async function startThrottlingProxy(
  direct: KubeConfig,
  retryAfterSeconds: number,
): Promise<ThrottlingProxy> {
  const target = new URL(direct.getCurrentCluster()!.server);
  const upstreamModule = target.protocol === 'https:' ? https : http;
  const refused: Refusal[] = [];
  let storm = false;
  const server = http.createServer((request, response) => {
    const url = request.url ?? '';
    if (storm && !/[?&]watch=(true|1)/.test(url)) {
      refused.push({ line: `${request.method} ${url.split('?')[0]}`, at: Date.now() });
      request.resume();
      response.writeHead(429, {
        'Content-Type': 'application/json',
        'Retry-After': String(retryAfterSeconds),
      });
      response.end(
        JSON.stringify({
          kind: 'Status',
          apiVersion: 'v1',
          status: 'Failure',
          message: 'Too many requests, please try again later.',
          reason: 'TooManyRequests',
          details: { retryAfterSeconds },
          code: 429,
        }),
      );
      return;
    }
    const upstream = upstreamModule.request(
      {
        hostname: target.hostname,
        port: target.port,
        path: url,
        method: request.method,
        headers: { ...request.headers, host: target.host },
        rejectUnauthorized: false,
      },
      (answer) => {
        response.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(response);
      },
    );
    upstream.on('error', () => response.destroy());
    response.on('close', () => upstream.destroy());
    request.pipe(upstream);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as { port: number }).port;
  const kubeConfig = new KubeConfig();
  kubeConfig.loadFromOptions({
    clusters: [{ name: 'proxy', server: `http://127.0.0.1:${port}`, skipTLSVerify: true }],
    users: [{ name: 'controller', token: direct.getCurrentUser()!.token! }],
    contexts: [{ name: 'proxy', cluster: 'proxy', user: 'controller' }],
    currentContext: 'proxy',
  });
  return {
    kubeConfig,
    refused,
    setStorm(on) {
      storm = on;
    },
    async close() {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}
