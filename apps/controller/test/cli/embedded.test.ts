import { access, mkdtemp, readFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { KubeConfig, KubernetesObjectApi, type KubernetesObject } from '@kubernetes/client-node';
import { afterEach, describe, expect, it } from 'vitest';
import { readSample } from '../../src/cli/run/sample.ts';
import { startScoby, type Running } from './child-process.ts';

async function eventually<T>(
  what: string,
  probe: () => Promise<T | undefined>,
  timeoutMs = 30_000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let last: unknown;
  for (;;) {
    try {
      const value = await probe();
      if (value !== undefined) return value;
    } catch (error) {
      last = error;
    }
    if (Date.now() > deadline)
      throw new Error(`timed out waiting for ${what}${last ? `: ${String(last)}` : ''}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

function logLines(stdout: string): Record<string, unknown>[] {
  return stdout
    .split('\n')
    .filter((line) => line.startsWith('{'))
    .map((line) => JSON.parse(line) as Record<string, unknown>);
}

interface Conditioned extends KubernetesObject {
  status?: { conditions?: { type: string; status: string; reason: string }[]; address?: { url?: string } };
}

describe('scoby run --embedded', () => {
  let running: Running | undefined;
  afterEach(() => {
    running?.child.kill('SIGKILL');
    running = undefined;
  });

  it('serves a cluster through the written kubeconfig, reconciles the sample, and stops cleanly on SIGTERM', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'scoby-embedded-'));
    const kubeconfig = join(dir, 'nested', 'kubeconfig');
    running = startScoby(
      [
        'run',
        '--embedded',
        '--kubeconfig-out',
        kubeconfig,
        '--metrics-bind-address',
        '127.0.0.1:0',
        // An allowed hook module that cannot load is logged; the process runs on.
        '--hook-module',
        './missing-hook.mjs',
      ],
      {
        cwd: dir,
        env: { CLUSTER_DOMAIN: 'cluster.local' },
      },
    );
    const scoby = running;
    // Announced once the file is complete.
    await eventually('the kubeconfig announcement', async () => (scoby.stderr() === '' ? undefined : true));
    expect(scoby.stderr()).toBe(
      `Embedded API server (memory) running; kubeconfig written to ${kubeconfig}\n`,
    );
    await access(kubeconfig);

    const kc = new KubeConfig();
    kc.loadFromFile(kubeconfig);
    const api = KubernetesObjectApi.makeApiClient(kc);
    for (const object of await readSample())
      await eventually(`created ${object.kind}`, () => api.create(object as KubernetesObject));

    const ready = await eventually('the Greeter to be Ready', async () => {
      const greeter: Conditioned = await api.read({
        apiVersion: 'samples.scoby.dev/v1alpha1',
        kind: 'Greeter',
        metadata: { name: 'hello', namespace: 'default' },
      });
      return greeter.status?.conditions?.find((condition) => condition.type === 'Ready')?.status === 'True'
        ? greeter
        : undefined;
    });
    expect(ready.status?.conditions?.map(({ type, status, reason }) => ({ type, status, reason }))).toEqual([
      { type: 'DeploymentReady', status: 'True', reason: 'MinimumReplicasAvailable' },
      { type: 'Ready', status: 'True', reason: 'CONDITIONSOK' },
      { type: 'ServiceReady', status: 'True', reason: 'ServiceExist' },
    ]);
    expect(ready.status?.address).toEqual({ url: 'http://greeter-hello.default.svc.cluster.local' });
    const deployment = (await api.read({
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      metadata: { name: 'greeter-hello', namespace: 'default' },
    })) as KubernetesObject & {
      spec: { template: { spec: { containers: { env: unknown[] }[] } } };
    };
    expect(deployment.spec.template.spec.containers[0]?.env).toEqual([
      { name: 'GREETER_LANGUAGE', value: 'en' },
      { name: 'GREETING', value: 'Hello from Scoby' },
      // The API server defaults the fieldRef's apiVersion, as kube-apiserver does.
      {
        name: 'POD_NAMESPACE',
        valueFrom: { fieldRef: { apiVersion: 'v1', fieldPath: 'metadata.namespace' } },
      },
    ]);

    const started = logLines(scoby.stdout()).find((line) => line.msg === 'scoby controller started');
    expect(started).toMatchObject({
      level: 'info',
      component: 'scoby-controller',
      scobyNamespace: 'scoby-system',
      leaderElection: true,
      hookModules: ['./missing-hook.mjs'],
    });
    expect(logLines(scoby.stdout()).find((line) => line.msg === 'hook module not loaded')).toMatchObject({
      level: 'error',
      hookModule: './missing-hook.mjs',
      message: expect.stringMatching(/^hook module "\.\/missing-hook\.mjs": cannot be imported: /),
    });
    const ops = `http://127.0.0.1:${String(started?.opsPort)}`;
    await eventually('/readyz 200', async () =>
      (await fetch(`${ops}/readyz`)).status === 200 ? true : undefined,
    );
    expect((await fetch(`${ops}/healthz`)).status).toBe(200);
    expect((await fetch(`${ops}/livez`)).status).toBe(200);
    const metrics = (await (await fetch(`${ops}/metrics`)).text()).split('\n');
    const server = new URL(kc.getCurrentCluster()!.server).host;
    // controller-runtime's and client-go's names, error series from 0, the process's real traffic.
    for (const series of [
      'controller_runtime_reconcile_errors_total{controller="greeter"} 0',
      'controller_runtime_reconcile_errors_total{controller="crdregistrations"} 0',
      'controller_runtime_max_concurrent_reconciles{controller="greeter"} 8',
      'controller_runtime_active_workers{controller="greeter"} 0',
      'workqueue_depth{name="greeter"} 0',
      'leader_election_master_status{name="scoby-controller-leader"} 1',
    ]) {
      expect(metrics).toContain(series);
    }
    const count = (prefix: string) =>
      Number(
        metrics
          .find((line) => line.startsWith(prefix))
          ?.split(' ')
          .at(-1) ?? 0,
      );
    expect(
      count('controller_runtime_reconcile_total{controller="greeter",result="success"}'),
    ).toBeGreaterThan(0);
    expect(count(`rest_client_requests_total{code="201",method="POST",host="${server}"}`)).toBeGreaterThan(0);
    expect(count(`rest_client_requests_total{code="200",method="GET",host="${server}"}`)).toBeGreaterThan(0);
    expect(metrics).toContainEqual(
      expect.stringMatching(/^scoby_build_info\{version="[^"]+",node_version="v[^"]+"\} 1$/),
    );

    const stopping = Date.now();
    scoby.child.kill('SIGTERM');
    const finished = await scoby.exited;
    expect(Date.now() - stopping).toBeLessThan(5_000);
    expect({ code: finished.code, signal: finished.signal }).toEqual({ code: 0, signal: null });
    const messages = logLines(finished.stdout).map((line) => line.msg);
    const shutdown = messages.slice(
      messages.indexOf('shutting down: finishing in-flight reconciles (a second signal exits at once)'),
    );
    // Both happen exactly once; their relative order in the log is not part of the contract.
    expect(shutdown.filter((msg) => msg === 'released the leader lease' || msg === 'stopped').sort()).toEqual(
      ['released the leader lease', 'stopped'],
    );
  }, 90_000);

  // A second `npx scoby run --embedded` in the same folder, default flags, wrote the kubeconfig and
  // only then failed on the taken ops port: the first session's kubectl got connection refused.
  it('stops before starting anything when its ops port is taken: the first run keeps its kubeconfig and its cluster', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'scoby-embedded-twice-'));
    const kubeconfig = join(dir, 'kubeconfig');
    const free = createServer();
    await new Promise<void>((resolve) => free.listen(0, '127.0.0.1', resolve));
    const { port } = free.address() as { port: number };
    await new Promise((resolve) => free.close(resolve));
    const args = [
      'run',
      '--embedded',
      '--kubeconfig-out',
      kubeconfig,
      '--metrics-bind-address',
      `127.0.0.1:${port}`,
    ];
    running = startScoby(args, { cwd: dir, env: { CLUSTER_DOMAIN: 'cluster.local' } });
    const first = running;
    await eventually('the first kubeconfig', async () => (first.stderr() === '' ? undefined : true));
    const written = await readFile(kubeconfig, 'utf8');

    const second = startScoby(args, { cwd: dir, env: { CLUSTER_DOMAIN: 'cluster.local' } });
    const ended = await second.exited;
    expect(ended.code).toBe(1);
    expect(ended.stderr).toMatch(
      /^scoby run: --metrics-bind-address: listen EADDRINUSE: .*; nothing was started\n$/,
    );
    expect(await readFile(kubeconfig, 'utf8')).toBe(written);
    const kc = new KubeConfig();
    kc.loadFromFile(kubeconfig);
    const api = KubernetesObjectApi.makeApiClient(kc);
    const namespace = await api.read({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'default' } });
    expect(namespace.metadata?.name).toBe('default');
  });

  it('applies the sample with --sample and logs the children and the Ready condition', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'scoby-embedded-'));
    running = startScoby(
      ['run', '--embedded', '--sample', '--metrics-bind-address', '127.0.0.1:0', '--no-leader-elect'],
      {
        cwd: dir,
        env: { CLUSTER_DOMAIN: 'cluster.local' },
      },
    );
    const scoby = running;
    const reconciled = await eventually('the sample log line', async () =>
      logLines(scoby.stdout()).find((line) => line.msg === 'sample reconciled'),
    );
    expect(scoby.stderr()).toBe(
      `Embedded API server (memory) running; kubeconfig written to ${join(dir, '.scoby', 'kubeconfig')}\n`,
    );
    expect(reconciled).toMatchObject({
      instance: 'Greeter default/hello',
      children: ['Deployment default/greeter-hello', 'Service default/greeter-hello'],
      ready: { type: 'Ready', status: 'True', reason: 'CONDITIONSOK', message: '' },
      address: { url: 'http://greeter-hello.default.svc.cluster.local' },
    });
    scoby.child.kill('SIGINT');
    expect((await scoby.exited).code).toBe(0);
  }, 90_000);
});
