import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { HookError, startHookServer, type HookRequest } from '@scoby/hooks-v1';
import { afterEach, describe, expect, it } from 'vitest';
import { parse, parseAllDocuments } from 'yaml';
import { withDesiredHash } from '../../src/instance/children/update-detection.ts';
import { runCli } from '../../src/cli/program.ts';
import { FIXTURES, recordingIo } from './cli-io.ts';

const NOW = '2025-03-02T10:15:00Z';
const ENV = { CLUSTER_DOMAIN: 'cluster.local' };
const MAILER = [
  'render',
  '--registration',
  'mailer-registration.yaml',
  '--instance',
  'mailer-instance.yaml',
  '--now',
  NOW,
];

const LABELS = {
  'app.kubernetes.io/name': 'mailer',
  'app.kubernetes.io/instance': 'orders',
  'app.kubernetes.io/component': 'workload',
  'app.kubernetes.io/part-of': 'scoby-component',
  'app.kubernetes.io/managed-by': 'scoby-controller',
};
const SELECTOR = {
  'app.kubernetes.io/name': 'mailer',
  'app.kubernetes.io/instance': 'orders',
  'app.kubernetes.io/component': 'workload',
};
const OWNER = {
  apiVersion: 'notify.example.com/v1',
  kind: 'Mailer',
  name: 'orders',
  uid: '7c1e2a4b-5d6f-4a81-9b0c-2e3f4a5b6c7d',
  controller: true,
  blockOwnerDeletion: true,
};
const ADAPTER = {
  name: 'adapter',
  image: 'registry.example.com/mailer-adapter:1.4.2',
  env: [
    { name: 'MAILER_SMTP_HOST', value: 'mail.internal' },
    { name: 'POD_NAMESPACE', valueFrom: { fieldRef: { fieldPath: 'metadata.namespace' } } },
    { name: 'SMTP_PASSWORD', valueFrom: { secretKeyRef: { name: 'smtp', key: 'password' } } },
  ],
  terminationMessagePolicy: 'FallbackToLogsOnError',
  securityContext: { allowPrivilegeEscalation: false, readOnlyRootFilesystem: true },
};
const deploymentWith = (container: Record<string, unknown>) => ({
  apiVersion: 'apps/v1',
  kind: 'Deployment',
  metadata: { name: 'mailer-orders', namespace: 'shop', labels: LABELS, ownerReferences: [OWNER] },
  spec: {
    replicas: 2,
    selector: { matchLabels: SELECTOR },
    template: { metadata: { labels: SELECTOR }, spec: { containers: [container] } },
  },
});
/** A child as the controller sends it: with its desired-hash annotation. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- expected objects are plain literals
const written = (child: any) => withDesiredHash(child);
const SERVICE = {
  apiVersion: 'v1',
  kind: 'Service',
  metadata: { name: 'mailer-orders', namespace: 'shop', labels: LABELS, ownerReferences: [OWNER] },
  spec: { selector: SELECTOR, ports: [{ port: 80, targetPort: 8080, protocol: 'TCP' }] },
};
const condition = (type: string, status: string, reason: string, message = '') => ({
  type,
  status,
  reason,
  message,
  lastTransitionTime: NOW,
});

/** A fixture changed by `edit`, written to a temporary file; returns its path. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- tests edit arbitrary manifest fields
async function editedFixture(name: string, edit: (object: any) => void): Promise<string> {
  const object = parse(await readFile(join(FIXTURES, name), 'utf8'));
  edit(object);
  const file = join(await mkdtemp(join(tmpdir(), 'scoby-render-')), name);
  await writeFile(file, JSON.stringify(object));
  return file;
}

/** docs/spec/env.md E8 without the Service its sink names: the render fails. */
const withoutSink = (instance: string) => [
  'render',
  '--registration',
  'e8-registration.yaml',
  '--instance',
  instance,
  '--objects',
  'e8-broker-and-flags.yaml',
  '--scoby-namespace',
  'triggermesh',
];

async function render(args: string[], env: Record<string, string> = ENV) {
  const recorded = recordingIo(env);
  const code = await runCli(args, recorded.io);
  return { code, stdout: recorded.stdout(), stderr: recorded.stderr() };
}

