/**
 * The PodSpec fields Scoby and its form factors write (env with value or valueFrom, configMap and secret
 * volumes with items and modes, volumeMounts, the termination message policy), defaulted and validated
 * as kube-apiserver does.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connect, freshNamespace, rawRequest, type Target } from './harness.ts';
import { createDeployment as createDeploymentRequest, sortedCauses } from './pod-template-requests.ts';

let target: Target;
let namespace: string;

beforeAll(async () => {
  target = await connect();
  namespace = await freshNamespace(target, 'podspec');
});
afterAll(() => target.stop());

function createDeployment(name: string, podSpec: Record<string, unknown>) {
  return createDeploymentRequest(target, namespace, name, podSpec);
}

const CONTAINER = 'spec.template.spec.containers[0]';
const SUBDOMAIN =
  "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')";
const CONFIG_KEY =
  "a valid config key must consist of alphanumeric characters, '-', '_' or '.' (e.g. 'key.name',  or 'KEY_NAME',  or 'key-name', regex used for validation is '[-._a-zA-Z0-9]+')";
const LABEL =
  "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')";

describe('what Scoby writes in a pod template', () => {
  it('is defaulted as kube-apiserver defaults it: volume modes, fieldRef version, sourceless volumes', async () => {
    const reply = await createDeployment('defaults', {
      volumes: [
        { name: 'config', configMap: { name: 'settings', items: [{ key: 'a', path: 'a.txt' }] } },
        { name: 'creds', secret: { secretName: 'creds', optional: true } },
        { name: 'scratch' },
      ],
      containers: [
        {
          name: 'adapter',
          image: 'example.com/adapter:1',
          env: [
            { name: 'POD', valueFrom: { fieldRef: { fieldPath: 'metadata.name' } } },
            { name: 'KEY', valueFrom: { secretKeyRef: { name: 'creds', key: 'token', optional: true } } },
          ],
          volumeMounts: [
            { name: 'config', mountPath: '/etc/config', readOnly: true },
            { name: 'creds', mountPath: '/etc/creds' },
          ],
          terminationMessagePolicy: 'FallbackToLogsOnError',
        },
      ],
    });
    expect(reply.status).toBe(201);
    const spec = (reply.json as { spec: { template: { spec: Record<string, unknown> } } }).spec.template.spec;
    expect(spec.volumes).toEqual([
      {
        name: 'config',
        configMap: { name: 'settings', items: [{ key: 'a', path: 'a.txt' }], defaultMode: 420 },
      },
      { name: 'creds', secret: { secretName: 'creds', optional: true, defaultMode: 420 } },
      { name: 'scratch', emptyDir: {} },
    ]);
    expect((spec.containers as { env: unknown }[])[0]?.env).toEqual([
      { name: 'POD', valueFrom: { fieldRef: { apiVersion: 'v1', fieldPath: 'metadata.name' } } },
      { name: 'KEY', valueFrom: { secretKeyRef: { name: 'creds', key: 'token', optional: true } } },
    ]);
  });

  it('refuses bad volumes and mounts with kube-apiserver’s causes', async () => {
    const reply = await createDeployment('volumes', {
      volumes: [
        { name: 'Bad_Name', configMap: { name: '' } },
        { name: 'two', configMap: { name: 'a' }, secret: { secretName: 'b' } },
        {
          name: 'paths',
          secret: { secretName: 's', defaultMode: 512, items: [{ key: '', path: '/abs/../x', mode: -1 }] },
        },
        { name: 'fine', emptyDir: {} },
        { name: 'fine', emptyDir: {} },
      ],
      containers: [
        {
          name: 'main',
          image: 'example.com/app:1',
          volumeMounts: [
            { name: 'missing', mountPath: '/a' },
            { name: 'two', mountPath: '/a' },
            { name: '', mountPath: '' },
          ],
          terminationMessagePolicy: 'Sometimes',
        },
      ],
    });
    expect(reply.status).toBe(422);
    const volumes = 'spec.template.spec.volumes';
    expect(sortedCauses(reply.json)).toEqual(
      [
        {
          reason: 'FieldValueInvalid',
          field: `${volumes}[0].name`,
          message: `Invalid value: "Bad_Name": ${LABEL}`,
        },
        { reason: 'FieldValueRequired', field: `${volumes}[0].configMap.name`, message: 'Required value' },
        {
          reason: 'FieldValueForbidden',
          field: `${volumes}[1].configMap`,
          message: 'Forbidden: may not specify more than 1 volume type',
        },
        {
          reason: 'FieldValueInvalid',
          field: `${volumes}[2].secret.defaultMode`,
          message: 'Invalid value: 512: must be a number between 0 and 0777 (octal), both inclusive',
        },
        {
          reason: 'FieldValueRequired',
          field: `${volumes}[2].secret.items[0].key`,
          message: 'Required value',
        },
        {
          reason: 'FieldValueInvalid',
          field: `${volumes}[2].secret.items[0].path`,
          message: 'Invalid value: "/abs/../x": must be a relative path',
        },
        {
          reason: 'FieldValueInvalid',
          field: `${volumes}[2].secret.items[0].path`,
          message: 'Invalid value: "/abs/../x": must not contain \'..\'',
        },
        {
          reason: 'FieldValueInvalid',
          field: `${volumes}[2].secret.items[0].mode`,
          message: 'Invalid value: -1: must be a number between 0 and 0777 (octal), both inclusive',
        },
        { reason: 'FieldValueDuplicate', field: `${volumes}[4].name`, message: 'Duplicate value: "fine"' },
        {
          reason: 'FieldValueNotSupported',
          field: `${CONTAINER}.terminationMessagePolicy`,
          message: 'Unsupported value: "Sometimes": supported values: "File", "FallbackToLogsOnError"',
        },
        {
          reason: 'FieldValueNotFound',
          field: `${CONTAINER}.volumeMounts[0].name`,
          message: 'Not found: "missing"',
        },
        {
          reason: 'FieldValueNotFound',
          field: `${CONTAINER}.volumeMounts[1].name`,
          message: 'Not found: "two"',
        },
        {
          reason: 'FieldValueInvalid',
          field: `${CONTAINER}.volumeMounts[1].mountPath`,
          message: 'Invalid value: "/a": must be unique',
        },
        {
          reason: 'FieldValueRequired',
          field: `${CONTAINER}.volumeMounts[2].name`,
          message: 'Required value',
        },
        {
          reason: 'FieldValueNotFound',
          field: `${CONTAINER}.volumeMounts[2].name`,
          message: 'Not found: ""',
        },
        {
          reason: 'FieldValueRequired',
          field: `${CONTAINER}.volumeMounts[2].mountPath`,
          message: 'Required value',
        },
      ].sort((a, b) => `${a.field} ${a.message}`.localeCompare(`${b.field} ${b.message}`)),
    );
  });

  it('refuses bad env sources with kube-apiserver’s causes', async () => {
    const reply = await createDeployment('env-sources', {
      containers: [
        {
          name: 'main',
          image: 'example.com/app:1',
          env: [
            { name: 'A', valueFrom: {} },
            { name: 'B', value: 'x', valueFrom: { configMapKeyRef: { name: 'c', key: 'k' } } },
            {
              name: 'C',
              valueFrom: { configMapKeyRef: { name: 'c', key: 'k' }, secretKeyRef: { name: 's', key: 'k' } },
            },
            { name: 'D', valueFrom: { secretKeyRef: { name: 'Not_A_Name', key: 'bad key' } } },
            { name: 'E', valueFrom: { configMapKeyRef: { name: 'c', key: '' } } },
            { name: 'F', valueFrom: { fieldRef: { fieldPath: 'status.phase' } } },
            { name: 'G', valueFrom: { fieldRef: { fieldPath: 'spec.nothing' } } },
            { name: 'H', valueFrom: { fieldRef: { apiVersion: 'v2', fieldPath: 'metadata.name' } } },
            { name: 'I', valueFrom: { fieldRef: { fieldPath: "metadata.labels['app']" } } },
          ],
        },
      ],
    });
    expect(reply.status).toBe(422);
    const env = `${CONTAINER}.env`;
    expect(sortedCauses(reply.json)).toEqual(
      [
        {
          reason: 'FieldValueInvalid',
          field: `${env}[0].valueFrom`,
          message:
            'Invalid value: "": must specify one of: `fieldRef`, `resourceFieldRef`, `configMapKeyRef` or `secretKeyRef`',
        },
        {
          reason: 'FieldValueInvalid',
          field: `${env}[1].valueFrom`,
          message: 'Invalid value: "": may not be specified when `value` is not empty',
        },
        {
          reason: 'FieldValueInvalid',
          field: `${env}[2].valueFrom`,
          message: 'Invalid value: "": may not have more than one field specified at a time',
        },
        {
          reason: 'FieldValueInvalid',
          field: `${env}[3].valueFrom.secretKeyRef.name`,
          message: `Invalid value: "Not_A_Name": ${SUBDOMAIN}`,
        },
        {
          reason: 'FieldValueInvalid',
          field: `${env}[3].valueFrom.secretKeyRef.key`,
          message: `Invalid value: "bad key": ${CONFIG_KEY}`,
        },
        {
          reason: 'FieldValueRequired',
          field: `${env}[4].valueFrom.configMapKeyRef.key`,
          message: 'Required value',
        },
        {
          reason: 'FieldValueNotSupported',
          field: `${env}[5].valueFrom.fieldRef.fieldPath`,
          message:
            'Unsupported value: "status.phase": supported values: "metadata.name", "metadata.namespace", "metadata.uid", "spec.nodeName", "spec.serviceAccountName", "status.hostIP", "status.hostIPs", "status.podIP", "status.podIPs"',
        },
        {
          reason: 'FieldValueInvalid',
          field: `${env}[6].valueFrom.fieldRef.fieldPath`,
          message:
            'Invalid value: "spec.nothing": error converting fieldPath: field label not supported: spec.nothing',
        },
        {
          reason: 'FieldValueInvalid',
          field: `${env}[7].valueFrom.fieldRef.fieldPath`,
          message: 'Invalid value: "metadata.name": error converting fieldPath: unsupported pod version: v2',
        },
      ].sort((a, b) => `${a.field} ${a.message}`.localeCompare(`${b.field} ${b.message}`)),
    );
  });

  it('is merged by a strategic merge patch in kube-apiserver’s order: new env entries before the others', async () => {
    await createDeployment('ordered', {
      containers: [
        {
          name: 'main',
          image: 'example.com/app:1',
          env: [
            { name: 'KEPT', value: 'a' },
            { name: 'CHANGED', value: 'b' },
          ],
        },
      ],
    });
    const reply = await rawRequest(
      target,
      'PATCH',
      `/apis/apps/v1/namespaces/${namespace}/deployments/ordered`,
      {
        contentType: 'application/strategic-merge-patch+json',
        text: JSON.stringify({
          spec: {
            template: {
              spec: {
                containers: [
                  {
                    name: 'main',
                    env: [
                      { name: 'CHANGED', value: 'c' },
                      { name: 'ADDED', value: 'd' },
                    ],
                  },
                ],
              },
            },
          },
        }),
      },
    );
    const containers = (reply.json as { spec: { template: { spec: { containers: { env: unknown }[] } } } })
      .spec.template.spec.containers;
    expect(containers[0]?.env).toEqual([
      { name: 'KEPT', value: 'a' },
      { name: 'CHANGED', value: 'c' },
      { name: 'ADDED', value: 'd' },
    ]);
    const added = await rawRequest(
      target,
      'PATCH',
      `/apis/apps/v1/namespaces/${namespace}/deployments/ordered`,
      {
        contentType: 'application/strategic-merge-patch+json',
        text: JSON.stringify({
          spec: {
            template: { spec: { containers: [{ name: 'main', env: [{ name: 'FIRST', value: 'e' }] }] } },
          },
        }),
      },
    );
    const env = (
      added.json as { spec: { template: { spec: { containers: { env: { name: string }[] }[] } } } }
    ).spec.template.spec.containers[0]?.env;
    expect(env?.map((variable) => variable.name)).toEqual(['FIRST', 'KEPT', 'CHANGED', 'ADDED']);
  });
});
