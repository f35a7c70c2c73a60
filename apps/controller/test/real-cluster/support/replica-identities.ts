/**
 * One ServiceAccount per controller replica, in the audited namespace (AUDITED_NAMESPACE of the
 * control plane), so the API server's audit log tells the replicas apart. Each is bound to exactly
 * the roles the install manifests bind Scoby's own ServiceAccount to: the bindings of
 * deploy/10-rbac.yaml are copied with the replicas as subjects, and no role is written here.
 */
import { readFile } from 'node:fs/promises';
import { AUDITED_NAMESPACE } from '@scoby/kube-control-plane';
import type { KubeObject } from '@scoby/kube-objects';
import { parseAllDocuments, stringify } from 'yaml';
import type { ClusterVerbs } from '../../support/cluster.ts';

const RBAC = new URL('../../../../../deploy/10-rbac.yaml', import.meta.url);
const SCOBY_ACCOUNT = { kind: 'ServiceAccount', name: 'scoby-controller', namespace: 'scoby-system' };

interface Subject {
  kind: string;
  name: string;
  namespace?: string;
}

type Binding = KubeObject & { subjects?: Subject[]; roleRef: Record<string, string> };

export function replicaUser(name: string): string {
  return `system:serviceaccount:${AUDITED_NAMESPACE}:${name}`;
}

/** The (Cluster)RoleBindings of the install manifests whose subjects include Scoby's ServiceAccount. */
async function scobyBindings(): Promise<Binding[]> {
  const objects = parseAllDocuments(await readFile(RBAC, 'utf8'))
    .map((document) => document.toJS() as KubeObject | null)
    .filter((object): object is KubeObject => object !== null);
  return objects.filter((object): object is Binding => {
    if (object.kind !== 'ClusterRoleBinding' && object.kind !== 'RoleBinding') return false;
    return ((object as Binding).subjects ?? []).some(
      (subject) =>
        subject.kind === SCOBY_ACCOUNT.kind &&
        subject.name === SCOBY_ACCOUNT.name &&
        subject.namespace === SCOBY_ACCOUNT.namespace,
    );
  });
}

/**
 * Namespace AUDITED_NAMESPACE, ServiceAccounts `names` in it, and for each binding of Scoby's
 * ServiceAccount a binding `<name>-replicas` of the same role to them (in the same namespace for a
 * RoleBinding). Applied again, it replaces the subjects: the replicas of the last call are bound.
 */
export async function ensureReplicaIdentities(admin: ClusterVerbs, names: readonly string[]): Promise<void> {
  await admin.apply({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: AUDITED_NAMESPACE } });
  for (const name of names) {
    await admin.apply({
      apiVersion: 'v1',
      kind: 'ServiceAccount',
      metadata: { name, namespace: AUDITED_NAMESPACE },
    });
  }
  const bindings = await scobyBindings();
  if (bindings.length === 0) throw new Error(`${RBAC.pathname} binds no role to Scoby's ServiceAccount`);
  for (const binding of bindings) {
    await admin.apply({
      apiVersion: binding.apiVersion,
      kind: binding.kind,
      metadata: {
        name: `${binding.metadata.name}-replicas`,
        ...(binding.metadata.namespace === undefined ? {} : { namespace: binding.metadata.namespace }),
        labels: { 'app.kubernetes.io/part-of': 'scoby-test-replicas' },
      },
      roleRef: binding.roleRef,
      subjects: names.map((name) => ({ kind: 'ServiceAccount', name, namespace: AUDITED_NAMESPACE })),
    } as KubeObject);
  }
}

/** A token of ServiceAccount `name` from the TokenRequest API, valid for a day. */
export async function replicaToken(admin: ClusterVerbs, name: string): Promise<string> {
  const answer = await admin.client.request<{ status?: { token?: string } }>(
    'POST',
    `/api/v1/namespaces/${AUDITED_NAMESPACE}/serviceaccounts/${name}/token`,
    {
      body: {
        apiVersion: 'authentication.k8s.io/v1',
        kind: 'TokenRequest',
        spec: { expirationSeconds: 86_400 },
      },
    },
  );
  const token = answer.status?.token;
  if (!token) throw new Error(`TokenRequest for ${AUDITED_NAMESPACE}/${name} answered no token`);
  return token;
}

/**
 * A replica's kubeconfig: the API server's CA, and the proxy in front of it as server. The proxy is
 * 127.0.0.1 as the API server is, and its serving certificate names IP 127.0.0.1, so TLS verifies
 * through the proxy.
 */
export function replicaKubeconfig(
  proxy: { host: string; port: number },
  caData: string,
  user: string,
  token: string,
): string {
  return stringify({
    apiVersion: 'v1',
    kind: 'Config',
    clusters: [
      {
        name: 'real',
        cluster: { server: `https://${proxy.host}:${proxy.port}`, 'certificate-authority-data': caData },
      },
    ],
    users: [{ name: user, user: { token } }],
    contexts: [{ name: 'real', context: { cluster: 'real', user } }],
    'current-context': 'real',
  });
}
