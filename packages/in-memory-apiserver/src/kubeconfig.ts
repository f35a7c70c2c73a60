import { stringify } from 'yaml';

const CONTEXT_NAME = 'in-memory';

/**
 * A kubeconfig for a plain-http server: client-node and kubectl need insecure-skip-tls-verify for http.
 * The server takes any bearer token and logs it as the user, so `user` tells clients apart.
 */
function kubeconfigDocument(url: string, user: string): Record<string, unknown> {
  return {
    apiVersion: 'v1',
    kind: 'Config',
    preferences: {},
    clusters: [{ name: CONTEXT_NAME, cluster: { server: url, 'insecure-skip-tls-verify': true } }],
    users: [{ name: CONTEXT_NAME, user: { token: user } }],
    contexts: [
      { name: CONTEXT_NAME, context: { cluster: CONTEXT_NAME, user: CONTEXT_NAME, namespace: 'default' } },
    ],
    'current-context': CONTEXT_NAME,
  };
}

export const DEFAULT_USER = 'in-memory';

export function kubeconfigYaml(url: string, user = DEFAULT_USER): string {
  return stringify(kubeconfigDocument(url, user));
}
