import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
// eslint-disable-next-line @nx/enforce-module-boundaries -- the example hook app is a test fixture here, not a dependency of the controller
import { createExampleHook } from '@scoby/example-hook';
import { afterEach, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import type { CaseName, CheckReport, CheckResult } from '../../../src/cli/hook-check/check-types.ts';
import { runCli } from '../../../src/cli/program.ts';
import { FIXTURES, recordingIo } from '../cli-io.ts';
import { answer, startTestHook, type Breakage } from './hook-servers.ts';

const ENV = { CLUSTER_DOMAIN: 'cluster.local' };

/** A manifest or request body read back as JSON, whose fields the tests reach into. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- tests read and edit arbitrary fields
type Manifest = any;
const CASES: CaseName[] = [
  'pre-reconcile',
  'pre-reconcile-repeated',
  'key-order',
  'finalize',
  'finalize-repeated',
  'request-not-json',
  'request-not-a-hook-request',
  'serves-after-probes',
];

let closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  await Promise.all(closers.map((close) => close()));
  closers = [];
});

/** The mailer registration of docs/spec/registration.md §2 with the example hook's condition declared. */
async function registration(edit: (spec: Manifest) => void = () => undefined): Promise<string> {
  const object = parse(await readFile(join(FIXTURES, 'mailer-registration.yaml'), 'utf8'));
  object.spec.workload.statusConfiguration.conditionsFromHook = [{ type: 'HookChecked' }];
  edit(object.spec);
  const file = join(await mkdtemp(join(tmpdir(), 'scoby-hook-check-')), 'registration.json');
  await writeFile(file, JSON.stringify(object));
  return file;
}

async function hookCheck(args: string[]) {
  const recorded = recordingIo(ENV);
  const code = await runCli(['hook', 'check', ...args], recorded.io);
  return { code, stdout: recorded.stdout(), stderr: recorded.stderr() };
}

async function check(url: string, extra: string[] = [], registrationFile?: string) {
  const result = await hookCheck([
    '--url',
    url,
    '--registration',
    registrationFile ?? (await registration()),
    '--instance',
    'mailer-instance.yaml',
    '-o',
    'json',
    ...extra,
  ]);
  return { ...result, report: (result.stdout === '' ? undefined : JSON.parse(result.stdout)) as CheckReport };
}

function results(report: CheckReport): Record<string, CheckResult> {
  return Object.fromEntries(report.checks.map((check) => [check.case, check.result]));
}

function allPassBut(changed: Record<CaseName, CheckResult>): Record<string, CheckResult> {
  return { ...Object.fromEntries(CASES.map((name) => [name, 'pass'])), ...changed };
}

function findingsOf(report: CheckReport, name: CaseName): string[] {
  const found = report.checks.find((check) => check.case === name);
  return (found?.findings ?? []).map(
    (finding) => `${finding.result}: ${finding.section}: ${finding.message}`,
  );
}

async function brokenHook(breakIt: Breakage): Promise<string> {
  const hook = await startTestHook(breakIt);
  closers.push(hook.close);
  return hook.url;
}

describe('scoby hook check', () => {
  it('serves lookups from --objects placed in the instance namespace, as render does', async () => {
    // The e8 relay with a hook, its Service given without a namespace (kubectl apply -f puts it in
    // the instance's): the request carries the address the controller would resolve.
    const registrationObject = parse(await readFile(join(FIXTURES, 'e8-registration.yaml'), 'utf8'));
    registrationObject.spec.hook = {
      version: 'v1',
      address: { uri: 'http://unused/' },
      capabilities: ['pre-reconcile'],
    };
    const service = parse(await readFile(join(FIXTURES, 'e8-service.yaml'), 'utf8'));
    delete service.metadata.namespace;
    const dir = await mkdtemp(join(tmpdir(), 'scoby-hook-check-'));
    await writeFile(join(dir, 'registration.json'), JSON.stringify(registrationObject));
    await writeFile(join(dir, 'service.json'), JSON.stringify(service));
    const sinks: unknown[] = [];
    const hook = await startTestHook((incoming) => {
      const body = incoming.json as Manifest;
      if (incoming.phase === 'pre-reconcile') {
        const env = body.children.deployment.spec.template.spec.containers[0].env as {
          name: string;
          value?: string;
        }[];
        sinks.push(env.find((variable) => variable.name === 'K_SINK')?.value);
      }
      return false;
    });
    closers.push(hook.close);
    const { code, stderr } = await hookCheck([
      '--url',
      hook.url,
      '--registration',
      join(dir, 'registration.json'),
      '--instance',
      'e8-instance.yaml',
      '--objects',
      join(dir, 'service.json'),
      'e8-broker-and-flags.yaml',
      '--scoby-namespace',
      'triggermesh',
    ]);
    expect(stderr).toBe('');
    expect(code).not.toBe(2);
    expect(sinks.length).toBeGreaterThan(0);
    expect(new Set(sinks)).toEqual(new Set(['http://collector.shop.svc.cluster.local/events']));
  });

  it('passes the example hook as an in-process module (--module) in every case, as over HTTP', async () => {
    const result = await hookCheck([
      '--module',
      '@scoby/example-hook/module',
      '--registration',
      await registration(),
      '--instance',
      'mailer-instance.yaml',
      '-o',
      'json',
      '--strict',
    ]);
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    const report = JSON.parse(result.stdout) as CheckReport;
    expect(report.hook).toBe('module:@scoby/example-hook/module');
    expect(results(report)).toEqual(allPassBut({}));
  });

  it('passes the example hook (apps/example-hook, a real HTTP server) in every case, with the requests the controller builds', async () => {
    const hook = await createExampleHook({ conditionType: 'HookChecked' });
    closers.push(hook.close);
    const { code, report, stderr } = await check(hook.url, ['--strict']);
    expect(stderr).toBe('');
    expect(results(report)).toEqual(allPassBut({}));
    expect(report.checks.map((check) => check.instance)).toEqual([
      ...Array<string>(5).fill('shop/orders'),
      undefined,
      undefined,
      'shop/orders',
    ]);
    expect(report).toMatchObject({
      hook: hook.url,
      registration: 'mailer',
      timeoutMs: 5000,
      strict: true,
      result: 'pass',
      summary: { pass: 8, warn: 0, fail: 0, skip: 0 },
    });
    expect(report.checks[0]).toMatchObject({
      observed: 'HTTP 200: status and children replaced',
      section: 'hooks-v1.md §3–§5',
      answer: { kind: 'response', status: 200 },
    });
    expect(code).toBe(0);
  });

  it('sends the pre-reconcile body exactly as the controller builds it (buildRequestBody), and finalize with the stored status', async () => {
    const bodies: Manifest[] = [];
    const url = await brokenHook((incoming) => {
      if (incoming.phase) bodies.push(incoming.json);
      return false;
    });
    const { code } = await check(url);
    expect(code).toBe(0);
    const [preReconcile] = bodies;
    expect(Object.keys(preReconcile)).toEqual(['formFactor', 'phase', 'object', 'children']);
    expect(preReconcile.formFactor).toBe('deployment');
    expect(preReconcile.object.metadata.finalizers).toEqual(['scoby.triggermesh.io/finalizer']);
    expect(preReconcile.object.status.conditions.map((c: Manifest) => [c.type, c.status])).toEqual([
      ['DeploymentReady', 'Unknown'],
      ['HookChecked', 'Unknown'],
      ['Ready', 'Unknown'],
      ['ServiceReady', 'Unknown'],
    ]);
    expect(Object.keys(preReconcile.children)).toEqual(['deployment', 'service']);
    expect(preReconcile.children.deployment.spec.template.spec.containers[0].image).toBe(
      'registry.example.com/mailer-adapter:1.4.2',
    );
    // The key-order case: the same request, every object's keys reversed.
    expect(Object.keys(bodies[2])).toEqual(['children', 'object', 'phase', 'formFactor']);
    expect(bodies[2]).toEqual(preReconcile);
    const finalize = bodies[3];
    expect(finalize.phase).toBe('finalize');
    expect(finalize.children).toBeUndefined();
    expect(finalize.object.metadata.deletionTimestamp).toMatch(/^\d{4}-\d\d-\d\dT/);
    // As stored after the first reconcile: the hook's condition taken, the Service there.
    expect(finalize.object.status.conditions.map((c: Manifest) => [c.type, c.status])).toEqual([
      ['DeploymentReady', 'Unknown'],
      ['HookChecked', 'True'],
      ['Ready', 'Unknown'],
      ['Reconciling', 'True'],
      ['ServiceReady', 'True'],
    ]);
  });

  it('fails a hook that answers malformed JSON in pre-reconcile, and only there (§5.1)', async () => {
    const url = await brokenHook((incoming, response) =>
      incoming.phase === 'pre-reconcile' ? answer(response, 200, '{"object": ') : false,
    );
    const { code, report } = await check(url);
    expect(results(report)).toEqual(allPassBut({ 'pre-reconcile': 'fail' }));
    expect(findingsOf(report, 'pre-reconcile')).toEqual([
      `fail: hooks-v1.md §5.1: Scoby stops the reconcile: pre-reconcile hook: invalid response: body is not a JSON object`,
    ]);
    expect(code).toBe(1);
  });

  it('fails a hook that answers children of a kind the form factor does not manage (§5.3)', async () => {
    const url = await brokenHook((incoming, response) => {
      if (incoming.phase !== 'pre-reconcile') return false;
      const { children } = incoming.json as { children: Record<string, unknown> };
      const extra = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'extra' } };
      return answer(response, 200, JSON.stringify({ children: { ...children, extra } }));
    });
    const { code, report } = await check(url);
    expect(results(report)).toEqual(allPassBut({ 'pre-reconcile': 'fail' }));
    expect(findingsOf(report, 'pre-reconcile')).toEqual([
      'fail: hooks-v1.md §5.3: Scoby stops the reconcile: pre-reconcile hook: invalid response: children.extra: kind "ConfigMap" (v1) is not managed by form factor "deployment"',
    ]);
    expect(code).toBe(1);
  });

  it('fails a hook that redirects (3xx): Scoby does not follow redirects (§2)', async () => {
    const url = await brokenHook((incoming, response) =>
      incoming.phase === 'pre-reconcile' ? answer(response, 307, '', { Location: '/v2' }) : false,
    );
    const { code, report } = await check(url);
    expect(results(report)).toEqual(allPassBut({ 'pre-reconcile': 'fail' }));
    expect(findingsOf(report, 'pre-reconcile')).toEqual([
      'fail: hooks-v1.md §2: HTTP 307 redirect to /v2: Scoby does not follow redirects, it is an error answer: pre-reconcile hook: HTTP 307',
      'warn: hooks-v1.md §6.1: the HTTP 307 answer has an empty body: the condition says only "HTTP 307"; answer {"message": "<why>"}',
    ]);
    expect(code).toBe(1);
  });

  it('fails a hook that answers more than 16 MiB (§2)', async () => {
    const url = await brokenHook((incoming, response) =>
      incoming.phase === 'pre-reconcile'
        ? answer(
            response,
            200,
            JSON.stringify({ object: { status: { padding: 'x'.repeat(17 * 1024 * 1024) } } }),
          )
        : false,
    );
    const { code, report } = await check(url);
    expect(results(report)).toEqual(
      allPassBut({ 'pre-reconcile': 'fail', 'pre-reconcile-repeated': 'skip', 'key-order': 'skip' }),
    );
    expect(findingsOf(report, 'pre-reconcile')).toEqual([
      `fail: hooks-v1.md §2, §6.4: pre-reconcile hook: request to ${url} failed: response body larger than 16777216 bytes`,
    ]);
    expect(code).toBe(1);
  });

  it("fails a hook slower than the registration's timeout (§2)", async () => {
    const url = await brokenHook(async (incoming) => {
      if (incoming.phase === 'pre-reconcile') await sleep(2500);
      return false;
    });
    const { code, report } = await check(
      url,
      [],
      await registration((spec) => {
        spec.hook.timeout = 'PT1S';
      }),
    );
    expect(results(report)).toEqual(
      allPassBut({ 'pre-reconcile': 'fail', 'pre-reconcile-repeated': 'skip', 'key-order': 'skip' }),
    );
    expect(findingsOf(report, 'pre-reconcile')).toEqual([
      `fail: hooks-v1.md §2, §6.4: no complete answer within spec.hook.timeout: pre-reconcile hook: request to ${url} timed out after 1s`,
    ]);
    // The request sent again after the probes is the finalize one, which the hook answers.
    expect(report.checks.find((c) => c.case === 'serves-after-probes')?.observed).toBe(
      'HTTP 204: the instance may go',
    );
    expect(code).toBe(1);
  });

  it('fails a finalize that never lets the instance go (§7)', async () => {
    const url = await brokenHook((incoming, response) =>
      incoming.phase === 'finalize'
        ? answer(response, 409, '{"message": "still cleaning up", "permanent": false, "continue": false}')
        : false,
    );
    const { code, report } = await check(url);
    expect(results(report)).toEqual(allPassBut({ finalize: 'fail', 'finalize-repeated': 'skip' }));
    expect(findingsOf(report, 'finalize')).toEqual([
      'fail: hooks-v1.md §6.2: the finalizer stays (Ready=False/HookFailed), retried with backoff: finalize hook: HTTP 409: still cleaning up',
    ]);
    expect(code).toBe(1);
  });

  it('fails a hook whose answer changes from one call to the next (§4: idempotent)', async () => {
    let calls = 0;
    const url = await brokenHook((incoming, response) => {
      if (incoming.phase !== 'pre-reconcile') return false;
      calls++;
      return answer(response, 200, JSON.stringify({ object: { status: { calls } } }));
    });
    const { code, report } = await check(url);
    expect(results(report)).toEqual(
      allPassBut({ 'pre-reconcile-repeated': 'fail', 'key-order': 'fail', 'serves-after-probes': 'fail' }),
    );
    expect(findingsOf(report, 'pre-reconcile-repeated')).toEqual([
      'fail: hooks-v1.md §4: the same request sent again was answered differently: the answers differ at status.calls',
    ]);
    expect(code).toBe(1);
  });

  it('fails a hook whose answer depends on the order of JSON keys (§3)', async () => {
    const url = await brokenHook((incoming, response) => {
      if (incoming.phase !== 'pre-reconcile') return false;
      const first = Object.keys(incoming.json as object)[0];
      return answer(response, 200, JSON.stringify({ object: { status: { first } } }));
    });
    const { code, report } = await check(url);
    expect(results(report)).toEqual(allPassBut({ 'key-order': 'fail' }));
    expect(findingsOf(report, 'key-order')).toEqual([
      'fail: hooks-v1.md §3: the same request with its JSON keys in reverse order was answered differently: the answers differ at status.first',
    ]);
    expect(code).toBe(1);
  });

  it('warns on a hook that answers requests it cannot read with a 2xx status, and fails it with --strict (§11.2)', async () => {
    const url = await brokenHook((incoming, response) =>
      incoming.phase === undefined ? answer(response, 200, '{"message": "invalid request"}') : false,
    );
    const lenient = await check(url);
    expect(results(lenient.report)).toEqual(
      allPassBut({ 'request-not-json': 'warn', 'request-not-a-hook-request': 'warn' }),
    );
    expect(findingsOf(lenient.report, 'request-not-json')).toEqual([
      'warn: hooks-v1.md §11.2: a body that is not JSON was answered HTTP 200: a request the hook cannot read deserves 400 with an error body',
      'warn: hooks-v1.md §5.1, §6: HTTP 200 with an error body: a 2xx status is a success whatever the body says; answer errors with a non-2xx status',
    ]);
    expect(lenient.code).toBe(0);
    const strict = await check(url, ['--strict']);
    expect(strict.report.result).toBe('fail');
    expect(strict.code).toBe(1);
  });

  it('warns on error bodies without a message, and fails them with --strict (§6.1)', async () => {
    const url = await brokenHook((incoming, response) =>
      incoming.phase === undefined ? answer(response, 400, '{"permanent": "yes"}') : false,
    );
    const { code, report } = await check(url, ['--strict']);
    expect(results(report)).toEqual(
      allPassBut({ 'request-not-json': 'warn', 'request-not-a-hook-request': 'warn' }),
    );
    expect(findingsOf(report, 'request-not-a-hook-request')).toEqual([
      'warn: hooks-v1.md §6.1: the error body has no message: the condition says only "HTTP 400"; add "message": "<why>"',
      'warn: hooks-v1.md §6.1: "permanent" is "yes", not a boolean: Scoby reads it as false',
    ]);
    expect(code).toBe(1);
  });

  it('fails a hook that stops answering after the probes (§11.2)', async () => {
    let probed = false;
    const url = await brokenHook((incoming, response) => {
      if (incoming.phase === undefined) probed = true;
      if (probed) {
        response.socket?.destroy();
        return true;
      }
      return false;
    });
    const { code, report } = await check(url);
    expect(results(report)).toEqual(
      allPassBut({
        'request-not-json': 'warn',
        'request-not-a-hook-request': 'warn',
        'serves-after-probes': 'fail',
      }),
    );
    expect(code).toBe(1);
  });

  it('passes a large answer within 16 MiB (§2)', async () => {
    const url = await brokenHook((incoming, response) => {
      if (incoming.phase !== 'pre-reconcile') return false;
      const status = { padding: 'x'.repeat(4 * 1024 * 1024) };
      return answer(response, 200, JSON.stringify({ object: { status } }));
    });
    const { code, report } = await check(url);
    expect(results(report)).toEqual(allPassBut({}));
    expect(report.checks[0]?.answer).toMatchObject({
      kind: 'response',
      status: 200,
      bytes: 4 * 1024 * 1024 + '{"object":{"status":{"padding":""}}}'.length,
    });
    expect(code).toBe(0);
  });

  it('skips the phases the registration does not declare, and checks every instance given', async () => {
    const requests: string[] = [];
    const url = await brokenHook((incoming) => {
      const body = incoming.json as Manifest;
      if (incoming.phase) requests.push(`${incoming.phase} ${body.object.metadata.name}`);
      return false;
    });
    const second = join(await mkdtemp(join(tmpdir(), 'scoby-hook-check-')), 'instances.yaml');
    const instance = parse(await readFile(join(FIXTURES, 'mailer-instance.yaml'), 'utf8'));
    await writeFile(
      second,
      JSON.stringify({
        apiVersion: 'v1',
        kind: 'List',
        items: [{ ...instance, metadata: { ...instance.metadata, name: 'invoices' } }],
      }),
    );
    const result = await hookCheck([
      '--url',
      url,
      '--registration',
      await registration((spec) => {
        spec.hook.capabilities = ['finalize'];
      }),
      '--instance',
      'mailer-instance.yaml',
      second,
      '-o',
      'json',
    ]);
    const report = JSON.parse(result.stdout) as CheckReport;
    expect(report.checks.map((c) => `${c.case} ${c.instance ?? '-'} ${c.result}`)).toEqual([
      'pre-reconcile shop/orders skip',
      'pre-reconcile-repeated shop/orders skip',
      'key-order shop/orders skip',
      'finalize shop/orders pass',
      'finalize-repeated shop/orders pass',
      'pre-reconcile shop/invoices skip',
      'pre-reconcile-repeated shop/invoices skip',
      'key-order shop/invoices skip',
      'finalize shop/invoices pass',
      'finalize-repeated shop/invoices pass',
      'request-not-json - pass',
      'request-not-a-hook-request - pass',
      'serves-after-probes shop/orders pass',
    ]);
    expect(report.checks[0]?.observed).toBe(
      'skipped: the registration does not declare the pre-reconcile capability',
    );
    expect(requests).toEqual([
      'finalize orders',
      'finalize orders',
      'finalize invoices',
      'finalize invoices',
      'finalize orders',
    ]);
    expect(result.code).toBe(0);
  });

  it('sends formFactor in the form SCOBY_HOOK_FORM_FACTOR_FORMAT chooses (§3)', async () => {
    const hook = await createExampleHook({ conditionType: 'HookChecked', formFactorFormat: 'object' });
    closers.push(hook.close);
    const args = [
      '--url',
      hook.url,
      '--registration',
      await registration(),
      '--instance',
      'mailer-instance.yaml',
    ];
    const recorded = recordingIo({ ...ENV, SCOBY_HOOK_FORM_FACTOR_FORMAT: 'object' });
    expect(await runCli(['hook', 'check', ...args, '--strict'], recorded.io)).toBe(0);
    // The string form, which this hook refuses with 400.
    const { code, report } = await check(hook.url);
    expect(report.checks[0]?.findings[0]?.message).toBe(
      'Scoby stops the reconcile (Ready=False/HookFailed), the instance is parked until it or the registration changes: pre-reconcile hook: HTTP 400: invalid request: formFactor must be object',
    );
    expect(code).toBe(1);
  });
});
