/**
 * e2e-k3s.sh --if-possible (CI) where the engine lacks the k3s image: it names the suite's default
 * image, read from src/settings.ts through the workspace sources (no build needed), says why it skips
 * and exits 0. A fake `docker` stands in for an engine without the image.
 */
import { spawnSync } from 'node:child_process';
import { chmodSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { DEFAULT_K3S_IMAGE } from '../../src/settings.ts';

const SCRIPT = fileURLToPath(new URL('../../scripts/e2e-k3s.sh', import.meta.url));

describe('e2e-k3s.sh', () => {
  it('with --if-possible, skips saying why when the engine lacks the k3s image', () => {
    const bin = mkdtempSync(join(tmpdir(), 'scoby-k3s-script-'));
    writeFileSync(join(bin, 'docker'), '#!/bin/sh\n[ "$1" = version ] && echo 20.10.24 && exit 0\nexit 1\n');
    chmodSync(join(bin, 'docker'), 0o755);
    const result = spawnSync('/bin/bash', [SCRIPT, '--if-possible'], {
      cwd: tmpdir(),
      env: { PATH: [bin, dirname(process.execPath), '/usr/bin', '/bin'].join(':'), HOME: bin },
      encoding: 'utf8',
    });
    expect(result.stderr).toContain(
      `e2e-k3s: skipped: the k3s image ${DEFAULT_K3S_IMAGE} is not in the Docker engine`,
    );
    expect(result.status).toBe(0);
  });
});
