/**
 * Scoby installed as a user installs it on a real cluster (kwok, k3s): the admin applies the namespace
 * and RBAC of deploy/, and the controller gets a token of their ServiceAccount, never the admin's
 * credentials, so a verb missing from Scoby's ClusterRoles fails a scenario.
 */
import { KubeConfig } from '@kubernetes/client-node';
import type { KubeObject } from '@scoby/kube-objects';
import { stringify } from 'yaml';
import { deployManifests } from '../deploy-manifests.ts';
import { ClusterHandle } from '../handle.ts';
import type { ProviderName } from './choose.ts';

export const CONTROLLER_ACCOUNT = { namespace: 'scoby-system', name: 'scoby-controller' } as const;

/** A day: longer than any run, and within what kube-apiserver grants by default. */
const TOKEN_SECONDS = 86_400;

/** Applies the install manifests as the admin and returns a kubeconfig of Scoby's ServiceAccount. */
export async function installScobyAccount(
  adminKubeconfigYaml: string,
  provider: ProviderName,
): Promise<string> {
  const admin = new ClusterHandle(adminKubeconfigYaml, provider);
  try {
    // deploy/'s Deployment runs only with an image of the controller (E2E_CONTROLLER_IMAGE, deploy.test.ts).
    const install = (await deployManifests()).filter((object: KubeObject) => object.kind !== 'Deployment');
    await admin.apply(install);
    const { namespace, name } = CONTROLLER_ACCOUNT;
    const answer = await admin.client.request<{ status?: { token?: string } }>(
      'POST',
      `/api/v1/namespaces/${namespace}/serviceaccounts/${name}/token`,
      {
        body: {
          apiVersion: 'authentication.k8s.io/v1',
          kind: 'TokenRequest',
          spec: { expirationSeconds: TOKEN_SECONDS },
        },
      },
    );
    const token = answer.status?.token;
    if (token === undefined || token === '') {
      throw new Error(`TokenRequest for ServiceAccount ${namespace}/${name} answered without a token`);
    }
    return tokenKubeconfigYaml(adminKubeconfigYaml, `system:serviceaccount:${namespace}:${name}`, token);
  } finally {
    admin.close();
  }
}

/** The admin kubeconfig's current cluster (server, CA, TLS settings) with a bearer token as the only user. */
export function tokenKubeconfigYaml(adminKubeconfigYaml: string, userName: string, token: string): string {
  const admin = new KubeConfig();
  admin.loadFromString(adminKubeconfigYaml);
  const cluster = admin.getCurrentCluster();
  if (cluster === null) throw new Error('the admin kubeconfig names no current cluster');
  const clusterEntry: Record<string, unknown> = { server: cluster.server };
  if (cluster.caData !== undefined) clusterEntry['certificate-authority-data'] = cluster.caData;
  if (cluster.caFile !== undefined) clusterEntry['certificate-authority'] = cluster.caFile;
  if (cluster.tlsServerName !== undefined) clusterEntry['tls-server-name'] = cluster.tlsServerName;
  if (cluster.skipTLSVerify) clusterEntry['insecure-skip-tls-verify'] = true;
  return stringify({
    apiVersion: 'v1',
    kind: 'Config',
    clusters: [{ name: cluster.name, cluster: clusterEntry }],
    users: [{ name: userName, user: { token } }],
    contexts: [{ name: userName, context: { cluster: cluster.name, user: userName } }],
    'current-context': userName,
  });
}
