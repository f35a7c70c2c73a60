import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { runCli } from '../../src/cli/program.ts';
import { recordingIo } from './cli-io.ts';

const MANIFEST = new URL('../../../../crds/scoby.triggermesh.io_crdregistrations.yaml', import.meta.url);

async function cli(args: string[], env: Record<string, string> = {}) {
  const recorded = recordingIo(env);
  const code = await runCli(args, recorded.io);
  return { code, stdout: recorded.stdout(), stderr: recorded.stderr() };
}

describe('scoby', () => {
  it('crds prints the committed CRDRegistration manifest', async () => {
    expect(await cli(['crds'])).toEqual({ code: 0, stdout: await readFile(MANIFEST, 'utf8'), stderr: '' });
  });

  it('prints its version with --version', async () => {
    const { version } = JSON.parse(
      await readFile(new URL('../../package.json', import.meta.url), 'utf8'),
    ) as {
      version: string;
    };
    expect(await cli(['--version'])).toEqual({ code: 0, stdout: `${version}\n`, stderr: '' });
  });

  it('lists its commands with --help', async () => {
    const result = await cli(['--help']);
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/^Usage: scoby \[options\] \[command\]/);
    for (const command of ['run [options]', 'render [options]', 'crds'])
      expect(result.stdout).toContain(command);
  });

  it('refuses unknown commands and options with exit code 1', async () => {
    expect(await cli(['deploy'])).toEqual({
      code: 1,
      stdout: '',
      stderr: "error: unknown command 'deploy'\n",
    });
    expect(await cli(['render', '--registration', 'r.yaml'])).toEqual({
      code: 1,
      stdout: '',
      stderr: "error: required option '--instance <file>' not specified\n",
    });
    expect(await cli(['render', '--registration', 'r.yaml', '--instance', 'i.yaml', '-o', 'xml'])).toEqual({
      code: 1,
      stdout: '',
      stderr:
        "error: option '-o, --output <format>' argument 'xml' is invalid. Allowed choices are yaml, json.\n",
    });
  });
});

describe('scoby run start-up failures', () => {
  it('fails with a clear message when SCOBY_NAMESPACE is unset', async () => {
    expect(await cli(['run'])).toEqual({
      code: 1,
      stdout: '',
      stderr:
        'scoby run: SCOBY_NAMESPACE is required: set it to the namespace Scoby runs in (home of controller ConfigMaps and of the leader-election Lease)\n',
    });
  });

  it('reports every invalid setting', async () => {
    expect(
      await cli(['run', '--concurrency', '0'], {
        SCOBY_NAMESPACE: 'scoby-system',
        SCOBY_HOOK_FORM_FACTOR_FORMAT: 'map',
      }),
    ).toEqual({
      code: 1,
      stdout: '',
      stderr:
        'scoby run: --concurrency: must be a positive integer, got "0"\n' +
        'scoby run: SCOBY_HOOK_FORM_FACTOR_FORMAT: must be "string" or "object", got "map"\n',
    });
  });

  it('needs --embedded for --kubeconfig-out, --sample and --cluster', async () => {
    const message = {
      code: 1,
      stdout: '',
      stderr: 'scoby run: --kubeconfig-out, --sample and --cluster need --embedded\n',
    };
    expect(await cli(['run', '--sample'], { SCOBY_NAMESPACE: 'scoby-system' })).toEqual(message);
    expect(await cli(['run', '--cluster', 'kwok'], { SCOBY_NAMESPACE: 'scoby-system' })).toEqual(message);
  });

  it('knows the embedded clusters', async () => {
    const result = await cli(['run', '--embedded', '--cluster', 'kind'], {});
    expect(result.code).toBe(1);
    expect(result.stderr).toBe(
      "error: option '--cluster <kind>' argument 'kind' is invalid. Allowed choices are memory, kwok.\n",
    );
  });

  it('fails when a form-factor plugin cannot be loaded', async () => {
    const result = await cli(['run', '--form-factor-plugin', './no-such-plugin.mjs'], {
      SCOBY_NAMESPACE: 'scoby-system',
    });
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/^scoby run: plugin "\.\/no-such-plugin\.mjs": cannot be imported: /);
  });
});
