/** The controller's kubeconfig on real clusters: the admin's cluster, a ServiceAccount token, nothing of the admin. */
import { KubeConfig } from '@kubernetes/client-node';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { tokenKubeconfigYaml } from '../../src/providers/scoby-account.ts';

const ADMIN = `
apiVersion: v1
kind: Config
clusters:
  - name: default
    cluster:
      server: https://127.0.0.1:32768
      certificate-authority-data: Q0EtREFUQQ==
users:
  - name: default
    user:
      client-certificate-data: Q0VSVA==
      client-key-data: S0VZ
contexts:
  - name: default
    context: { cluster: default, user: default }
current-context: default
`;

const USER = 'system:serviceaccount:scoby-system:scoby-controller';

describe('tokenKubeconfigYaml', () => {
  it("keeps the admin's server and CA and replaces the admin's certificate with the token", () => {
    expect(parse(tokenKubeconfigYaml(ADMIN, USER, 'sa-token'))).toEqual({
      apiVersion: 'v1',
      kind: 'Config',
      clusters: [
        {
          name: 'default',
          cluster: { server: 'https://127.0.0.1:32768', 'certificate-authority-data': 'Q0EtREFUQQ==' },
        },
      ],
      users: [{ name: USER, user: { token: 'sa-token' } }],
      contexts: [{ name: USER, context: { cluster: 'default', user: USER } }],
      'current-context': USER,
    });
  });

  it('gives client-node a bearer token and the CA, and no client certificate', async () => {
    const kubeConfig = new KubeConfig();
    kubeConfig.loadFromString(tokenKubeconfigYaml(ADMIN, USER, 'sa-token'));
    const options: { headers?: Record<string, string>; ca?: unknown; cert?: unknown; key?: unknown } = {};
    await kubeConfig.applyToHTTPSOptions(options);
    expect(options.headers?.Authorization).toBe('Bearer sa-token');
    expect(String(options.ca)).toBe('CA-DATA');
    expect(options.cert).toBeUndefined();
    expect(options.key).toBeUndefined();
  });

  it('says so when the admin kubeconfig names no current cluster', () => {
    expect(() => tokenKubeconfigYaml('apiVersion: v1\nkind: Config\n', USER, 't')).toThrow(
      'the admin kubeconfig names no current cluster',
    );
  });
});
