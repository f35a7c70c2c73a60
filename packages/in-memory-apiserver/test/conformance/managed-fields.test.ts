/**
 * Field ownership across create and server-side apply, as clients see it in managedFields: fields a
 * POST set belong to its manager's Update entry, which that manager's applies cannot remove, until a
 * client turns the entry into an Apply entry (client-go's csaupgrade, Scoby's child creation).
 */
import { CoreV1Api } from '@kubernetes/client-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connect, freshNamespace, rawRequest, type Target } from './harness.ts';

let target: Target;
let core: CoreV1Api;
let namespace: string;

beforeAll(async () => {
  target = await connect();
  core = target.kubeConfig.makeApiClient(CoreV1Api);
  namespace = await freshNamespace(target);
});
afterAll(() => target.stop());

const path = (name: string) => `/api/v1/namespaces/${namespace}/configmaps/${name}`;

async function postConfigMap(name: string, data: Record<string, string>): Promise<Record<string, unknown>> {
  const reply = await rawRequest(
    target,
    'POST',
    `/api/v1/namespaces/${namespace}/configmaps?fieldManager=owner`,
    {
      contentType: 'application/json',
      text: JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name }, data }),
    },
  );
  expect(reply.status).toBe(201);
  return reply.json as Record<string, unknown>;
}

async function applyConfigMap(name: string, data: Record<string, string>): Promise<unknown> {
  const reply = await rawRequest(target, 'PATCH', `${path(name)}?fieldManager=owner&force=true`, {
    contentType: 'application/apply-patch+yaml',
    text: JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name }, data }),
  });
  expect(reply.status).toBe(200);
  return (reply.json as { data?: unknown }).data;
}

function entriesOf(object: Record<string, unknown>): { manager: string; operation: string }[] {
  return (object.metadata as { managedFields: { manager: string; operation: string }[] }).managedFields;
}

describe('managedFields of a created object', () => {
  it('names the POST’s fieldManager with an Update entry', async () => {
    const created = await postConfigMap('created', { a: '1' });
    expect(entriesOf(created)).toEqual([
      expect.objectContaining({
        manager: 'owner',
        operation: 'Update',
        apiVersion: 'v1',
        fieldsType: 'FieldsV1',
      }),
    ]);
  });

  it('keeps the fields a POST set when the same manager applies without them', async () => {
    await postConfigMap('kept', { a: '1', b: '2' });
    expect(await applyConfigMap('kept', { a: '1' })).toEqual({ a: '1', b: '2' });
  });

  it('hands them to the manager’s applies once its Update entry became an Apply entry', async () => {
    const created = await postConfigMap('handed', { a: '1', b: '2' });
    const index = entriesOf(created).findIndex((entry) => entry.manager === 'owner');
    const migrated = await rawRequest(target, 'PATCH', path('handed'), {
      contentType: 'application/json-patch+json',
      text: JSON.stringify([
        { op: 'test', path: `/metadata/managedFields/${index}/operation`, value: 'Update' },
        { op: 'replace', path: `/metadata/managedFields/${index}/operation`, value: 'Apply' },
      ]),
    });
    expect(migrated.status).toBe(200);
    expect(entriesOf(migrated.json as Record<string, unknown>)).toEqual([
      expect.objectContaining({ manager: 'owner', operation: 'Apply' }),
    ]);
    expect(await applyConfigMap('handed', { a: '1' })).toEqual({ a: '1' });
    expect((await core.readNamespacedConfigMap({ name: 'handed', namespace })).data).toEqual({ a: '1' });
  });
});
