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
