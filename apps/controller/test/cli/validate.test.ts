/**
 * `scoby validate`: registrations checked offline with the registration controller's own checks and
 * messages (docs/spec/registration.md §4), and with --crd against the registered CRD.
 */
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import { validateRegistration } from '@scoby/registration';
import { builtInFormFactors } from '../../src/process/built-in-form-factors.ts';
import { runCli } from '../../src/cli/program.ts';
import { OUT_OF_RANGE, OUT_OF_RANGE_CAUSES, OUT_OF_SET, OUT_OF_SET_CAUSES } from '../support/closed-sets.ts';
import { FIXTURES, recordingIo } from './cli-io.ts';

const SAMPLES = join(FIXTURES, 'scoby-samples');

async function validate(args: string[]) {
  const recorded = recordingIo({}, SAMPLES);
  const code = await runCli(['validate', ...args], recorded.io);
  return { code, stdout: recorded.stdout(), stderr: recorded.stderr() };
}

async function written(name: string, objects: unknown[]): Promise<string> {
  const file = join(await mkdtemp(join(tmpdir(), 'scoby-validate-')), name);
  await writeFile(file, objects.map((object) => stringify(object)).join('---\n'));
  return file;
}

/** Six problems across the §4 table, as a user might write them. */
const BROKEN = {
  apiVersion: 'scoby.triggermesh.io/v1alpha1',
  kind: 'CRDRegistration',
  metadata: { name: 'broken' },
  spec: {
    crd: 'kuards.extensions.triggermesh.io',
    workload: {
      fromImage: { repo: 'gcr.io/kuar-demo/kuard-amd64:blue' },
      formFactor: { deployment: { replicas: 1 }, knativeService: {} },
      parameterConfiguration: {
        fromSpec: {
          toEnv: [
            { path: 'variable1', name: 'V1' },
            {
              path: 'spec.refToAddress',
              name: 'SINK',
              valueFrom: { builtInFunc: { name: 'resolveAddres' } },
            },
          ],
        },
      },
    },
    hook: {
      version: 'v2',
      address: { uri: 'ftp://hooks.example.com' },
      timeout: '10s',
      capabilities: ['pre-reconcile'],
      failurePolicy: 'Sometimes',
    },
    resyncPeriod: 'PT10S',
  },
};

