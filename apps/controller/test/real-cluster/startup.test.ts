/**
 * On the real control plane, `scoby run` with a ServiceAccount token kube-apiserver does not accept
 * says so once per attempt (401, what to do), five attempts, exit code 1: no controller starts.
 */
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { inject, describe, expect, it } from 'vitest';
import { parse, stringify } from 'yaml';
import { scoby } from '../cli/child-process.ts';

describe('scoby run on the real control plane', () => {
  it('says the credentials are rejected and what to do, five times, then exits 1', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'scoby-real-startup-'));
    const kubeconfig = parse(inject('realCluster').controllerKubeconfigYaml) as {
      clusters: { cluster: { server: string } }[];
      users: { user: Record<string, unknown> }[];
    };
    for (const entry of kubeconfig.users) entry.user = { token: 'not-a-token-kube-apiserver-issued' };
    const path = join(dir, 'kubeconfig');
    await writeFile(path, stringify(kubeconfig));
    const server = kubeconfig.clusters[0]?.cluster.server;

    const finished = await scoby(['run', '--kubeconfig', path, '--metrics-bind-address', '127.0.0.1:0'], {
      cwd: dir,
      env: { SCOBY_NAMESPACE: 'scoby-system', CLUSTER_DOMAIN: 'cluster.local' },
    });
    expect({ code: finished.code, stderr: finished.stderr }).toEqual({ code: 1, stderr: '' });
    const lines = finished.stdout
      .split('\n')
      .filter((line) => line !== '')
      .map((line) => (JSON.parse(line) as { msg: string }).msg);
    const problem = `cannot start: the API server at ${server} rejected the credentials (401 Unauthorized); renew the token or client certificate of the kubeconfig, or the ServiceAccount token`;
    expect(lines).toEqual([
      `${problem} (attempt 1 of 5, retrying in 1s)`,
      `${problem} (attempt 2 of 5, retrying in 2s)`,
      `${problem} (attempt 3 of 5, retrying in 4s)`,
      `${problem} (attempt 4 of 5, retrying in 8s)`,
      `${problem} (attempt 5 of 5, giving up)`,
    ]);
  });
});
