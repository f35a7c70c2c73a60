/**
 * e2e-node.sh hands its arguments to vitest (after --if-possible, which is CI's): a subset of the
 * scenarios runs on the node with `e2e-node.sh test/node-faults/`. Fake `docker` (an engine that
 * answers) and `npm` (which prints what it was asked) stand in.
 */
import { spawnSync } from 'node:child_process';
import { chmodSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const SCRIPT = fileURLToPath(new URL('../../scripts/e2e-node.sh', import.meta.url));

function run(args: string[]): { status: number | null; stdout: string } {
  const bin = mkdtempSync(join(tmpdir(), 'scoby-node-script-'));
  writeFileSync(join(bin, 'docker'), '#!/bin/sh\n[ "$1" = version ] && echo 28.2.2 && exit 0\nexit 1\n');
  writeFileSync(join(bin, 'npm'), '#!/bin/sh\necho "npm $* (E2E_CLUSTER=${E2E_CLUSTER:-})"\n');
  chmodSync(join(bin, 'docker'), 0o755);
  chmodSync(join(bin, 'npm'), 0o755);
  const result = spawnSync('/bin/bash', [SCRIPT, ...args], {
    env: { PATH: [bin, '/usr/bin', '/bin'].join(':'), HOME: bin },
    encoding: 'utf8',
  });
  return { status: result.status, stdout: result.stdout };
}

describe('e2e-node.sh', () => {
  it('runs the suite with the vitest arguments it is given, --if-possible aside', () => {
    expect(run(['--if-possible', 'test/node-faults/', '-t', 'kubelet'])).toEqual({
      status: 0,
      stdout:
        'npm run images (E2E_CLUSTER=)\nnpm run e2e -w @scoby/e2e -- test/node-faults/ -t kubelet (E2E_CLUSTER=node)\n',
    });
    expect(run([]).stdout).toContain('npm run e2e -w @scoby/e2e -- (E2E_CLUSTER=node)\n');
  });
});
