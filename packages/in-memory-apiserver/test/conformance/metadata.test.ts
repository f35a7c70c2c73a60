/**
 * ObjectMeta validation of every write: names and generateName, labels, annotations, owner references
 * and finalizers, answered 422 with kube-apiserver's causes.
 */
import { CoreV1Api, type V1ObjectMeta } from '@kubernetes/client-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connect, failure, freshNamespace, type Target } from './harness.ts';

let target: Target;
let core: CoreV1Api;
let namespace: string;

beforeAll(async () => {
  target = await connect();
  core = target.kubeConfig.makeApiClient(CoreV1Api);
  namespace = await freshNamespace(target, 'meta');
});
afterAll(() => target.stop());

function configMap(metadata: V1ObjectMeta) {
  return core.createNamespacedConfigMap({ namespace, body: { metadata } });
}

const QUALIFIED =
  "name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')";
const SUBDOMAIN =
  "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')";

describe('object metadata', () => {
  it('checks label keys and values, naming metadata.labels', async () => {
    const key = await failure(configMap({ name: 'bad-key', labels: { 'bad key': 'x' } }));
    expect(key).toMatchObject({
      code: 422,
      reason: 'Invalid',
      message: `ConfigMap "bad-key" is invalid: metadata.labels: Invalid value: "bad key": ${QUALIFIED}`,
    });
    const value = await failure(configMap({ name: 'bad-value', labels: { app: '-x' } }));
    expect(value.details?.causes).toEqual([
      {
        reason: 'FieldValueInvalid',
        field: 'metadata.labels',
        message:
          "Invalid value: \"-x\": a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')",
      },
    ]);
  });

  it('checks annotation keys and their total size', async () => {
    const key = await failure(configMap({ name: 'bad-annotation', annotations: { 'a/b/c': 'x' } }));
    expect(key.details?.causes).toEqual([
      {
        reason: 'FieldValueInvalid',
        field: 'metadata.annotations',
        message:
          "Invalid value: \"a/b/c\": a qualified name must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]') with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')",
      },
    ]);
    const large = await failure(configMap({ name: 'large', annotations: { big: 'x'.repeat(256 * 1024) } }));
    expect(large).toMatchObject({
      code: 422,
      message:
        'ConfigMap "large" is invalid: metadata.annotations: Too long: may not be more than 262144 bytes',
    });
  });

  it('checks owner references: every coordinate given, one controller at most', async () => {
    const incomplete = await failure(
      configMap({ name: 'incomplete', ownerReferences: [{ apiVersion: '', kind: '', name: '', uid: '' }] }),
    );
    expect(incomplete.details?.causes).toEqual([
      {
        reason: 'FieldValueInvalid',
        field: 'metadata.ownerReferences.apiVersion',
        message: 'Invalid value: "": version must not be empty',
      },
      {
        reason: 'FieldValueInvalid',
        field: 'metadata.ownerReferences.kind',
        message: 'Invalid value: "": must not be empty',
      },
      {
        reason: 'FieldValueInvalid',
        field: 'metadata.ownerReferences.name',
        message: 'Invalid value: "": must not be empty',
      },
      {
        reason: 'FieldValueInvalid',
        field: 'metadata.ownerReferences.uid',
        message: 'Invalid value: "": must not be empty',
      },
    ]);
    const owner = { apiVersion: 'v1', kind: 'ConfigMap', uid: '00000000-0000-0000-0000-000000000001' };
    const twoControllers = await failure(
      configMap({
        name: 'two-controllers',
        ownerReferences: [
          { ...owner, name: 'a', controller: true },
          { ...owner, name: 'b', controller: true },
        ],
      }),
    );
    expect(twoControllers.details?.causes).toEqual([
      {
        reason: 'FieldValueInvalid',
        field: 'metadata.ownerReferences',
        message:
          'Invalid value: [{"apiVersion":"v1","kind":"ConfigMap","name":"a","uid":"00000000-0000-0000-0000-000000000001","controller":true},{"apiVersion":"v1","kind":"ConfigMap","name":"b","uid":"00000000-0000-0000-0000-000000000001","controller":true}]: Only one reference can have Controller set to true. Found "true" in references for ConfigMap/a and ConfigMap/b',
      },
    ]);
  });

  it('checks finalizers: qualified names, a domain unless standard, not orphan and foreground together', async () => {
    const bare = await failure(configMap({ name: 'bare-finalizer', finalizers: ['cleanup'] }));
    expect(bare).toMatchObject({
      code: 422,
      message:
        'ConfigMap "bare-finalizer" is invalid: metadata.finalizers[0]: Invalid value: "cleanup": name is neither a standard finalizer name nor is it fully qualified',
    });
    const both = await failure(configMap({ name: 'both', finalizers: ['orphan', 'foregroundDeletion'] }));
    expect(both.details?.causes).toEqual([
      {
        reason: 'FieldValueInvalid',
        field: 'metadata.finalizers',
        message:
          'Invalid value: ["orphan","foregroundDeletion"]: finalizer orphan and foregroundDeletion cannot be both set',
      },
    ]);
    const created = await configMap({ name: 'qualified', finalizers: ['example.com/cleanup', 'kubernetes'] });
    expect(created.metadata?.finalizers).toEqual(['example.com/cleanup', 'kubernetes']);
    await core.patchNamespacedConfigMap({
      name: 'qualified',
      namespace,
      body: [{ op: 'remove', path: '/metadata/finalizers' }],
    });
  });

  it('checks generateName and the name generated from it, with every rule that fails', async () => {
    const generated = await failure(configMap({ generateName: 'Bad_' }));
    expect(generated.code).toBe(422);
    expect((generated.details?.causes as unknown[])[0]).toEqual({
      reason: 'FieldValueInvalid',
      field: 'metadata.generateName',
      message: `Invalid value: "Bad_": ${SUBDOMAIN}`,
    });
    const long = `${'a'.repeat(253)}-`;
    const both = await failure(configMap({ name: long }));
    expect(both.details?.causes).toEqual([
      {
        reason: 'FieldValueInvalid',
        field: 'metadata.name',
        message: `Invalid value: "${long}": must be no more than 253 characters`,
      },
      {
        reason: 'FieldValueInvalid',
        field: 'metadata.name',
        message: `Invalid value: "${long}": ${SUBDOMAIN}`,
      },
    ]);
  });
});
