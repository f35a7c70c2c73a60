import { readFileSync } from 'node:fs';
import { mkdtemp, writeFile, chmod } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { Component, ComponentFailed } from '../../src/component.ts';

async function script(body: string): Promise<{ binary: string; dir: string }> {
  const dir = await mkdtemp(join(tmpdir(), 'component-test-'));
  const binary = join(dir, 'fake-component');
  await writeFile(binary, `#!/bin/sh\n${body}\n`);
  await chmod(binary, 0o755);
  return { binary, dir };
}

describe('a control-plane component', () => {
  it('that exits while being waited for is named, with its exit code and last log lines', async () => {
    const { binary, dir } = await script(
      'for i in $(seq 1 40); do echo "line $i"; done; echo "fatal: bad flag" >&2; exit 3',
    );
    const component = new Component('kube-apiserver', binary, [], join(dir, 'kube-apiserver.log'));
    const failure = await component
      .waitUntil('ready', async () => false, 10_000)
      .catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(ComponentFailed);
    const message = (failure as Error).message;
    expect(message).toMatch(
      /^kube-apiserver exited with code 3; its last log lines \(.*kube-apiserver\.log\):\n/,
    );
    expect(message).toContain('  fatal: bad flag');
    expect(message).toContain('  line 40');
    // Only the last 25 of 41 lines: line 17 is the first one shown.
    expect(message).not.toContain('  line 16\n');
    expect(message).toContain('  line 17\n');
  });

  it('that never gets ready fails after the timeout, naming the last probe error', async () => {
    const { binary, dir } = await script('echo starting; exec sleep 30');
    const component = new Component('kwok', binary, [], join(dir, 'kwok.log'));
    try {
      const failure = await component
        .waitUntil(
          'ready',
          async () => {
            throw new Error('connection refused');
          },
          600,
        )
        .catch((error: unknown) => error);
      expect((failure as Error).message).toMatch(
        /^kwok did not become ready within 0.6 s \(last error: connection refused\); its last log lines .*\n {2}starting$/,
      );
    } finally {
      await component.stop();
    }
    expect(component.running).toBe(false);
  });

  it('that is missing cannot start, and says so', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'component-test-'));
    const component = new Component('etcd', join(dir, 'no-such-binary'), [], join(dir, 'etcd.log'));
    const failure = await component
      .waitUntil('ready', async () => false, 5_000)
      .catch((error: unknown) => error);
    expect((failure as Error).message).toMatch(/^etcd could not start \(spawn .*no-such-binary ENOENT\)/);
  });

  it('is stopped with SIGKILL when it ignores SIGTERM', async () => {
    const { binary, dir } = await script("trap '' TERM; echo up; while true; do sleep 1; done");
    const component = new Component('kube-scheduler', binary, [], join(dir, 'kube-scheduler.log'));
    await component.waitUntil('up', async () => true, 5_000);
    await new Promise((resolve) => setTimeout(resolve, 200));
    const started = Date.now();
    await component.stop();
    expect(component.running).toBe(false);
    expect(Date.now() - started).toBeGreaterThanOrEqual(4_000);
  }, 20_000);
});

/** The state letter of /proc/<pid>/stat: R running, S sleeping, T stopped. */
function processState(pid: number): string {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  return stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3);
}

describe('a control-plane component under faults', () => {
  it('is killed with SIGKILL and started again with the same arguments, appending to its log', async () => {
    const { binary, dir } = await script(
      'echo "up $$ with $*"; trap "echo terminated; exit 0" TERM; while true; do sleep 0.1; done',
    );
    const log = join(dir, 'etcd.log');
    const pids: Array<number | undefined> = [];
    const component = new Component('etcd', binary, ['--data-dir=/kept'], log, (pid) => pids.push(pid));
    try {
      const first = component.pid;
      await component.waitUntil('up', async () => readFileSync(log, 'utf8').includes('up'), 5_000);
      await component.kill();
      expect(component.running).toBe(false);
      expect(() => component.assertRunning()).toThrow(/^etcd exited with SIGKILL;/);
      component.start();
      await component.waitUntil(
        'up again',
        async () => readFileSync(log, 'utf8').split('up').length === 3,
        5_000,
      );
      expect(component.pid).not.toBe(first);
      expect(pids).toEqual([first, component.pid]);
      // No "terminated": SIGKILL gives the process no say.
      expect(readFileSync(log, 'utf8')).toBe(
        `up ${first} with --data-dir=/kept\nup ${component.pid} with --data-dir=/kept\n`,
      );
      expect(() => component.start()).toThrow(`etcd is still running (PID ${component.pid})`);
    } finally {
      await component.stop();
    }
  });

  it('is paused with SIGSTOP and resumed with SIGCONT, and a paused one still stops', async () => {
    const { binary, dir } = await script('echo up; while true; do sleep 0.1; done');
    const component = new Component('kube-apiserver', binary, [], join(dir, 'kube-apiserver.log'));
    const pid = component.pid!;
    component.pause();
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(processState(pid)).toBe('T');
    expect(component.paused).toBe(true);
    component.resume();
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(['R', 'S']).toContain(processState(pid));
    component.pause();
    const started = Date.now();
    await component.stop();
    expect(component.running).toBe(false);
    // SIGTERM reached it once resumed: no wait for the SIGKILL grace.
    expect(Date.now() - started).toBeLessThan(4_000);
  });
});
