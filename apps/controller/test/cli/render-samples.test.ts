/**
 * `scoby render` on the samples of Go Scoby and TriggerMesh (fixtures/scoby-samples): the instance is
 * taken as the API server stores it (namespace, CRD pruning, defaults, validation), and the status is
 * the controller's write for the children it has just created, or for live ones (--observed).
 */
import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse, parseAllDocuments, stringify } from 'yaml';
import { runCli } from '../../src/cli/program.ts';
import { FIXTURES, recordingIo } from './cli-io.ts';

const SAMPLES = join(FIXTURES, 'scoby-samples');
const NOW = '2025-03-02T10:15:00Z';
const UID = '5f0c3a9e-1b2d-4c6e-8f7a-9b0c1d2e3f4a';
const NO_UID_WARNING =
  'Warning: NoInstanceUID: the instance has no metadata.uid, so its children are printed without the owner ' +
  'reference and desired-hash annotation the controller writes; render the instance as stored (kubectl get -o yaml) to include them\n';

const condition = (type: string, status: string, reason: string, message = '', time = NOW) => ({
  type,
  status,
  reason,
  message,
  lastTransitionTime: time,
});

async function render(args: string[]) {
  const recorded = recordingIo({ CLUSTER_DOMAIN: 'cluster.local' }, SAMPLES);
  const code = await runCli(['render', '--now', NOW, ...args], recorded.io);
  return { code, stdout: recorded.stdout(), stderr: recorded.stderr() };
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- rendered objects are plain YAML
function documents(stdout: string): any[] {
  return parseAllDocuments(stdout).map((document) => (document as { toJS(): unknown }).toJS());
}

/** A sample changed by `edit`, written to a temporary file; returns its path. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- tests edit arbitrary manifest fields
async function edited(name: string, edit: (object: any) => void): Promise<string> {
  const object = parse(await readFile(join(SAMPLES, name), 'utf8'));
  edit(object);
  const file = join(await mkdtemp(join(tmpdir(), 'scoby-samples-')), name);
  await writeFile(file, stringify(object));
  return file;
}

const KAFKA = [
  '--registration',
  'kafkasource-registration.yaml',
  '--instance',
  'kafkasource-instance.yaml',
  '--objects',
  'broker.yaml',
];
const HTTP = ['--registration', 'httptarget-registration.yaml', '--instance', 'httptarget-instance.yaml'];
const KUARD = [
  '--registration',
  'kuard-addressable-registration.yaml',
  '--instance',
  'kuard-addressable-instance.yaml',
  '--objects',
  'kuard-service.yaml',
  '--crd',
  'kuard-crd.yaml',
];

describe('scoby render on the Go Scoby samples', () => {
  it('prunes what the KafkaSource CRD does not declare: no AUTH_AUTH_* variables', async () => {
    const result = await render([...KAFKA, '--crd', 'kafkasource-crd.yaml', '-o', 'json']);
    expect(result).toEqual({ code: 0, stdout: expect.any(String), stderr: NO_UID_WARNING });
    const output = JSON.parse(result.stdout);
    expect(output.children.deployment.spec.template.spec.containers[0].env).toEqual([
      { name: 'BOOTSTRAP_SERVERS', value: 'kafka.example.com:9093' },
      { name: 'CA', valueFrom: { secretKeyRef: { name: 'kafka', key: 'ca-cert' } } },
      { name: 'GROUP_ID', value: 'test-consumer-group' },
      { name: 'K_LOGGING_CONFIG', value: '{}' },
      { name: 'K_METRICS_CONFIG', value: '{}' },
      { name: 'K_SINK', value: 'http://broker-ingress.knative-eventing.svc.cluster.local/default/default' },
      { name: 'NAMESPACE', valueFrom: { fieldRef: { fieldPath: 'metadata.namespace' } } },
      { name: 'SASL_ENABLE', value: 'true' },
      { name: 'SECURITY_MECHANISMS', value: 'GSSAPI' },
      { name: 'TLS_ENABLE', value: 'true' },
      { name: 'TOPIC', value: 'test-topic' },
    ]);
    expect(output.status).toEqual({
      observedGeneration: 1,
      sinkUri: 'http://broker-ingress.knative-eventing.svc.cluster.local/default/default',
      conditions: [
        condition('DeploymentReady', 'Unknown', 'DeploymentUnknown'),
        condition('Ready', 'Unknown', 'UNKNOWN'),
        condition(
          'Reconciling',
          'True',
          'Progressing',
          'DeploymentReady=Unknown for Deployment default/kafkasource-sample: DeploymentUnknown',
        ),
      ],
    });
  });

  it("keeps the HTTPTarget CRD's default: HTTP_SKIP_VERIFY=false", async () => {
    const result = await render([...HTTP, '--crd', 'httptarget-crd.yaml', '-o', 'json']);
    expect(result.code).toBe(0);
    const { env } = JSON.parse(result.stdout).children.deployment.spec.template.spec.containers[0];
    expect(env).toContainEqual({ name: 'HTTP_SKIP_VERIFY', value: 'false' });
    expect(env.map((variable: { name: string }) => variable.name)).toEqual([
      'HTTP_EVENT_SOURCE',
      'HTTP_EVENT_TYPE',
      'HTTP_METHOD',
      'HTTP_SKIP_VERIFY',
      'HTTP_URL',
      'K_LOGGING_CONFIG',
      'K_METRICS_CONFIG',
      'NAMESPACE',
    ]);
  });

  it('creates an instance without a namespace in default, with its references and URLs there', async () => {
    const result = await render(KUARD);
    expect(result).toEqual({ code: 0, stdout: expect.any(String), stderr: NO_UID_WARNING });
    const [instance, deployment, service] = documents(result.stdout);
    expect(instance.metadata).toEqual({ name: 'my-kuard-extension', namespace: 'default' });
    expect(instance.status).toEqual({
      observedGeneration: 1,
      sinkUri: 'http://my-service.default.svc.cluster.local',
      address: { url: 'http://kuard-my-kuard-extension.default.svc.cluster.local' },
      conditions: [
        condition('DeploymentReady', 'Unknown', 'DeploymentUnknown'),
        condition('Ready', 'Unknown', 'UNKNOWN'),
        condition(
          'Reconciling',
          'True',
          'Progressing',
          'DeploymentReady=Unknown for Deployment default/kuard-my-kuard-extension: DeploymentUnknown',
        ),
        condition('ServiceReady', 'True', 'ServiceExist'),
      ],
    });
    expect([
      deployment.kind,
      deployment.metadata.namespace,
      service.kind,
      service.metadata.namespace,
    ]).toEqual(['Deployment', 'default', 'Service', 'default']);
    // Without a uid there is no owner to name: nothing kube-apiserver would refuse.
    expect([deployment.metadata.ownerReferences, service.metadata.ownerReferences]).toEqual([
      undefined,
      undefined,
    ]);
    expect(deployment.spec.template.spec.containers[0].env).toContainEqual({
      name: 'FOO_SINK',
      value: 'http://my-service.default.svc.cluster.local',
    });
  });

  it('creates it in --namespace, and refuses one whose own namespace differs as kubectl does', async () => {
    const placed = documents((await render([...KUARD, '-n', 'team-a'])).stdout);
    expect(placed.map((object) => object.metadata.namespace)).toEqual(['team-a', 'team-a', 'team-a']);
    expect(placed[0].status.sinkUri).toBe('http://my-service.team-a.svc.cluster.local');
    expect(await render([...HTTP, '-n', 'team-a'])).toEqual({
      code: 1,
      stdout: '',
      stderr:
        'InvalidInput: the namespace from the instance "mynamespace" does not match the namespace "team-a"\n',
    });
  });

  it("reports an instance the CRD's schema refuses with kube-apiserver's 422 message", async () => {
    const instance = await edited('httptarget-instance.yaml', (object) => {
      object.spec.method = 'FETCH';
      object.spec.response.eventType = '';
    });
    expect(await render([...HTTP, '--instance', instance, '--crd', 'httptarget-crd.yaml'])).toEqual({
      code: 1,
      stdout: '',
      stderr:
        'Invalid: HTTPTarget.targets.triggermesh.io "calendarific" is invalid: [' +
        'spec.response.eventType: Invalid value: "": spec.response.eventType in body should be at least 1 chars long, ' +
        'spec.method: Unsupported value: "FETCH": supported values: "GET", "POST", "PUT", "PATCH", "DELETE"]\n',
    });
  });
});

describe('scoby render --observed', () => {
  const kuardWithUid = () =>
    edited('kuard-addressable-instance.yaml', (object) => {
      object.metadata.uid = UID;
    });
  const owner = {
    apiVersion: 'extensions.triggermesh.io/v1',
    kind: 'Kuard',
    name: 'my-kuard-extension',
    uid: UID,
    controller: true,
    blockOwnerDeletion: true,
  };

  it('prints the status the controller writes for the live children given', async () => {
    const instance = await kuardWithUid();
    const first = documents((await render([...KUARD, '--instance', instance])).stdout);
    const [, deployment] = first;
    expect(deployment.metadata.ownerReferences).toEqual([owner]);
    const live = await edited('kuard-service.yaml', () => undefined);
    await writeFile(
      live,
      stringify({
        ...deployment,
        metadata: {
          ...deployment.metadata,
          uid: 'c0ffee00-0000-4000-8000-000000000001',
          resourceVersion: '7',
        },
        status: {
          conditions: [
            { type: 'Available', status: 'True', reason: 'MinimumReplicasAvailable', message: '' },
          ],
        },
      }),
    );
    const result = await render([...KUARD, '--instance', instance, '--observed', live, '-o', 'json']);
    expect(result).toEqual({ code: 0, stdout: expect.any(String), stderr: '' });
    expect(JSON.parse(result.stdout).status.conditions).toEqual([
      condition('DeploymentReady', 'True', 'MinimumReplicasAvailable'),
      condition('Ready', 'True', 'CONDITIONSOK'),
      condition('ServiceReady', 'True', 'ServiceExist'),
    ]);
  });

  it('fails with ApplyFailed when a live child is not controlled by the instance', async () => {
    const live = await edited('kuard-service.yaml', (object) => {
      object.metadata.name = 'kuard-my-kuard-extension';
    });
    expect(await render([...KUARD, '--instance', await kuardWithUid(), '--observed', live])).toEqual({
      code: 1,
      stdout: '',
      stderr:
        'ApplyFailed: Service "default/kuard-my-kuard-extension" exists and is not controlled by Kuard "my-kuard-extension"\n',
    });
  });
});
