import { readFileSync } from 'node:fs';
import { stringify } from 'yaml';

const base64 = (file: string): string => readFileSync(file).toString('base64');

export type KubeconfigUser = { certFile: string; keyFile: string } | { token: string };

/** A kubeconfig with everything inline (data, not paths), so it can be handed around as a string. */
export function kubeconfigYaml(
  server: string,
  caFile: string,
  userName: string,
  user: KubeconfigUser,
): string {
  const credentials =
    'token' in user
      ? { token: user.token }
      : { 'client-certificate-data': base64(user.certFile), 'client-key-data': base64(user.keyFile) };
  return stringify({
    apiVersion: 'v1',
    kind: 'Config',
    clusters: [{ name: 'scoby-kwok', cluster: { server, 'certificate-authority-data': base64(caFile) } }],
    users: [{ name: userName, user: credentials }],
    contexts: [{ name: 'scoby-kwok', context: { cluster: 'scoby-kwok', user: userName } }],
    'current-context': 'scoby-kwok',
  });
}
