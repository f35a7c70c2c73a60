import http from 'node:http';
import type { AddressInfo } from 'node:net';
// eslint-disable-next-line @nx/enforce-module-boundaries -- the example hook app is a test fixture here, not a dependency of the controller
import { createExampleHook } from '@scoby/example-hook';
import { afterEach, describe, expect, it } from 'vitest';
import { runCli } from '../../../src/cli/program.ts';
import { recordingIo } from '../cli-io.ts';
import { answer, startTestHook } from './hook-servers.ts';

let closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  await Promise.all(closers.map((close) => close()));
  closers = [];
});

async function hookCheck(args: string[]) {
  const recorded = recordingIo({ CLUSTER_DOMAIN: 'cluster.local' });
  const code = await runCli(['hook', 'check', ...args], recorded.io);
  return { code, stdout: recorded.stdout(), stderr: recorded.stderr() };
}

const FILES = ['--registration', 'mailer-registration.yaml', '--instance', 'mailer-instance.yaml'];

describe('scoby hook check: usage (exit 2)', () => {
  it('exits 2 when a required option is missing', async () => {
    const result = await hookCheck(['--url', 'http://127.0.0.1:1/']);
    expect(result).toMatchObject({
      code: 2,
      stderr: "error: required option '--registration <file>' not specified\n",
    });
  });

  it('exits 2 without a hook, or with both --url and --module', async () => {
    for (const args of [FILES, ['--url', 'http://127.0.0.1:1/', '--module', 'my-hook', ...FILES]]) {
      expect(await hookCheck(args)).toEqual({
        code: 2,
        stdout: '',
        stderr: 'error: give the hook to check: exactly one of --url or --module\n',
      });
    }
  });

  it('exits 2 for a --module that cannot be loaded, naming the module and why', async () => {
    const result = await hookCheck(['--module', './no-such-hook.mjs', ...FILES]);
    expect(result.code).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr).toMatch(/^error: --module: hook module "\.\/no-such-hook\.mjs"/);
  });

  it('exits 2 for a URL that is not http(s), an unreadable file, or a registration without a hook', async () => {
    expect(await hookCheck(['--url', 'ftp://example.com/', ...FILES])).toMatchObject({
      code: 2,
      stderr: 'error: --url: "ftp://example.com/" is not an http or https URL\n',
    });
    expect(
      await hookCheck([
        '--url',
        'http://127.0.0.1:1/',
        '--registration',
        'missing.yaml',
        '--instance',
        'mailer-instance.yaml',
      ]),
    ).toMatchObject({ code: 2, stderr: expect.stringMatching(/^error: cannot read missing\.yaml: /) });
    expect(
      await hookCheck([
        '--url',
        'http://127.0.0.1:1/',
        '--registration',
        'scoby-samples/kuard-addressable-registration.yaml',
        '--instance',
        'scoby-samples/kuard-addressable-instance.yaml',
      ]),
    ).toMatchObject({ code: 2, stderr: 'error: CRDRegistration "kuard" declares no hook (spec.hook)\n' });
  });

  it('exits 2 for a --registration that is no CRDRegistration, naming what the file holds', async () => {
    const swapped = ['--registration', 'mailer-instance.yaml', '--instance', 'mailer-instance.yaml'];
    expect(await hookCheck(['--url', 'http://127.0.0.1:1/', ...swapped])).toEqual({
      code: 2,
      stdout: '',
      stderr:
        'error: mailer-instance.yaml: expected a CRDRegistration (scoby.triggermesh.io/v1alpha1), ' +
        'found Mailer (notify.example.com/v1)\n',
    });
  });

  it('exits 2 for an instance the registration cannot render, naming it', async () => {
    const result = await hookCheck([
      '--url',
      'http://127.0.0.1:1/',
      '--registration',
      'mailer-registration.yaml',
      '--instance',
      'scoby-samples/kuard-addressable-instance.yaml',
    ]);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(
      /^error: instance [^ ]+\/my-kuard-extension: InvalidInput: instance .* is not of the registration's CRD "mailers\.notify\.example\.com"\n$/,
    );
  });
});

