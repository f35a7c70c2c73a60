import { spawn } from 'node:child_process';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const REAPER = new URL('../../src/reaper.ts', import.meta.url).pathname;

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

async function until(condition: () => boolean, timeoutMs: number): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (condition()) return true;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return condition();
}

describe('the reaper', () => {
  it('kills the watched processes when their parent is killed with SIGKILL', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'reaper-test-'));
    // A stand-in for a test runner: it starts a long-running component, has the reaper watch it, and is then killed.
    const runner = spawn(
      process.execPath,
      [
        '--import',
        'tsx',
        '--input-type=module',
        '-e',
        `
        import { spawn } from 'node:child_process';
        import { Reaper } from ${JSON.stringify(REAPER)};
        const reaper = new Reaper(${JSON.stringify(join(dir, 'pids'))});
        const component = spawn('sleep', ['120'], { stdio: 'ignore' });
        reaper.watch(component.pid);
        // Plain text: console.log would colour a number when FORCE_COLOR is set (as nx does).
        component.once('spawn', () => process.stdout.write(component.pid + '\\n'));
        setInterval(() => {}, 1000);
        `,
      ],
      { stdio: ['ignore', 'pipe', 'pipe'] },
    );
    // The runner prints the component's PID on a line of its own once the reaper watches it.
    const componentPid = await new Promise<number>((resolve, reject) => {
      let printed = '';
      runner.stderr.on('data', (chunk: Buffer) => (printed += chunk.toString()));
      const patience = setTimeout(() => reject(new Error(`no PID printed within 15 s: ${printed}`)), 15_000);
      runner.stdout.on('data', (chunk: Buffer) => {
        printed += chunk.toString();
        const line = printed.split('\n').find((candidate) => /^\d+$/.test(candidate.trim()));
        if (line === undefined) return;
        clearTimeout(patience);
        resolve(Number(line.trim()));
      });
      runner.once('exit', (code) =>
        reject(new Error(`the runner exited (${code}) before printing a PID: ${printed}`)),
      );
    });
    try {
      expect(alive(componentPid)).toBe(true);
    } finally {
      runner.kill('SIGKILL');
    }
    expect(await until(() => !alive(componentPid), 5_000)).toBe(true);
  });
});