describe('scoby render', () => {
  it('renders the docs/spec/registration.md §2 example as a stream kubectl apply takes: the instance with the status of the first write, then the children', async () => {
    const result = await render(MAILER);
    expect(result).toMatchObject({ code: 0, stderr: '' });
    const documents = parseAllDocuments(result.stdout) as { toJS(): unknown }[];
    expect(documents.map((document) => document.toJS())).toEqual([
      {
        apiVersion: 'notify.example.com/v1',
        kind: 'Mailer',
        metadata: { name: 'orders', namespace: 'shop', uid: OWNER.uid },
        spec: { smtp: { host: 'mail.internal', passwordRef: { secretName: 'smtp', key: 'password' } } },
        status: {
          observedGeneration: 3,
          address: { url: 'http://mailer-orders.shop.svc.cluster.local' },
          // The controller's first status write sees the children it has just created: the Service
          // exists, the Deployment reports nothing yet.
          conditions: [
            condition('DeploymentReady', 'Unknown', 'DeploymentUnknown'),
            condition('QuotaChecked', 'Unknown', 'UNKNOWN'),
            condition('Ready', 'Unknown', 'UNKNOWN'),
            condition(
              'Reconciling',
              'True',
              'Progressing',
              'DeploymentReady=Unknown for Deployment shop/mailer-orders: DeploymentUnknown; QuotaChecked=Unknown: UNKNOWN',
            ),
            condition('ServiceReady', 'True', 'ServiceExist'),
          ],
        },
      },
      written(deploymentWith(ADAPTER)),
      written(SERVICE),
    ]);
  });

  it('prints {children, status, warnings} with -o json', async () => {
    const yaml = parseAllDocuments((await render(MAILER)).stdout) as { toJS(): Record<string, unknown> }[];
    const json = await render([...MAILER, '-o', 'json']);
    expect(json.code).toBe(0);
    expect(JSON.parse(json.stdout)).toEqual({
      children: { deployment: yaml[1]?.toJS(), service: yaml[2]?.toJS() },
      status: yaml[0]?.toJS().status,
      warnings: [],
    });
  });

  it('uses the chosen version and the status features of --crd, pruning the status like the API server', async () => {
    const result = await render([...MAILER, '--crd', 'mailer-crd.json', '-o', 'json']);
    expect(result.code).toBe(0);
    const output = JSON.parse(result.stdout);
    expect(output.children.deployment.metadata.ownerReferences).toEqual([OWNER]);
    // Conditions declare type, status and reason only; no observedGeneration, no address.
    expect(output.status).toEqual({
      conditions: [
        { type: 'DeploymentReady', status: 'Unknown', reason: 'DeploymentUnknown' },
        { type: 'QuotaChecked', status: 'Unknown', reason: 'UNKNOWN' },
        { type: 'Ready', status: 'Unknown', reason: 'UNKNOWN' },
        { type: 'Reconciling', status: 'True', reason: 'Progressing' },
        { type: 'ServiceReady', status: 'True', reason: 'ServiceExist' },
      ],
    });
  });

  it('writes no status when the CRD has no status subresource', async () => {
    const crd = await editedFixture('mailer-crd.json', (object) => {
      for (const version of object.spec.versions) delete version.subresources;
    });
    const result = await render([...MAILER, '--crd', crd, '-o', 'json']);
    expect(result.code).toBe(0);
    expect(JSON.parse(result.stdout)).toEqual({
      children: { deployment: written(deploymentWith(ADAPTER)), service: written(SERVICE) },
      status: null,
      warnings: [],
    });
  });

  it('refuses a --crd that is not the registered one', async () => {
    const crd = await editedFixture('mailer-crd.json', (object) => {
      object.metadata.name = 'senders.notify.example.com';
    });
    expect(await render([...MAILER, '--crd', crd])).toEqual({
      code: 1,
      stdout: '',
      stderr:
        'InvalidInput: --crd: CRD "senders.notify.example.com" is not the registration\'s CRD "mailers.notify.example.com"\n',
    });
  });

  it('resolves addresses and controller ConfigMaps from --objects (docs/spec/env.md E8, §8.9 statusConfiguration.add)', async () => {
    const result = await render([
      'render',
      '--registration',
      'e8-registration.yaml',
      '--instance',
      'e8-instance.yaml',
      '--objects',
      'e8-service.yaml',
      'e8-broker-and-flags.yaml',
      '--scoby-namespace',
      'triggermesh',
      '--now',
      NOW,
      '-o',
      'json',
    ]);
    expect(result).toMatchObject({ code: 0, stderr: '' });
    const output = JSON.parse(result.stdout);
    expect(output.children.deployment.spec.template.spec.containers[0].env).toEqual([
      { name: 'APP_MIRROR', value: 'http://broker-ingress.knative-eventing.svc.cluster.local/infra/default' },
      { name: 'APP_TARGET', value: 'https://hooks.example.net/in' },
      { name: 'FEATURE_FLAGS', value: 'beta,metrics' },
      { name: 'K_SINK', value: 'http://collector.shop.svc.cluster.local/events' },
    ]);
    expect(Object.keys(output.children)).toEqual(['deployment']);
    expect(output.status).toEqual({
      observedGeneration: 1,
      sinkUri: 'http://collector.shop.svc.cluster.local/events',
      conditions: [
        condition('DeploymentReady', 'Unknown', 'DeploymentUnknown'),
        condition('Ready', 'Unknown', 'UNKNOWN'),
        condition(
          'Reconciling',
          'True',
          'Progressing',
          'DeploymentReady=Unknown for Deployment shop/relay-orders: DeploymentUnknown',
        ),
      ],
    });
  });

  it('takes the controller ConfigMap namespace from SCOBY_NAMESPACE', async () => {
    const args = [
      'render',
      '--registration',
      'e8-registration.yaml',
      '--instance',
      'e8-instance.yaml',
      '--objects',
      'e8-service.yaml',
      'e8-broker-and-flags.yaml',
      '-o',
      'json',
    ];
    const found = await render(args, { ...ENV, SCOBY_NAMESPACE: 'triggermesh' });
    expect(found.code).toBe(0);
    const missing = await render(args, { ...ENV, SCOBY_NAMESPACE: 'elsewhere' });
    expect(missing).toEqual({
      code: 1,
      stdout: '',
      stderr: 'RenderFailed: add.toEnv "FEATURE_FLAGS": ConfigMap "elsewhere/scoby-flags" not found\n',
    });
  });

  it('exits 1 with the RenderFailed message when an address does not resolve', async () => {
    const result = await render(withoutSink('e8-instance.yaml'));
    expect(result).toEqual({
      code: 1,
      stdout: '',
      stderr: 'RenderFailed: spec.sink: resolveAddress: services "collector" not found\n',
    });
  });

  it('prints the warnings met before a failure ahead of it, as the controller sends their Events first', async () => {
    const instance = await editedFixture('e8-instance.yaml', (object) => {
      // Two spellings of one generated name: EnvNameCollision, then the unresolvable sink fails.
      object.spec.logLevel = 'debug';
      object.spec.loglevel = 'info';
    });
    const result = await render(withoutSink(instance));
    expect(result).toEqual({
      code: 1,
      stdout: '',
      stderr:
        'Warning: EnvNameCollision: environment variable "APP_LOGLEVEL" from "spec.loglevel" is not set: the name is set by "spec.logLevel"\n' +
        'RenderFailed: spec.sink: resolveAddress: services "collector" not found\n',
    });
  });

  it('reports kinds it knows nothing about as discovery would', async () => {
    const result = await render([
      'render',
      '--registration',
      'e8-registration.yaml',
      '--instance',
      'e8-instance.yaml',
      '--objects',
      'e8-service.yaml',
      '--scoby-namespace',
      'triggermesh',
    ]);
    expect(result.code).toBe(1);
    // docs/spec/env.md §9 order: add.toEnv errors before spec-derived ones.
    expect(result.stderr).toBe(
      'RenderFailed: add.toEnv "FEATURE_FLAGS": ConfigMap "triggermesh/scoby-flags" not found; ' +
        'spec.mirror: resolveAddress: no API resource for kind "Broker" in "eventing.knative.dev/v1"\n',
    );
  });

  it('exits 1 with the validation reason and message for an invalid registration', async () => {
    const registration = await editedFixture('mailer-registration.yaml', (object) => {
      object.spec.workload.formFactor.knativeService = {};
      object.spec.hook.timeout = '10s';
    });
    const result = await render([
      'render',
      '--registration',
      registration,
      '--instance',
      'mailer-instance.yaml',
    ]);
    expect(result).toEqual({
      code: 1,
      stdout: '',
      stderr:
        'InvalidFormFactor: spec.workload.formFactor: exactly one form factor may be set, found "deployment", "knativeService"; ' +
        'spec.hook.timeout: "10s" is not an ISO 8601 duration (for example "PT10S")\n',
    });
  });

  it('exits 1 naming the file that cannot be read or parsed', async () => {
    expect(
      await render(['render', '--registration', 'missing.yaml', '--instance', 'mailer-instance.yaml']),
    ).toEqual({
      code: 1,
      stdout: '',
      stderr: expect.stringMatching(/^error: cannot read missing\.yaml: ENOENT/),
    });
    expect(
      await render([
        'render',
        '--registration',
        'mailer-registration.yaml',
        '--instance',
        'e8-broker-and-flags.yaml',
      ]),
    ).toEqual({
      code: 1,
      stdout: '',
      stderr: 'error: e8-broker-and-flags.yaml: expected exactly one instance, found 2 objects\n',
    });
  });

  it('refuses a --registration that is no CRDRegistration and a --crd that is no CRD, naming what the file holds', async () => {
    expect(
      await render([
        'render',
        '--registration',
        'mailer-instance.yaml',
        '--instance',
        'mailer-instance.yaml',
      ]),
    ).toEqual({
      code: 1,
      stdout: '',
      stderr:
        'error: mailer-instance.yaml: expected a CRDRegistration (scoby.triggermesh.io/v1alpha1), ' +
        'found Mailer (notify.example.com/v1)\n',
    });
    expect(
      await render([
        'render',
        '--registration',
        'mailer-registration.yaml',
        '--instance',
        'mailer-instance.yaml',
        '--crd',
        'mailer-registration.yaml',
      ]),
    ).toEqual({
      code: 1,
      stdout: '',
      stderr:
        'error: mailer-registration.yaml: expected a CustomResourceDefinition (apiextensions.k8s.io/v1), ' +
        'found CRDRegistration (scoby.triggermesh.io/v1alpha1)\n',
    });
  });

  it('refuses an instance that is not of the registered CRD', async () => {
    expect(
      await render([
        'render',
        '--registration',
        'mailer-registration.yaml',
        '--instance',
        'e8-instance.yaml',
      ]),
    ).toEqual({
      code: 1,
      stdout: '',
      stderr:
        'InvalidInput: instance flow.example.com/v1 Relay is not of the registration\'s CRD "mailers.notify.example.com"\n',
    });
  });
});