describe('scoby hook check: reports', () => {
  it('fails every call of a hook nobody listens on (exit 1), skipping what depends on an answer', async () => {
    const server = http.createServer();
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    await new Promise<void>((resolve) => server.close(() => resolve()));
    const result = await hookCheck(['--url', `http://127.0.0.1:${port}/`, ...FILES, '-o', 'json']);
    const report = JSON.parse(result.stdout);
    expect(
      report.checks.map((check: { case: string; result: string }) => `${check.case} ${check.result}`),
    ).toEqual([
      'pre-reconcile fail',
      'pre-reconcile-repeated skip',
      'key-order skip',
      'finalize fail',
      'finalize-repeated skip',
      'request-not-json warn',
      'request-not-a-hook-request warn',
      'serves-after-probes skip',
    ]);
    expect(report.checks[0].answer).toMatchObject({
      kind: 'failed',
      cause: expect.stringContaining('ECONNREFUSED'),
    });
    expect(result.code).toBe(1);
  });

  it('prints a table by default, and writes the JSON report with --report', async () => {
    const hook = await startTestHook((incoming, response) =>
      incoming.phase === 'finalize'
        ? answer(response, 503, '{"message": "busy", "permanent": true}', { 'Retry-After': 'soon' })
        : false,
    );
    closers.push(hook.close);
    const recorded = recordingIo({ CLUSTER_DOMAIN: 'cluster.local' });
    const { mkdtemp, readFile } = await import('node:fs/promises');
    const { tmpdir } = await import('node:os');
    const { join } = await import('node:path');
    const reportFile = join(await mkdtemp(join(tmpdir(), 'scoby-hook-check-')), 'report.json');
    const code = await runCli(
      ['hook', 'check', '--url', hook.url, ...FILES, '--report', reportFile],
      recorded.io,
    );
    expect(code).toBe(1);
    expect(recorded.stdout()).toBe(
      [
        `hook ${hook.url}, registration mailer, timeout 5s`,
        'RESULT  CASE                        INSTANCE     ANSWER',
        'warn    pre-reconcile               shop/orders  HTTP 200: status and children replaced',
        '  warn: hooks-v1.md §5.2: condition type "HookChecked" is not in statusConfiguration.conditionsFromHook: Scoby drops it',
        'pass    pre-reconcile-repeated      shop/orders  HTTP 200: status and children replaced',
        'pass    key-order                   shop/orders  HTTP 200: status and children replaced',
        'fail    finalize                    shop/orders  HTTP 503: error',
        '  fail: hooks-v1.md §6.2: the finalizer stays (Ready=False/HookFailed), the instance is parked until it or the registration changes: finalize hook: HTTP 503: busy',
        '  warn: hooks-v1.md §6.4: Retry-After "soon" is neither delta-seconds nor an HTTP-date: Scoby retries with its backoff instead',
        'skip    finalize-repeated           shop/orders  skipped: the first finalize call did not let the instance go',
        'pass    request-not-json            -            HTTP 400',
        'pass    request-not-a-hook-request  -            HTTP 400',
        'pass    serves-after-probes         shop/orders  HTTP 200: status and children replaced',
        '5 passed, 1 warned, 1 failed, 1 skipped: the hook fails',
        '',
      ].join('\n'),
    );
    const report = JSON.parse(await readFile(reportFile, 'utf8'));
    expect(report.summary).toEqual({ pass: 5, warn: 1, fail: 1, skip: 1 });
    expect(report.result).toBe('fail');
  });

  it('answers --help for hook check with exit 0', async () => {
    const result = await hookCheck(['--help']);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('Usage: scoby hook check [options]');
  });

  it('checks the example hook through the example registration of the docs', async () => {
    const hook = await createExampleHook({ conditionType: 'QuotaChecked' });
    closers.push(hook.close);
    expect(await hookCheck(['--url', hook.url, ...FILES])).toMatchObject({ code: 0, stderr: '' });
  });
});
