/**
 * `npx scoby run --embedded` from the repository root, as a user starts it, stops as `node
 * bin/scoby.js` does. npm runs the bin through `sh -c` and forwards SIGTERM to that shell alone, so a
 * stop sent to npx's own PID reaches the controller only through the shell's exit
 * (process/parent-exit.ts); a stop sent to the process group reaches every process of it, also with
 * more replicas joined to the embedded API server and one of them killed.
 */
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { groupAlive, logLines, REPOSITORY, startScoby, type Running } from './child-process.ts';

async function eventually(what: string, done: () => boolean, timeoutMs: number, output: () => string) {
  const deadline = Date.now() + timeoutMs;
  while (!done()) {
    if (Date.now() > deadline) throw new Error(`${what} after ${timeoutMs} ms; its output:\n${output()}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

const OPS = ['--metrics-bind-address', '127.0.0.1:0', '--log-format', 'json'];
const STARTED = (scoby: Running) => () =>
  logLines(scoby.stdout()).some((line) => line.msg === 'scoby controller started');

/** What a test started: process IDs, and process groups as negative IDs. */
const started: number[] = [];
afterEach(() => {
  for (const id of started.splice(0)) {
    try {
      process.kill(id, 'SIGKILL');
    } catch {
      // already gone
    }
  }
});

async function startEmbeddedThroughNpx(dir: string, extra: string[] = []): Promise<Running> {
  const embedded = startScoby(
    ['run', '--embedded', '--kubeconfig-out', join(dir, 'kubeconfig'), ...OPS, ...extra],
    { cwd: REPOSITORY, npx: true, processGroup: true, env: { CLUSTER_DOMAIN: 'cluster.local' } },
  );
  started.push(-embedded.child.pid!);
  await eventually('no start', STARTED(embedded), 120_000, () => embedded.stdout() + embedded.stderr());
  return embedded;
}

/** The controller's own log: the shutdown line naming `reason`, then `stopped` last. */
function expectGracefulStop(output: string, reason: string): void {
  const lines = logLines(output);
  expect(lines.find((line) => line.msg.startsWith('shutting down'))).toMatchObject({
    level: 'info',
    signal: reason,
    msg: 'shutting down: finishing in-flight reconciles (a second signal exits at once)',
  });
  expect(lines.at(-1)).toMatchObject({ level: 'info', msg: 'stopped' });
}

describe('scoby run --embedded started through npx', () => {
  it('stops when only npx gets SIGTERM (kill <pid>, timeout, a supervisor)', async () => {
    const embedded = await startEmbeddedThroughNpx(await mkdtemp(join(tmpdir(), 'scoby-npx-')));
    const group = embedded.child.pid!;

    embedded.child.kill('SIGTERM');
    await eventually('the controller still runs', () => !groupAlive(group), 15_000, embedded.stdout);
    expectGracefulStop(embedded.stdout(), 'parent exited');
  }, 180_000);

  it('stops on SIGTERM to its process group with two more active-active replicas joined, one of them killed', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'scoby-npx-'));
    const activeActive = ['--leader-election-mode=active-active'];
    const embedded = await startEmbeddedThroughNpx(dir, activeActive);
    const replicas = [0, 1].map(() =>
      startScoby(['run', '--kubeconfig', join(dir, 'kubeconfig'), ...OPS, ...activeActive], {
        cwd: dir,
        env: { HOME: dir, SCOBY_NAMESPACE: 'scoby-system', CLUSTER_DOMAIN: 'cluster.local' },
      }),
    );
    started.push(...replicas.map((replica) => replica.child.pid!));
    for (const replica of replicas) {
      await eventually('a replica did not start', STARTED(replica), 120_000, replica.stderr);
    }
    replicas[0]!.child.kill('SIGKILL');
    await replicas[0]!.exited;

    const group = embedded.child.pid!;
    process.kill(-group, 'SIGTERM');
    await eventually('the process group still runs', () => !groupAlive(group), 15_000, embedded.stdout);
    expectGracefulStop(embedded.stdout(), 'SIGTERM');
    // The replica left running saw its API server go and is still up: it is stopped by the test.
    expect(replicas[1]!.child.exitCode).toBeNull();
  }, 300_000);
});
