/**
 * Validation of the built-in kinds Scoby, plugins and hooks write: workload selectors and templates,
 * Service ports, immutable fields, and MicroTime fields, answered as kube-apiserver answers them.
 */
import { AppsV1Api, CoreV1Api, type V1Deployment } from '@kubernetes/client-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connect, failure, freshNamespace, rawRequest, type Target } from './harness.ts';

let target: Target;
let core: CoreV1Api;
let apps: AppsV1Api;
let namespace: string;

beforeAll(async () => {
  target = await connect();
  core = target.kubeConfig.makeApiClient(CoreV1Api);
  apps = target.kubeConfig.makeApiClient(AppsV1Api);
  namespace = await freshNamespace(target, 'typed');
});
afterAll(() => target.stop());

const LABEL =
  "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')";

function deployment(name: string, spec: Record<string, unknown>): V1Deployment {
  return { metadata: { name }, spec: spec as unknown as V1Deployment['spec'] };
}

const template = (labels: Record<string, string>) => ({
  metadata: { labels },
  spec: { containers: [{ name: 'main', image: 'example.com/app:1' }] },
});

function mergePatch(path: string, patch: unknown) {
  return rawRequest(target, 'PATCH', path, {
    contentType: 'application/merge-patch+json',
    text: JSON.stringify(patch),
  });
}

describe('workloads', () => {
  it('need a selector, a template whose labels it matches, and containers', async () => {
    const bare = await failure(apps.createNamespacedDeployment({ namespace, body: deployment('bare', {}) }));
    expect(bare).toMatchObject({
      code: 422,
      message:
        'Deployment.apps "bare" is invalid: [spec.selector: Required value, spec.template.metadata.labels: Invalid value: null: `selector` does not match template `labels`, spec.template.spec.containers: Required value]',
    });
  });

  it('check the containers of the template: names, images, ports', async () => {
    const status = await failure(
      apps.createNamespacedDeployment({
        namespace,
        body: deployment('containers', {
          selector: { matchLabels: { app: 'a' } },
          template: {
            metadata: { labels: { app: 'b' } },
            spec: {
              containers: [
                { name: 'Main_', image: '' },
                { name: 'Main_', image: 'x', ports: [{ containerPort: 0 }] },
              ],
            },
          },
        }),
      }),
    );
    expect(status.details?.causes).toEqual([
      {
        reason: 'FieldValueInvalid',
        field: 'spec.template.metadata.labels',
        message: 'Invalid value: {"app":"b"}: `selector` does not match template `labels`',
      },
      {
        reason: 'FieldValueInvalid',
        field: 'spec.template.spec.containers[0].name',
        message: `Invalid value: "Main_": ${LABEL}`,
      },
      {
        reason: 'FieldValueRequired',
        field: 'spec.template.spec.containers[0].image',
        message: 'Required value',
      },
      {
        reason: 'FieldValueInvalid',
        field: 'spec.template.spec.containers[1].name',
        message: `Invalid value: "Main_": ${LABEL}`,
      },
      {
        reason: 'FieldValueRequired',
        field: 'spec.template.spec.containers[1].ports[0].containerPort',
        message: 'Required value',
      },
      {
        reason: 'FieldValueDuplicate',
        field: 'spec.template.spec.containers[1].name',
        message: 'Duplicate value: "Main_"',
      },
    ]);
  });

  it('keep a Deployment’s selector and a StatefulSet’s fixed spec fields, and refuse negative replicas', async () => {
    const labels = { app: 'a' };
    await apps.createNamespacedDeployment({
      namespace,
      body: deployment('fixed', {
        selector: { matchLabels: labels },
        template: template({ ...labels, b: 'c' }),
      }),
    });
    const path = `/apis/apps/v1/namespaces/${namespace}/deployments/fixed`;
    const reselected = await mergePatch(path, { spec: { selector: { matchLabels: { b: 'c' } } } });
    expect(reselected).toMatchObject({
      status: 422,
      json: {
        message:
          'Deployment.apps "fixed" is invalid: spec.selector: Invalid value: {"matchLabels":{"app":"a","b":"c"}}: field is immutable',
      },
    });
    const emptied = await mergePatch(path, { spec: { selector: { matchLabels: null } } });
    expect(emptied).toMatchObject({
      status: 422,
      json: {
        message:
          'Deployment.apps "fixed" is invalid: [spec.selector: Invalid value: {}: empty selector is invalid for deployment, spec.selector: Invalid value: {}: field is immutable]',
      },
    });
    const negative = await mergePatch(path, { spec: { replicas: -1 } });
    expect(negative).toMatchObject({
      status: 422,
      json: {
        message:
          'Deployment.apps "fixed" is invalid: spec.replicas: Invalid value: -1: must be greater than or equal to 0',
      },
    });
    await apps.createNamespacedStatefulSet({
      namespace,
      body: {
        metadata: { name: 'fixed' },
        spec: { selector: { matchLabels: labels }, template: template(labels) },
      },
    });
    const renamed = await mergePatch(`/apis/apps/v1/namespaces/${namespace}/statefulsets/fixed`, {
      spec: { serviceName: 'other', replicas: 2 },
    });
    expect(renamed).toMatchObject({
      status: 422,
      json: {
        message:
          "StatefulSet.apps \"fixed\" is invalid: spec: Forbidden: updates to statefulset spec for fields other than 'replicas', 'ordinals', 'template', 'updateStrategy', 'revisionHistoryLimit', 'persistentVolumeClaimRetentionPolicy' and 'minReadySeconds' are forbidden",
      },
    });
  });
});

