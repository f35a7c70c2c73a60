/**
 * Start-up checks: before the controller starts its watches, the cluster it needs must be there.
 * Each failure is one problem and what to do about it, so the process says it once per attempt
 * instead of a stack trace per failed watch.
 */
import type { KubeConfig } from '@kubernetes/client-node';
import { ApiError, DynamicClient, errorMessage } from '@scoby/controller-runtime';

export interface StartupProblem {
  /** What is wrong, naming the server or file. */
  problem: string;
  /** What to do about it. */
  fix: string;
}

/**
 * `final`: trying again cannot help (the credentials could not be loaded: a missing or unreadable
 * kubeconfig file is not something the cluster fixes by coming up).
 */
export type ClusterCheck =
  { ok: true; kubeConfig: KubeConfig } | ({ ok: false; final?: boolean } & StartupProblem);

const REGISTRATIONS_PATH = '/apis/scoby.triggermesh.io/v1alpha1/crdregistrations';

/** Why the first request failed, in words; undefined when it is not about reaching or trusting the server. */
function connectionProblem(server: string, error: unknown): StartupProblem | undefined {
  if (error instanceof ApiError && error.code === 401) {
    return {
      problem: `the API server at ${server} rejected the credentials (401 Unauthorized)`,
      fix: 'renew the token or client certificate of the kubeconfig, or the ServiceAccount token',
    };
  }
  if (error instanceof ApiError) return undefined;
  return {
    problem: `cannot reach the API server at ${server}: ${errorMessage(error)}`,
    fix: "check that the cluster is running and that the kubeconfig's server address is right",
  };
}

/**
 * Loads the credentials, then asks the API server for its version, for the CRDRegistration API and
 * for one CRDRegistration (the controller's first list).
 */
export async function checkCluster(
  loadKubeConfig: () => KubeConfig,
  options: { requestTimeoutMs: number },
): Promise<ClusterCheck> {
  let kubeConfig: KubeConfig;
  let client: DynamicClient;
  try {
    kubeConfig = loadKubeConfig();
    client = new DynamicClient(kubeConfig, { requestTimeoutMs: options.requestTimeoutMs });
  } catch (error) {
    return {
      ok: false,
      final: true,
      problem: `no usable cluster credentials: ${errorMessage(error)}`,
      fix: 'pass --kubeconfig, set KUBECONFIG, or run in a Pod with a ServiceAccount',
    };
  }
  const server = kubeConfig.getCurrentCluster()?.server ?? '';
  try {
    await client.request('GET', '/version');
    await client.request('GET', REGISTRATIONS_PATH, { query: { limit: '1' } });
    return { ok: true, kubeConfig };
  } catch (error) {
    const connection = connectionProblem(server, error);
    if (connection) return { ok: false, ...connection };
    if (error instanceof ApiError && error.code === 404) {
      return {
        ok: false,
        problem: `the CRDRegistration CRD is not installed in the cluster at ${server} (scoby.triggermesh.io/v1alpha1 is not served)`,
        fix: 'install it with: scoby crds | kubectl apply -f -',
      };
    }
    if (error instanceof ApiError && error.code === 403) {
      return {
        ok: false,
        problem: `the controller may not list CRDRegistrations: ${error.message}`,
        fix: "grant the RBAC of deploy/10-rbac.yaml to the controller's account",
      };
    }
    return {
      ok: false,
      problem: `the API server at ${server} failed: ${errorMessage(error)}`,
      fix: 'see its logs',
    };
  } finally {
    client.close();
  }
}
