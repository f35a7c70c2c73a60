import { stringify } from 'yaml';

const CONTEXT_NAME = 'in-memory';

/** A kubeconfig for a plain-http server: client-node and kubectl need insecure-skip-tls-verify for http. */
function kubeconfigDocument(url: string): Record<string, unknown> {
  return {
    apiVersion: 'v1',
    kind: 'Config',
    preferences: {},
    clusters: [{ name: CONTEXT_NAME, cluster: { server: url, 'insecure-skip-tls-verify': true } }],
    users: [{ name: CONTEXT_NAME, user: { token: 'in-memory' } }],
    contexts: [
      { name: CONTEXT_NAME, context: { cluster: CONTEXT_NAME, user: CONTEXT_NAME, namespace: 'default' } },
    ],
    'current-context': CONTEXT_NAME,
  };
}

export function kubeconfigYaml(url: string): string {
  return stringify(kubeconfigDocument(url));
}
