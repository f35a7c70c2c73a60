/**
 * with-docker-engine.sh decides from what answers: an engine already up is used as is; where none can be
 * started it says why, and exits 0 without running the command only when asked to (--if-possible, CI).
 * Fake `docker` and `dockerd` on a PATH of their own stand in for the engine.
 */
import { spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdtempSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const SCRIPT = fileURLToPath(new URL('../../scripts/with-docker-engine.sh', import.meta.url));
/** What the script runs besides docker and dockerd (bash builtins aside). */
const TOOLS = ['awk', 'cat', 'date', 'dirname', 'id', 'mkdir', 'seq', 'sleep', 'tail', 'tr'];

function fakeBin(programs: Record<string, string>): string {
  const bin = mkdtempSync(join(tmpdir(), 'scoby-engine-'));
  for (const tool of TOOLS) {
    const real = ['/usr/bin', '/bin'].map((folder) => join(folder, tool)).find((path) => existsSync(path));
    if (real !== undefined) symlinkSync(real, join(bin, tool));
  }
  for (const [name, body] of Object.entries(programs)) {
    writeFileSync(join(bin, name), `#!/bin/sh\n${body}\n`);
    chmodSync(join(bin, name), 0o755);
  }
  return bin;
}

function run(
  bin: string,
  args: string[],
  cache = mkdtempSync(join(tmpdir(), 'scoby-cache-')),
  env: Record<string, string> = {},
) {
  const result = spawnSync('/bin/bash', [SCRIPT, ...args], {
    env: { PATH: bin, HOME: cache, SCOBY_CACHE_DIR: cache, ...env },
    encoding: 'utf8',
  });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

const COMMAND = ['/bin/sh', '-c', 'echo command ran; exit 5'];
const NOT_INSTALLED =
  "no Docker engine answers and dockerd is not installed; install Debian's docker.io (apt-get install docker.io)";

describe('with-docker-engine.sh', () => {
  it('runs the command against an engine that already answers, and exits with its status', () => {
    const result = run(fakeBin({ docker: 'exit 0' }), COMMAND);
    expect(result).toEqual({
      status: 5,
      stdout: 'command ran\n',
      stderr: 'with-docker-engine: using the Docker engine that is already running\n',
    });
  });

  it('with SCOBY_DOCKER_ENGINE_DIR, asks the engine of that folder and hands its socket to the command', () => {
    const engine = mkdtempSync(join(tmpdir(), 'scoby-engine-dir-'));
    const bin = fakeBin({ docker: `[ "$DOCKER_HOST" = "unix://${engine}/docker.sock" ]` });
    const result = run(bin, ['/bin/sh', '-c', 'echo "$DOCKER_HOST"'], undefined, {
      SCOBY_DOCKER_ENGINE_DIR: engine,
    });
    expect(result).toEqual({
      status: 0,
      stdout: `unix://${engine}/docker.sock\n`,
      stderr: 'with-docker-engine: using the Docker engine that is already running\n',
    });
  });

  it('points testcontainers at 127.0.0.1 when the running engine publishes ports on loopback only', () => {
    const printOverride = ['/bin/sh', '-c', 'echo "override=$TESTCONTAINERS_HOST_OVERRIDE"'];
    const loopback = fakeBin({ docker: '[ "$1 $2" = "network inspect" ] && echo 127.0.0.1\nexit 0' });
    expect(run(loopback, printOverride)).toMatchObject({ status: 0, stdout: 'override=127.0.0.1\n' });
    expect(run(fakeBin({ docker: 'exit 0' }), printOverride)).toMatchObject({
      status: 0,
      stdout: 'override=\n',
    });
  });

  it('says why no engine can be started and exits 3 without running the command', () => {
    expect(run(fakeBin({ docker: 'exit 1' }), COMMAND)).toEqual({
      status: 3,
      stdout: '',
      stderr: `with-docker-engine: ${NOT_INSTALLED}\n`,
    });
  });

  it('with --if-possible, says it skipped and why, and exits 0 without running the command', () => {
    expect(run(fakeBin({ docker: 'exit 1' }), ['--if-possible', ...COMMAND])).toEqual({
      status: 0,
      stdout: '',
      stderr: `with-docker-engine: skipped: ${NOT_INSTALLED}\n`,
    });
  });

  it("quotes dockerd's last words when it exits at start", () => {
    const bin = fakeBin({ docker: 'exit 1', dockerd: 'echo "failed to start daemon: no room"; exit 1' });
    const cache = mkdtempSync(join(tmpdir(), 'scoby-cache-'));
    const result = run(bin, COMMAND, cache);
    expect(result.status).toBe(3);
    expect(result.stdout).toBe('');
    expect(result.stderr).toContain(
      `with-docker-engine: dockerd exited at start: failed to start daemon: no room (log: ${cache}/docker/dockerd.log)\n`,
    );
  });
});
