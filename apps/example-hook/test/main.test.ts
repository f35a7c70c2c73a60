import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';

const appRoot = fileURLToPath(new URL('..', import.meta.url));

let child: ChildProcess | undefined;

afterEach(() => {
  if (child?.exitCode === null) child.kill('SIGKILL');
  child = undefined;
});

function run(env: Record<string, string>): ChildProcess {
  // Node itself with tsx's loader, not the tsx command: the command relays SIGTERM to its child and
  // kills it with SIGKILL (exit 143) when the child does not acknowledge within 30 ms, which a loaded
  // machine misses.
  child = spawn(process.execPath, ['--import', 'tsx', '--conditions=@scoby/source', 'src/main.ts'], {
    cwd: appRoot,
    env: { ...process.env, ...env },
  });
  return child;
}

function firstLine(stream: NodeJS.ReadableStream): Promise<string> {
  return new Promise((resolve) => {
    let text = '';
    stream.on('data', (chunk: Buffer) => {
      text += chunk.toString();
      if (text.includes('\n')) resolve(text.slice(0, text.indexOf('\n')));
    });
  });
}

describe('the start command (src/main.ts)', () => {
  it('serves until SIGTERM', async () => {
    const server = run({ PORT: '0', FINALIZE_WHEN_CONDITION: 'CleanedUp' });
    const line = await firstLine(server.stdout!);
    expect(line).toMatch(/^example hook listening on http:\/\/127\.0\.0\.1:\d+\/$/);
    const url = line.replace('example hook listening on ', '');
    const body = JSON.stringify({
      formFactor: 'deployment',
      phase: 'finalize',
      object: { apiVersion: 'v1', kind: 'X', metadata: {} },
    });
    let logged = '';
    server.stdout!.on('data', (chunk: Buffer) => (logged += chunk.toString()));
    const response = await fetch(url, { method: 'POST', body });
    expect([response.status, await response.text()]).toEqual([
      409,
      '{"message":"waiting for condition CleanedUp","permanent":false,"continue":false}',
    ]);
    await expect
      .poll(() => logged)
      .toBe('{"phase":"finalize","instance":"X ","answer":"waiting for condition CleanedUp"}\n');
    server.kill('SIGTERM');
    expect(await once(server, 'exit')).toEqual([0, null]);
  });

  it('refuses an invalid PORT', async () => {
    const server = run({ PORT: 'eighty' });
    const [error, exit] = await Promise.all([firstLine(server.stderr!), once(server, 'exit')]);
    expect(error).toBe('example hook: PORT: "eighty" is not a port number (0 to 65535)');
    expect(exit).toEqual([2, null]);
  });
});
