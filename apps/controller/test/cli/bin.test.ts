import { execFile } from 'node:child_process';
import { mkdtemp, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { parseAllDocuments } from 'yaml';
import { runCli } from '../../src/cli/program.ts';
import { FIXTURES, recordingIo } from './cli-io.ts';
import { BIN, scoby } from './child-process.ts';

const MANIFEST = new URL('../../../../crds/scoby.triggermesh.io_crdregistrations.yaml', import.meta.url);
const ENV = { CLUSTER_DOMAIN: 'cluster.local' };

describe('bin/scoby.js', () => {
  // --help took 3–6 s in the repository: the command line imported the runtime's index, and with it
  // client-node's 800 modules, for one default value, and the CRD manifest's package for `crds`.
  it('answers --help loading only the command line: no client-node, no runtime, under 100 modules', async () => {
    const record = join(await mkdtemp(join(tmpdir(), 'scoby-help-')), 'loads.json');
    const recorder = new URL('fixtures/record-loads.mjs', import.meta.url).href;
    const { stdout } = await promisify(execFile)(process.execPath, ['--import', recorder, BIN, '--help'], {
      env: { ...process.env, SCOBY_RECORD_LOADS: record },
    });
    expect(stdout).toMatch(/^Usage: scoby \[options\] \[command\]/);
    const { loaded, cpuMs } = JSON.parse(await readFile(record, 'utf8')) as {
      loaded: string[];
      cpuMs: number;
    };
    console.log(`scoby --help: ${loaded.length} modules, ${Math.round(cpuMs)} ms of CPU`);
    expect(
      loaded.filter((url) => /node_modules\/@kubernetes\/|controller-runtime\/src\/index/.test(url)),
    ).toEqual([]);
    expect(loaded.length).toBeLessThan(100);
  });

  it('prints the committed manifest with crds', async () => {
    expect(await scoby(['crds'], { cwd: FIXTURES })).toEqual({
      code: 0,
      signal: null,
      stdout: await readFile(MANIFEST, 'utf8'),
      stderr: '',
    });
  });

  it('renders exactly what the in-process command renders', async () => {
    const args = [
      'render',
      '--registration',
      'mailer-registration.yaml',
      '--instance',
      'mailer-instance.yaml',
      '--now',
      '2025-03-02T10:15:00Z',
    ];
    const recorded = recordingIo(ENV);
    expect(await runCli(args, recorded.io)).toBe(0);
    const result = await scoby(args, { cwd: FIXTURES, env: ENV });
    expect(result).toEqual({ code: 0, signal: null, stdout: recorded.stdout(), stderr: '' });
    expect(parseAllDocuments(result.stdout).map((document) => document.get('kind'))).toEqual([
      'Mailer',
      'Deployment',
      'Service',
    ]);
  });

  it('exits 1 with the render error on stderr', async () => {
    const result = await scoby(
      [
        'render',
        '--registration',
        'e8-registration.yaml',
        '--instance',
        'e8-instance.yaml',
        '--objects',
        'e8-broker-and-flags.yaml',
        '--scoby-namespace',
        'triggermesh',
      ],
      { cwd: FIXTURES, env: ENV },
    );
    expect(result).toEqual({
      code: 1,
      signal: null,
      stdout: '',
      stderr: 'RenderFailed: spec.sink: resolveAddress: services "collector" not found\n',
    });
  });
});
