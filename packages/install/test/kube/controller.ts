/**
 * The controller run locally as the installed ServiceAccount (kwok's pods run no container): what the
 * installed RBAC lets it do is what Scoby may do in a cluster.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ControlPlane } from '@scoby/kube-control-plane';
import { REPOSITORY_ROOT } from '../../src/paths.ts';

const SCOBY = join(REPOSITORY_ROOT, 'apps/controller/bin/scoby.js');

export async function eventually<T>(what: string, probe: () => T | undefined, timeoutMs: number): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 1000));
  }
}

export interface LocalController {
  /** Everything it wrote to stdout and stderr so far. */
  log(): string;
  /** Stops it (SIGTERM: graceful shutdown, then SIGKILL after 10 s) and waits for its exit. */
  stop(): Promise<void>;
}

/** `scoby run` as `namespace`/`serviceAccount`, with SCOBY_NAMESPACE `namespace`. */
export async function startController(
  plane: ControlPlane,
  namespace: string,
  serviceAccount: string,
): Promise<LocalController> {
  const dir = await mkdtemp(join(tmpdir(), 'scoby-install-'));
  const kubeconfig = join(dir, 'controller-kubeconfig');
  await writeFile(kubeconfig, await plane.serviceAccountKubeconfig(namespace, serviceAccount));
  const child: ChildProcess = spawn(
    process.execPath,
    [SCOBY, 'run', '--metrics-bind-address', '127.0.0.1:0'],
    {
      cwd: dir,
      env: {
        PATH: process.env.PATH ?? '',
        KUBECONFIG: kubeconfig,
        SCOBY_NAMESPACE: namespace,
        CLUSTER_DOMAIN: 'cluster.local',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  let log = '';
  child.stdout?.on('data', (chunk: Buffer) => (log += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (log += chunk.toString()));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  return {
    log: () => log,
    async stop() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.kill('SIGTERM');
      const killer = setTimeout(() => child.kill('SIGKILL'), 10_000);
      await exited;
      clearTimeout(killer);
    },
  };
}
