import {
  HttpMethod,
  ServerConfiguration,
  createConfiguration,
  type Configuration,
  type KubeConfig,
} from '@kubernetes/client-node';

/** An API server answer: the HTTP status and the body, parsed as JSON when it is JSON. */
export interface ApiResponse {
  status: number;
  body: unknown;
}

export type ApiGet = (path: string) => Promise<ApiResponse>;

export const DEFAULT_REQUEST_TIMEOUT_MS = 30_000;

/**
 * A GET on any API path with the transport, TLS and credentials of `kubeConfig`. Generic on
 * purpose: the typed clients would deserialise a Knative `Service` as a core `V1Service` and drop
 * its `status.address`. A GET not fully answered within `timeoutMs` is abandoned.
 */
export function createApiGet(kubeConfig: KubeConfig, timeoutMs = DEFAULT_REQUEST_TIMEOUT_MS): ApiGet {
  const configuration = configurationFor(kubeConfig);
  return async (path) => {
    const request = configuration.baseServer.makeRequestContext(path, HttpMethod.GET);
    request.setHeaderParam('Accept', 'application/json');
    await kubeConfig.applySecurityAuthentication(request);
    const deadline = AbortSignal.timeout(timeoutMs);
    request.setSignal(deadline);
    try {
      const response = await configuration.httpApi.send(request).toPromise();
      return { status: response.httpStatusCode, body: parseBody(await response.body.text()) };
    } catch (error) {
      if (!deadline.aborted) throw error;
      throw new Error(`GET ${path} timed out: no answer from the API server within ${timeoutMs} ms`);
    }
  };
}

function configurationFor(kubeConfig: KubeConfig): Configuration {
  const cluster = kubeConfig.getCurrentCluster();
  if (cluster === null) throw new Error('the kubeconfig has no current cluster');
  return createConfiguration({ baseServer: new ServerConfiguration(cluster.server, {}) });
}

function parseBody(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}