describe('scoby render --hooks', () => {
  let close: (() => Promise<void>) | undefined;
  afterEach(async () => {
    await close?.();
    close = undefined;
  });

  const registrationWithHook = (url: string) =>
    editedFixture('mailer-registration.yaml', (object) => {
      object.spec.hook.address = { uri: url };
    });

  it('calls pre-reconcile as the controller does and applies the answer (docs/spec/hooks-v1.md §8.1, §8.2)', async () => {
    const requests: HookRequest[] = [];
    const hook = await startHookServer({
      path: '/v1',
      preReconcile: (request) => {
        requests.push(request);
        const deployment = structuredClone(request.children?.deployment) as {
          spec: { template: { spec: { containers: Record<string, unknown>[] } } };
        };
        deployment.spec.template.spec.containers[0]!.resources = { requests: { cpu: '100m' } };
        return {
          object: {
            apiVersion: 'notify.example.com/v1',
            kind: 'Mailer',
            metadata: { name: 'orders', namespace: 'shop', labels: { tampered: 'yes' } },
            status: {
              observedGeneration: 2,
              conditions: [
                {
                  type: 'QuotaChecked',
                  status: 'True',
                  reason: 'QuotaAvailable',
                  message: '120 of 500 messages sent today',
                },
              ],
            },
          },
          children: { ...request.children, deployment } as never,
        };
      },
    });
    close = hook.close;
    const result = await render([
      'render',
      '--registration',
      await registrationWithHook(hook.url),
      '--instance',
      'mailer-instance.yaml',
      '--hooks',
      '--now',
      NOW,
      '-o',
      'json',
    ]);
    expect(result).toMatchObject({
      code: 0,
      stderr:
        'Warning: HookObjectChangesIgnored: hook changes to metadata.labels are ignored; only status is applied\n',
    });

    expect(requests).toHaveLength(1);
    const [request] = requests;
    expect(request?.formFactor).toBe('deployment');
    expect(request?.phase).toBe('pre-reconcile');
    expect(request?.object.metadata.finalizers).toEqual(['scoby.triggermesh.io/finalizer']);
    expect(request?.object.status).toEqual({
      conditions: [
        condition('DeploymentReady', 'Unknown', 'UNKNOWN'),
        condition('QuotaChecked', 'Unknown', 'UNKNOWN'),
        condition('Ready', 'Unknown', 'UNKNOWN'),
        condition('ServiceReady', 'Unknown', 'UNKNOWN'),
      ],
    });
    expect(request?.children).toEqual({ deployment: deploymentWith(ADAPTER), service: SERVICE });

    const output = JSON.parse(result.stdout);
    expect(output.children).toEqual({
      deployment: written(deploymentWith({ ...ADAPTER, resources: { requests: { cpu: '100m' } } })),
      service: written(SERVICE),
    });
    expect(output.status).toEqual({
      observedGeneration: 3,
      address: { url: 'http://mailer-orders.shop.svc.cluster.local' },
      conditions: [
        condition('DeploymentReady', 'Unknown', 'DeploymentUnknown'),
        condition('QuotaChecked', 'True', 'QuotaAvailable', '120 of 500 messages sent today'),
        condition('Ready', 'Unknown', 'UNKNOWN'),
        condition(
          'Reconciling',
          'True',
          'Progressing',
          'DeploymentReady=Unknown for Deployment shop/mailer-orders: DeploymentUnknown',
        ),
        condition('ServiceReady', 'True', 'ServiceExist'),
      ],
    });
    expect(output.warnings).toEqual([
      {
        reason: 'HookObjectChangesIgnored',
        message: 'hook changes to metadata.labels are ignored; only status is applied',
      },
    ]);
  });

  it('exits 1 with the HookFailed message when the hook fails (docs/spec/hooks-v1.md §8.3)', async () => {
    const hook = await startHookServer({
      preReconcile: () => {
        throw new HookError('quota service unreachable', { status: 503, retryAfterSeconds: 30 });
      },
    });
    close = hook.close;
    const result = await render([
      'render',
      '--registration',
      await registrationWithHook(hook.url),
      '--instance',
      'mailer-instance.yaml',
      '--hooks',
    ]);
    expect(result).toEqual({
      code: 1,
      stdout: '',
      stderr: 'HookFailed: pre-reconcile hook: HTTP 503: quota service unreachable\n',
    });
  });

  it('exits 1 with HookFailed when the answer nests the status too deeply to take', async () => {
    let deep: unknown = 'bottom';
    for (let level = 0; level < 3000; level++) deep = { next: deep };
    const hook = await startHookServer({
      preReconcile: (request) => ({ object: { ...request.object, status: { deep } } }) as never,
    });
    close = hook.close;
    const result = await render([
      'render',
      '--registration',
      await registrationWithHook(hook.url),
      '--instance',
      'mailer-instance.yaml',
      '--hooks',
    ]);
    expect(result).toEqual({
      code: 1,
      stdout: '',
      stderr:
        'HookFailed: pre-reconcile hook: invalid response: object.status is nested more than 100 levels deep\n',
    });
  });

  it('goes on with a warning when the hook fails with continue', async () => {
    const hook = await startHookServer({
      preReconcile: () => {
        throw new HookError('metrics backend down', { continue: true });
      },
    });
    close = hook.close;
    const result = await render([
      'render',
      '--registration',
      await registrationWithHook(hook.url),
      '--instance',
      'mailer-instance.yaml',
      '--hooks',
      '--now',
      NOW,
      '-o',
      'json',
    ]);
    expect(result.code).toBe(0);
    const output = JSON.parse(result.stdout);
    expect(output.children).toEqual({
      deployment: written(deploymentWith(ADAPTER)),
      service: written(SERVICE),
    });
    expect(result.stderr).toBe('Warning: HookFailed: pre-reconcile hook: HTTP 500: metrics backend down\n');
    expect(output.warnings).toEqual([
      { reason: 'HookFailed', message: 'pre-reconcile hook: HTTP 500: metrics backend down' },
    ]);
  });

  it('goes on under failurePolicy Ignore when the hook answers 5xx, printing HookSucceeded=False beside Ready', async () => {
    const hook = await startHookServer({
      preReconcile: () => {
        throw new HookError('quota service down', { status: 503 });
      },
    });
    close = hook.close;
    const registration = await editedFixture('mailer-registration.yaml', (object) => {
      object.spec.hook.address = { uri: hook.url };
      object.spec.hook.failurePolicy = 'Ignore';
    });
    const result = await render([
      'render',
      '--registration',
      registration,
      '--instance',
      'mailer-instance.yaml',
      '--hooks',
      '--now',
      NOW,
      '-o',
      'json',
    ]);
    const message = 'pre-reconcile hook: HTTP 503: quota service down';
    expect(result.code).toBe(0);
    expect(result.stderr).toBe(`Warning: HookFailedIgnored: ${message}\n`);
    const output = JSON.parse(result.stdout);
    expect(output.children).toEqual({
      deployment: written(deploymentWith(ADAPTER)),
      service: written(SERVICE),
    });
    const conditions = output.status.conditions as { type: string; reason: string }[];
    expect(conditions.find((entry) => entry.type === 'HookSucceeded')).toEqual(
      condition('HookSucceeded', 'False', 'HookFailedIgnored', message),
    );
    expect(conditions.map((entry) => entry.type)).toEqual([
      'DeploymentReady',
      'HookSucceeded',
      'QuotaChecked',
      'Ready',
      'Reconciling',
      'ServiceReady',
    ]);
    // The hook's condition says the hook failed (children-and-status.md §8.5); Ready is Unknown only
    // because no Deployment was observed, §8.4 leaving QuotaChecked out under Ignore.
    expect(conditions.find((entry) => entry.type === 'QuotaChecked')).toEqual(
      condition('QuotaChecked', 'Unknown', 'HookFailed', message),
    );
    expect(conditions.find((entry) => entry.type === 'Ready')?.reason).toBe('UNKNOWN');
  });

  it('resolves a ref hook address from --objects, failing like the registration controller', async () => {
    const result = await render([
      'render',
      '--registration',
      'mailer-registration.yaml',
      '--instance',
      'mailer-instance.yaml',
      '--objects',
      'e8-service.yaml',
      '--hooks',
    ]);
    expect(result).toEqual({ code: 1, stdout: '', stderr: 'HOOKFAILED: services "mailer-hook" not found\n' });
  });

  const registrationWithModule = (module: string) =>
    editedFixture('mailer-registration.yaml', (object) => {
      delete object.spec.hook.address;
      object.spec.hook.module = module;
    });

  it('calls an in-process hook allowed by --hook-module (docs/spec/hooks-v1.md §10)', async () => {
    const result = await render([
      'render',
      '--registration',
      await registrationWithModule('@scoby/example-hook/module'),
      '--instance',
      'mailer-instance.yaml',
      '--hooks',
      '--hook-module',
      '@scoby/example-hook/module',
      '--now',
      NOW,
      '-o',
      'json',
    ]);
    expect(result).toMatchObject({ code: 0, stderr: '' });
    expect(JSON.parse(result.stdout).children.deployment).toEqual(
      written(deploymentWith({ ...ADAPTER, env: [...ADAPTER.env, { name: 'EXAMPLE_HOOK', value: 'on' }] })),
    );
  });

  it('refuses a hook module that --hook-module does not allow, as the registration controller does', async () => {
    const result = await render([
      'render',
      '--registration',
      await registrationWithModule('@scoby/example-hook/module'),
      '--instance',
      'mailer-instance.yaml',
      '--hooks',
    ]);
    expect(result).toEqual({
      code: 1,
      stdout: '',
      stderr:
        'HookModuleNotAllowed: hook module "@scoby/example-hook/module" is not allowed: the controller allows none (--hook-module, SCOBY_HOOK_MODULES)\n',
    });
  });

  it('does not call the hook without --hooks', async () => {
    const requests: HookRequest[] = [];
    const hook = await startHookServer({ preReconcile: (request) => void requests.push(request) });
    close = hook.close;
    const result = await render([
      'render',
      '--registration',
      await registrationWithHook(hook.url),
      '--instance',
      'mailer-instance.yaml',
    ]);
    expect(result.code).toBe(0);
    expect(requests).toEqual([]);
  });
});

