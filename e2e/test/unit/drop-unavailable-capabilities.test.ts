/**
 * The runtime wrapper of with-docker-engine.sh: before runc runs, capabilities outside the bounding set
 * leave the OCI spec (a --privileged container asks for all of them, and runc fails on any it cannot hold).
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const SCRIPT = fileURLToPath(new URL('../../scripts/drop-unavailable-capabilities.mjs', import.meta.url));
/** CapBnd of these sandboxes: every capability up to CAP_CHECKPOINT_RESTORE (40) but CAP_SYS_RESOURCE (24). */
const WITHOUT_SYS_RESOURCE = '1fffeffffff';
const EVERY_CAPABILITY = '1ffffffffff';

const ASKED = ['CAP_CHOWN', 'CAP_SYS_ADMIN', 'CAP_SYS_RESOURCE', 'CAP_BPF'];
const processSpec = () => ({
  args: ['/bin/k3s', 'server'],
  capabilities: { bounding: ASKED, effective: ASKED, permitted: ASKED, inheritable: ASKED },
});

function runWrapper(bounding: string, args: string[]): void {
  execFileSync(process.execPath, [SCRIPT, ...args], {
    env: { ...process.env, SCOBY_CAP_BOUNDING: bounding },
  });
}

function bundleWith(spec: unknown): string {
  const bundle = mkdtempSync(join(tmpdir(), 'scoby-runc-'));
  writeFileSync(join(bundle, 'config.json'), JSON.stringify(spec));
  return bundle;
}

const shimArgs = (bundle: string) => [
  '--root',
  '/run/docker/runtime-runc/moby',
  '--log',
  join(bundle, 'log.json'),
  '--log-format',
  'json',
  'create',
  '--bundle',
  bundle,
  '--pid-file',
  join(bundle, 'init.pid'),
  'k3s-container',
];

describe('drop-unavailable-capabilities', () => {
  it('removes from the bundle of runc create every capability outside the bounding set, and nothing else', () => {
    const bundle = bundleWith({ ociVersion: '1.0.2', process: processSpec(), root: { path: 'rootfs' } });
    runWrapper(WITHOUT_SYS_RESOURCE, shimArgs(bundle));
    const kept = ['CAP_CHOWN', 'CAP_SYS_ADMIN', 'CAP_BPF'];
    expect(JSON.parse(readFileSync(join(bundle, 'config.json'), 'utf8'))).toEqual({
      ociVersion: '1.0.2',
      process: {
        args: ['/bin/k3s', 'server'],
        capabilities: { bounding: kept, effective: kept, permitted: kept, inheritable: kept },
      },
      root: { path: 'rootfs' },
    });
  });

  it('removes them from the process file of runc exec (docker exec --privileged)', () => {
    const directory = mkdtempSync(join(tmpdir(), 'scoby-runc-'));
    const file = join(directory, 'process.json');
    writeFileSync(file, JSON.stringify(processSpec()));
    runWrapper(WITHOUT_SYS_RESOURCE, [
      '--root',
      '/run/x',
      'exec',
      '--process',
      file,
      '--detach',
      'k3s-container',
    ]);
    expect(JSON.parse(readFileSync(file, 'utf8')).capabilities.effective).toEqual([
      'CAP_CHOWN',
      'CAP_SYS_ADMIN',
      'CAP_BPF',
    ]);
  });

  it('leaves the spec byte for byte as it was where the bounding set holds every capability', () => {
    const written = JSON.stringify({ process: processSpec() }, null, 2);
    const bundle = mkdtempSync(join(tmpdir(), 'scoby-runc-'));
    writeFileSync(join(bundle, 'config.json'), written);
    runWrapper(EVERY_CAPABILITY, shimArgs(bundle));
    expect(readFileSync(join(bundle, 'config.json'), 'utf8')).toBe(written);
  });
});