describe('services', () => {
  it('need ports, named and unique when there are several, in range, one per port and protocol', async () => {
    const none = await failure(
      core.createNamespacedService({
        namespace,
        body: { metadata: { name: 'portless' }, spec: { selector: { a: 'b' } } },
      }),
    );
    expect(none).toMatchObject({
      code: 422,
      message: 'Service "portless" is invalid: spec.ports: Required value',
    });
    const ports = await failure(
      core.createNamespacedService({
        namespace,
        body: {
          metadata: { name: 'ports' },
          spec: {
            ports: [
              { port: 53, protocol: 'TCP', name: 'dns' },
              { port: 53, protocol: 'TCP', name: 'dns' },
              { port: 70000 },
            ],
          },
        },
      }),
    );
    expect(ports.details?.causes).toEqual([
      { reason: 'FieldValueDuplicate', field: 'spec.ports[1].name', message: 'Duplicate value: "dns"' },
      { reason: 'FieldValueRequired', field: 'spec.ports[2].name', message: 'Required value' },
      {
        reason: 'FieldValueInvalid',
        field: 'spec.ports[2].port',
        message: 'Invalid value: 70000: must be between 1 and 65535, inclusive',
      },
      {
        reason: 'FieldValueInvalid',
        field: 'spec.ports[2].targetPort',
        message: 'Invalid value: 70000: must be between 1 and 65535, inclusive',
      },
      {
        reason: 'FieldValueDuplicate',
        field: 'spec.ports[1]',
        message:
          'Duplicate value: {"Name":"","Protocol":"TCP","AppProtocol":null,"Port":53,"TargetPort":0,"NodePort":0}',
      },
    ]);
  });

  it('keep their cluster IP once set', async (context) => {
    const created = await core.createNamespacedService({
      namespace,
      body: { metadata: { name: 'addressed' }, spec: { ports: [{ port: 80 }] } },
    });
    if (created.spec?.clusterIP === undefined) {
      console.log('skipped: this server allocates no cluster IPs (Service simulation off)');
      context.skip();
    }
    const moved = await mergePatch(`/api/v1/namespaces/${namespace}/services/addressed`, {
      spec: { clusterIP: '10.0.0.99' },
    });
    expect(moved).toMatchObject({
      status: 422,
      json: {
        message:
          'Service "addressed" is invalid: spec.clusterIPs[0]: Invalid value: ["10.0.0.99"]: may not change once set',
      },
    });
  });
});

describe('immutable data', () => {
  it('keeps the data of an immutable ConfigMap, and the mark, and a Secret’s type', async () => {
    await core.createNamespacedConfigMap({
      namespace,
      body: { metadata: { name: 'frozen' }, immutable: true, data: { a: 'b' } },
    });
    const path = `/api/v1/namespaces/${namespace}/configmaps/frozen`;
    expect(await mergePatch(path, { data: { a: 'c' } })).toMatchObject({
      status: 422,
      json: {
        message: 'ConfigMap "frozen" is invalid: data: Forbidden: field is immutable when `immutable` is set',
      },
    });
    expect(await mergePatch(path, { immutable: false })).toMatchObject({
      status: 422,
      json: {
        message:
          'ConfigMap "frozen" is invalid: immutable: Forbidden: field is immutable when `immutable` is set',
      },
    });
    await core.createNamespacedSecret({ namespace, body: { metadata: { name: 'typed' }, type: 'Opaque' } });
    expect(
      await mergePatch(`/api/v1/namespaces/${namespace}/secrets/typed`, { type: 'other' }),
    ).toMatchObject({
      status: 422,
      json: { message: 'Secret "typed" is invalid: type: Invalid value: "other": field is immutable' },
    });
  });
});

describe('MicroTime', () => {
  it('takes Lease times with six fractional digits only, and stores them in UTC', async () => {
    const post = (name: string, renewTime: string) =>
      rawRequest(target, 'POST', `/apis/coordination.k8s.io/v1/namespaces/${namespace}/leases`, {
        contentType: 'application/json',
        text: JSON.stringify({ metadata: { name }, spec: { holderIdentity: 'me', renewTime } }),
      });
    expect(await post('seconds', '2024-01-01T00:00:00Z')).toMatchObject({
      status: 400,
      json: {
        reason: 'BadRequest',
        message:
          'Lease in version "v1" cannot be handled as a Lease: parsing time "2024-01-01T00:00:00Z" as "2006-01-02T15:04:05.000000Z07:00": cannot parse "Z" as ".000000"',
      },
    });
    expect(await post('short', '2024-01-01T00:00:00.1Z')).toMatchObject({
      status: 400,
      json: {
        message:
          'Lease in version "v1" cannot be handled as a Lease: parsing time "2024-01-01T00:00:00.1Z" as "2006-01-02T15:04:05.000000Z07:00": cannot parse ".1Z" as ".000000"',
      },
    });
    expect((await post('offset', '2024-01-01T02:00:00.123456+02:00')).status).toBe(201);
    const raw = await rawRequest(
      target,
      'GET',
      `/apis/coordination.k8s.io/v1/namespaces/${namespace}/leases/offset`,
    );
    expect((raw.json as { spec: { renewTime: string } }).spec.renewTime).toBe('2024-01-01T00:00:00.123456Z');
  });
});
