import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { loadKubeConfig } from '../../src/client/kube-config.ts';

const KUBECONFIG = `apiVersion: v1
kind: Config
clusters:
  - name: here
    cluster: { server: 'https://127.0.0.1:6443', insecure-skip-tls-verify: true }
users:
  - name: me
    user: { token: secret }
contexts:
  - name: here
    context: { cluster: here, user: me, namespace: shop }
current-context: here
`;

let folder: string;
beforeEach(async () => {
  folder = await mkdtemp(join(tmpdir(), 'kube-config-'));
});
afterEach(async () => {
  await rm(folder, { recursive: true, force: true });
});

describe('loadKubeConfig', () => {
  it('loads the file it is given: its current cluster, user and namespace', async () => {
    const path = join(folder, 'config');
    await writeFile(path, KUBECONFIG);
    const kubeConfig = loadKubeConfig({ source: 'file', path });
    expect(kubeConfig.getCurrentCluster()?.server).toBe('https://127.0.0.1:6443');
    expect(kubeConfig.getCurrentUser()?.token).toBe('secret');
    expect(kubeConfig.getContextObject(kubeConfig.getCurrentContext())?.namespace).toBe('shop');
  });

  it("refuses client-node's localhost:8080 fallback when there is no kubeconfig anywhere", () => {
    expect(() => loadKubeConfig({ source: 'default' }, { HOME: folder })).toThrow(
      `KUBECONFIG is not set, ${join(folder, '.kube', 'config')} does not exist, and this is not a Pod`,
    );
  });
});