describe('scoby render with instance selection (docs/spec/registration.md §6.8)', () => {
  const selecting = (selector: unknown, namespaceSelector?: unknown) =>
    editedFixture('mailer-registration.yaml', (registration) => {
      registration.spec.selector = selector;
      if (namespaceSelector !== undefined) registration.spec.namespaceSelector = namespaceSelector;
    });
  const withArgs = (registration: string, extra: string[] = []) => [
    'render',
    '--registration',
    registration,
    '--instance',
    'mailer-instance.yaml',
    '--now',
    NOW,
    ...extra,
  ];
  const namespaceFile = (labels: Record<string, string>) =>
    editedFixture('mailer-instance.yaml', (object) => {
      for (const key of Object.keys(object)) delete object[key];
      Object.assign(object, { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'shop', labels } });
    });

  it('refuses an instance the selector does not select, as the controller would not serve it', async () => {
    const result = await render(withArgs(await selecting({ matchLabels: { track: 'canary' } })));
    expect(result).toEqual({
      code: 1,
      stdout: '',
      stderr:
        'NotSelected: instance shop/orders is not selected by CRDRegistration "mailer": spec.selector does not match its labels\n',
    });
  });

  it('renders an instance the selector selects, and judges a namespaceSelector on a Namespace among --objects', async () => {
    const registration = await selecting(
      { matchExpressions: [{ key: 'track', operator: 'DoesNotExist' }] },
      { matchLabels: { env: 'prod' } },
    );
    const unknown = await render(withArgs(registration));
    expect(unknown.code).toBe(0);
    expect(unknown.stderr).toBe(
      'Warning: NamespaceSelectorNotEvaluated: spec.namespaceSelector: Namespace "shop" is not among --objects, so its labels are not known\n',
    );
    const prod = await render(withArgs(registration, ['--objects', await namespaceFile({ env: 'prod' })]));
    expect(prod).toMatchObject({ code: 0, stderr: '' });
    expect(prod.stdout).toBe((await render(MAILER)).stdout);
    const dev = await render(withArgs(registration, ['--objects', await namespaceFile({ env: 'dev' })]));
    expect(dev).toEqual({
      code: 1,
      stdout: '',
      stderr:
        'NotSelected: instance shop/orders is not selected by CRDRegistration "mailer": spec.namespaceSelector does not match the labels of Namespace "shop"\n',
    });
  });
});