describe('scoby validate', () => {
  it('accepts the Go Scoby samples, one line each on stdout', async () => {
    expect(await validate(['kafkasource-registration.yaml', 'kuard-addressable-registration.yaml'])).toEqual({
      code: 0,
      stdout: 'CRDRegistration "kafkasource" is valid\nCRDRegistration "kuard" is valid\n',
      stderr: '',
    });
  });

  it("prints every problem at once, `<file>: <path>: <message>`: what kube-apiserver refuses, then the controller's findings on the other fields; exits 1", async () => {
    const file = await written('broken.yaml', [BROKEN]);
    const result = await validate([file]);
    const refused = [
      // kube-apiserver's words for the CRDRegistration schema (the in-memory API server reproduces them).
      'spec.workload.parameterConfiguration.fromSpec.toEnv[1].valueFrom.builtInFunc.name: Unsupported value: "resolveAddres": supported values: "resolveAddress"',
      'spec.hook.version: Unsupported value: "v2": supported values: "v1", "1", "1"',
      'spec.hook.failurePolicy: Unsupported value: "Sometimes": supported values: "Fail", "Ignore"',
    ];
    const found = [
      'spec.workload.formFactor: exactly one form factor may be set, found "deployment", "knativeService"',
      'spec.workload.parameterConfiguration.fromSpec.toEnv[0].path: invalid path "variable1": must start with "spec."',
      'spec.hook.address.uri: unsupported scheme "ftp" (supported: http, https)',
      'spec.hook.timeout: "10s" is not an ISO 8601 duration (for example "PT10S")',
      'spec.resyncPeriod: "PT10S" is shorter than the minimum PT30S',
    ];
    expect(result).toEqual({
      code: 1,
      stdout: '',
      stderr: [...refused, ...found].map((line) => `${file}: ${line}\n`).join(''),
    });
    // One source: the controller's validation, whose message its Ready condition carries, less the
    // fields the API server already refused.
    const validation = validateRegistration(BROKEN, builtInFormFactors([]));
    expect(validation.ok).toBe(false);
    if (!validation.ok) {
      const refusedPaths = refused.map((line) => line.slice(0, line.indexOf(': ')));
      expect(
        validation.problems
          .filter((problem) => !refusedPaths.includes(problem.path))
          .map((problem) => problem.message),
      ).toEqual(found);
    }
  });

  it('reports in one run the causes kube-apiserver gives for the same registrations (test/real-cluster/registration-closed-sets)', async () => {
    for (const [registration, causes] of [
      [OUT_OF_RANGE, OUT_OF_RANGE_CAUSES],
      [OUT_OF_SET, OUT_OF_SET_CAUSES],
    ] as const) {
      const file = await written('refused.yaml', [registration]);
      const result = await validate([file]);
      expect(result.code).toBe(1);
      const lines = result.stderr.split('\n').filter(Boolean);
      expect(lines.every((line) => line.startsWith(`${file}: `))).toBe(true);
      const apiServerWords = lines
        .map((line) => line.slice(file.length + 2))
        .filter(
          (line) =>
            line.includes(': Unsupported value: ') ||
            line.includes(': Invalid value: ') ||
            line.endsWith(': Required value'),
        );
      expect(apiServerWords.sort()).toEqual(causes);
    }
  });

  it('checks selector and namespaceSelector as kube-apiserver checks a LabelSelector', async () => {
    const selecting = (name: string, selector: unknown, namespaceSelector: unknown) => ({
      apiVersion: 'scoby.triggermesh.io/v1alpha1',
      kind: 'CRDRegistration',
      metadata: { name },
      spec: {
        crd: 'kuards.extensions.triggermesh.io',
        workload: { fromImage: { repo: 'gcr.io/kuar-demo/kuard-amd64:blue' } },
        selector,
        namespaceSelector,
      },
    });
    expect(
      await validate([
        await written('canary.yaml', [
          selecting('canary', { matchLabels: { track: 'canary' } }, { matchLabels: { env: 'prod' } }),
        ]),
      ]),
    ).toEqual({ code: 0, stdout: 'CRDRegistration "canary" is valid\n', stderr: '' });
    const bad = await written('bad.yaml', [
      selecting(
        'bad',
        { matchExpressions: [{ key: 'track', operator: 'Exists', values: ['canary'] }] },
        { matchLabels: { 'env/prod/x': 'yes' } },
      ),
    ]);
    expect(await validate([bad])).toEqual({
      code: 1,
      stdout: '',
      stderr:
        `${bad}: spec.selector.matchExpressions[0].values: may not be specified when operator is "Exists" or "DoesNotExist"\n` +
        `${bad}: spec.namespaceSelector.matchLabels["env/prod/x"]: invalid label key "env/prod/x": ` +
        // kube-apiserver's words for a key with two slashes.
        "a qualified name must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]') with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')\n",
    });
  });

  it('names the registration on each line when the files hold several', async () => {
    const broken = await written('broken.yaml', [BROKEN]);
    const result = await validate(['kuard-addressable-registration.yaml', broken]);
    expect(result.code).toBe(1);
    expect(result.stdout).toBe('CRDRegistration "kuard" is valid\n');
    expect(result.stderr.split('\n')[0]).toBe(
      `${broken}: CRDRegistration "broken": spec.workload.parameterConfiguration.fromSpec.toEnv[1].valueFrom.builtInFunc.name: ` +
        'Unsupported value: "resolveAddres": supported values: "resolveAddress"',
    );
  });

  it('with --crd, reports spec paths the CRD schema does not have (the Go Scoby httptarget sample)', async () => {
    const missing = (index: number, field: string, path: string) =>
      `httptarget-registration.yaml: spec.workload.parameterConfiguration.fromSpec.toEnv[${index}].valueFrom.secretPath.${field}: ` +
      `"${path}" is not in the schema of CRD "httptargets.targets.triggermesh.io" version v1alpha1\n`;
    expect(await validate(['httptarget-registration.yaml', '--crd', 'httptarget-crd.yaml'])).toEqual({
      code: 1,
      stdout: '',
      stderr:
        missing(7, 'name', 'spec.credentials.name') +
        missing(7, 'key', 'spec.preferences.key') +
        missing(9, 'name', 'spec.credentials.name') +
        missing(9, 'key', 'spec.preferences.key'),
    });
    expect(
      await validate([
        'kafkasource-registration.yaml',
        '--crd',
        'kafkasource-crd.yaml',
        '--crd',
        'kuard-crd.yaml',
      ]),
    ).toEqual({ code: 0, stdout: 'CRDRegistration "kafkasource" is valid\n', stderr: '' });
  });

  it('takes --crd before the registration files, as often as there are CRDs', async () => {
    expect(
      await validate([
        '--crd',
        'kuard-crd.yaml',
        '--crd',
        'kafkasource-crd.yaml',
        'kafkasource-registration.yaml',
      ]),
    ).toEqual({
      code: 0,
      stdout: 'CRDRegistration "kafkasource" is valid\n',
      stderr: '',
    });
  });

  it('with --crd, reports status paths the status schema lacks, and the CRD checks of the registration status', async () => {
    const registration = await written('kuard.yaml', [
      {
        apiVersion: 'scoby.triggermesh.io/v1alpha1',
        kind: 'CRDRegistration',
        metadata: { name: 'kuard' },
        spec: {
          crd: 'kuards.extensions.triggermesh.io',
          workload: {
            fromImage: { repo: 'gcr.io/kuar-demo/kuard-amd64:blue' },
            statusConfiguration: {
              add: [{ path: 'status.sinkURL', valueFrom: { path: 'spec.refToAddress' } }],
            },
          },
        },
      },
    ]);
    expect(await validate([registration, '--crd', 'kuard-crd.yaml'])).toEqual({
      code: 1,
      stdout: '',
      stderr:
        `${registration}: spec.workload.statusConfiguration.add[0].path: "status.sinkURL" is not in the status schema of ` +
        'CRD "kuards.extensions.triggermesh.io" version v1: the controller does not write it\n',
    });
    const clusterScoped = await written('kuard-crd.yaml', [
      {
        apiVersion: 'apiextensions.k8s.io/v1',
        kind: 'CustomResourceDefinition',
        metadata: { name: 'kuards.extensions.triggermesh.io' },
        spec: {
          group: 'extensions.triggermesh.io',
          scope: 'Cluster',
          names: { kind: 'Kuard', plural: 'kuards' },
          versions: [],
        },
      },
    ]);
    expect(await validate([registration, '--crd', clusterScoped])).toEqual({
      code: 1,
      stdout: '',
      stderr: `${registration}: spec.crd: CRD "kuards.extensions.triggermesh.io" is cluster scoped; only namespaced CRDs can be registered\n`,
    });
    expect(await validate([registration, '--crd', 'httptarget-crd.yaml'])).toEqual({
      code: 1,
      stdout: '',
      stderr: `${registration}: spec.crd: CRD "kuards.extensions.triggermesh.io" is not in the --crd files\n`,
    });
  });

  it('accepts an in-process hook (spec.hook.module) and refuses one with an address too', async () => {
    const withModule = (name: string, hook: Record<string, unknown>) => ({
      ...BROKEN,
      metadata: { name },
      spec: {
        crd: 'mailers.notify.example.com',
        workload: { fromImage: { repo: 'registry.example.com/mailer:1' } },
        hook: { version: 'v1', capabilities: ['pre-reconcile'], ...hook },
      },
    });
    const valid = await written('module.yaml', [withModule('in-process', { module: '@acme/mailer-hook' })]);
    expect(await validate([valid])).toEqual({
      code: 0,
      stdout: 'CRDRegistration "in-process" is valid\n',
      stderr: '',
    });
    const both = await written('both.yaml', [
      withModule('both', { module: '@acme/mailer-hook', address: { uri: 'http://hook.example.com/' } }),
    ]);
    expect(await validate([both])).toEqual({
      code: 1,
      stdout: '',
      stderr: `${both}: spec.hook: exactly one of address, module must be set\n`,
    });
  });

  it('exits 1 with an error line when the files hold no registration', async () => {
    expect(await validate(['kuard-crd.yaml'])).toEqual({
      code: 1,
      stdout: '',
      stderr: 'error: no CRDRegistration in kuard-crd.yaml\n',
    });
  });
});
