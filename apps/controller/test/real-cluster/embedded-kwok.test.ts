/**
 * `scoby run --embedded --cluster kwok --sample`: the embedded mode on the real control plane, with the
 * controller as the ServiceAccount of deploy/10-rbac.yaml. Needs `npm run kube-binaries`.
 */
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { AppsV1Api, KubeConfig } from '@kubernetes/client-node';
import { afterEach, describe, expect, it } from 'vitest';
import { startScoby, type Running } from '../cli/child-process.ts';

function logLines(stdout: string): Record<string, unknown>[] {
  return stdout
    .split('\n')
    .filter((line) => line.startsWith('{'))
    .map((line) => JSON.parse(line) as Record<string, unknown>);
}

async function eventually<T>(what: string, probe: () => T | undefined, timeoutMs: number): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

describe('scoby run --embedded --cluster kwok', () => {
  let running: Running | undefined;
  afterEach(() => {
    running?.child.kill('SIGKILL');
    running = undefined;
  });

  it('runs the sample to Ready with its Deployment Available through kwok, as the scoby-controller ServiceAccount', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'scoby-embedded-kwok-'));
    running = startScoby(
      ['run', '--embedded', '--cluster', 'kwok', '--sample', '--metrics-bind-address', '127.0.0.1:0'],
      { cwd: dir, env: { CLUSTER_DOMAIN: 'cluster.local', HOME: process.env.HOME ?? '' } },
    );
    const scoby = running;
    const reconciled = await eventually(
      'the sample log line',
      () => logLines(scoby.stdout()).find((line) => line.msg === 'sample reconciled'),
      150_000,
    );
    const kubeconfig = join(dir, '.scoby', 'kubeconfig');
    expect(scoby.stderr()).toBe(`Embedded API server (kwok) running; kubeconfig written to ${kubeconfig}\n`);
    expect(reconciled).toMatchObject({
      instance: 'Greeter default/hello',
      children: ['Deployment default/greeter-hello', 'Service default/greeter-hello'],
      ready: { type: 'Ready', status: 'True', reason: 'CONDITIONSOK', message: '' },
      address: { url: 'http://greeter-hello.default.svc.cluster.local' },
    });

    // The written kubeconfig is the admin's: a person inspects the cluster with it.
    const admin = new KubeConfig();
    admin.loadFromFile(kubeconfig);
    const deployment = await admin
      .makeApiClient(AppsV1Api)
      .readNamespacedDeployment({ namespace: 'default', name: 'greeter-hello' });
    expect(deployment.status?.conditions?.find((condition) => condition.type === 'Available')?.status).toBe(
      'True',
    );
    expect(deployment.status?.readyReplicas).toBe(1);
    // Scoby's writes are attributed to its ServiceAccount, not to an admin.
    const managers = (deployment.metadata?.managedFields ?? []).map((entry) => entry.manager);
    expect(managers).toContain('scoby-controller');

    scoby.child.kill('SIGTERM');
    const finished = await scoby.exited;
    expect({ code: finished.code, signal: finished.signal }).toEqual({ code: 0, signal: null });
    expect(logLines(finished.stdout).map((line) => line.msg)).toContain('stopped');
  }, 240_000);

  it('on Ctrl-C (SIGINT to the whole process group) releases its Lease before the control plane stops', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'scoby-embedded-kwok-'));
    running = startScoby(
      ['run', '--embedded', '--cluster', 'kwok', '--sample', '--metrics-bind-address', '127.0.0.1:0'],
      {
        cwd: dir,
        env: { CLUSTER_DOMAIN: 'cluster.local', HOME: process.env.HOME ?? '' },
        processGroup: true,
      },
    );
    const scoby = running;
    await eventually(
      'the sample log line',
      () => logLines(scoby.stdout()).find((line) => line.msg === 'sample reconciled'),
      150_000,
    );
    process.kill(-scoby.child.pid!, 'SIGINT');
    const finished = await scoby.exited;
    const messages = logLines(finished.stdout).map((line) => String(line.msg));
    expect({ code: finished.code, signal: finished.signal }).toEqual({ code: 0, signal: null });
    expect(messages).toContain('released the leader lease');
    expect(messages).not.toContain('could not release the leader lease; it will expire');
    expect(messages.at(-1)).toBe('stopped');
  }, 240_000);
});