describe('scoby render of an instance without metadata.uid', () => {
  const withoutUid = () =>
    editedFixture('mailer-instance.yaml', (instance) => {
      delete instance.metadata.uid;
    });
  // A form factor whose instances need no workload of their own: nothing it prints names the owner.
  const NOTHING_PLUGIN = `export default {
  name: 'nothing',
  blockSchema: { type: 'object' },
  requiredApis: [],
  managedKinds: [{ apiVersion: 'v1', kind: 'ConfigMap' }],
  conditionTypes: [],
  render: () => ({}),
  status: () => ({ conditions: {}, address: { kind: 'unmanaged' } }),
};
`;

  it('warns NoInstanceUID when the children it prints lose the owner reference the uid names', async () => {
    const result = await render([
      'render',
      '--registration',
      'mailer-registration.yaml',
      '--instance',
      await withoutUid(),
      '--now',
      NOW,
    ]);
    expect(result.code).toBe(0);
    expect(result.stderr).toBe(
      'Warning: NoInstanceUID: the instance has no metadata.uid, so its children are printed without the owner ' +
        'reference and desired-hash annotation the controller writes; render the instance as stored (kubectl get -o yaml) to include them\n',
    );
    const [, deployment] = parseAllDocuments(result.stdout).map((document) => document.toJS());
    expect(deployment.metadata.ownerReferences).toBeUndefined();
  });

  it('prints no NoInstanceUID warning when no printed child would carry the uid', async () => {
    const folder = await mkdtemp(join(tmpdir(), 'scoby-render-plugin-'));
    const plugin = join(folder, 'nothing-plugin.mjs');
    await writeFile(plugin, NOTHING_PLUGIN);
    const registration = await editedFixture('mailer-registration.yaml', (object) => {
      object.spec.workload.formFactor = { nothing: {} };
    });
    const args = [
      'render',
      '--registration',
      registration,
      '--form-factor-plugin',
      plugin,
      '--now',
      NOW,
      '-o',
      'json',
    ];
    const result = await render([...args, '--instance', await withoutUid()]);
    expect({ code: result.code, stderr: result.stderr }).toEqual({ code: 0, stderr: '' });
    expect(JSON.parse(result.stdout)).toMatchObject({ children: {}, warnings: [] });
    const stored = await render([...args, '--instance', 'mailer-instance.yaml']);
    expect(JSON.parse(result.stdout)).toEqual(JSON.parse(stored.stdout));
  });
});
