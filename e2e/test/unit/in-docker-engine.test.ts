/**
 * in-docker-engine.sh, sourced by the scripts that need a Docker engine: the script runs again under
 * with-docker-engine.sh (a stand-in here, which reports its arguments) exactly once, with --if-possible
 * handed on and the script's own arguments kept.
 */
import { spawnSync } from 'node:child_process';
import { chmodSync, copyFileSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const HELPER = fileURLToPath(new URL('../../scripts/in-docker-engine.sh', import.meta.url));

function scripts(): string {
  const folder = mkdtempSync(join(tmpdir(), 'scoby-in-engine-'));
  copyFileSync(HELPER, join(folder, 'in-docker-engine.sh'));
  const write = (name: string, body: string) => {
    writeFileSync(join(folder, name), `#!/usr/bin/env bash\n${body}\n`);
    chmodSync(join(folder, name), 0o755);
  };
  write('with-docker-engine.sh', 'echo "engine: $*"\nif [ "$1" = --if-possible ]; then shift; fi\nexec "$@"');
  write(
    'stage.sh',
    'set -euo pipefail\nsource "$(dirname "$0")/in-docker-engine.sh"\necho "stage: if_possible=${if_possible[*]:-} args=$*"',
  );
  return folder;
}

const run = (folder: string, args: string[]) =>
  spawnSync('/bin/bash', [join(folder, 'stage.sh'), ...args], {
    cwd: tmpdir(),
    env: { PATH: process.env.PATH },
    encoding: 'utf8',
  });

describe('in-docker-engine.sh', () => {
  it('runs the script again under with-docker-engine.sh once, with its arguments', () => {
    const folder = scripts();
    expect(run(folder, ['a', 'b c']).stdout).toBe(
      `engine: ${folder}/stage.sh a b c\nstage: if_possible= args=a b c\n`,
    );
  });

  it('hands --if-possible on to the engine and leaves it in if_possible', () => {
    const folder = scripts();
    expect(run(folder, ['--if-possible']).stdout).toBe(
      `engine: --if-possible ${folder}/stage.sh --if-possible\nstage: if_possible=--if-possible args=--if-possible\n`,
    );
  });
});
