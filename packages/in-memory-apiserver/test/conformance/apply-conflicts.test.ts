/**
 * Server-side apply conflicts: a manager applying a field another manager applied with a different
 * value gets 409 Conflict naming each field and its manager, unless it forces the apply, which takes
 * the fields from that manager. Applying the same value is no conflict.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connect, freshNamespace, rawRequest, uniqueName, type Target } from './harness.ts';

let target: Target;
let namespace: string;

beforeAll(async () => {
  target = await connect();
  namespace = await freshNamespace(target, 'conflicts');
});
afterAll(() => target.stop());

interface Applied {
  status: number;
  json: unknown;
}

/**
 * kube-apiserver lists a 409's causes in no fixed order (its message is sorted by manager), so they are
 * compared sorted by field.
 */
async function apply(resource: string, body: unknown, manager: string, force = false): Promise<Applied> {
  const name = (body as { metadata: { name: string } }).metadata.name;
  const applied = await rawRequest(
    target,
    'PATCH',
    `/api/v1/namespaces/${namespace}/${resource}/${name}?fieldManager=${manager}${force ? '&force=true' : ''}`,
    { contentType: 'application/apply-patch+yaml', text: JSON.stringify(body) },
  );
  const causes = (applied.json as { details?: { causes?: { field: string }[] } }).details?.causes;
  causes?.sort((left, right) => left.field.localeCompare(right.field));
  return applied;
}

const configMap = (name: string, data: Record<string, string>) => ({
  apiVersion: 'v1',
  kind: 'ConfigMap',
  metadata: { name },
  data,
});

/** Managers as kube-apiserver prints them: `"name"`, `"name" using v1`. */
function conflictStatus(message: string, causes: { manager: string; field: string }[]): unknown {
  return {
    kind: 'Status',
    apiVersion: 'v1',
    metadata: {},
    status: 'Failure',
    message,
    reason: 'Conflict',
    details: {
      causes: causes.map(({ manager, field }) => ({
        reason: 'FieldManagerConflict',
        message: `conflict with ${manager}`,
        field,
      })),
    },
    code: 409,
  };
}

const dataOf = (applied: Applied) => (applied.json as { data?: unknown }).data;

describe('server-side apply conflicts', () => {
  it('refuses a field another manager applied with a different value, with kube-apiserver’s Status', async () => {
    const name = uniqueName('conflict');
    expect((await apply('configmaps', configMap(name, { key: 'one' }), 'first')).status).toBe(201);
    const conflicting = await apply('configmaps', configMap(name, { key: 'two' }), 'second');
    expect(conflicting).toEqual({
      status: 409,
      json: conflictStatus('Apply failed with 1 conflict: conflict with "first": .data.key', [
        { manager: '"first"', field: '.data.key' },
      ]),
    });
  });

  it('lists several conflicts by manager', async () => {
    const name = uniqueName('conflicts');
    expect((await apply('configmaps', configMap(name, { a: '1', b: '1' }), 'one')).status).toBe(201);
    expect((await apply('configmaps', configMap(name, { c: '1' }), 'two')).status).toBe(200);
    const conflicting = await apply('configmaps', configMap(name, { a: '2', b: '2', c: '2' }), 'three');
    expect(conflicting).toEqual({
      status: 409,
      json: conflictStatus(
        'Apply failed with 3 conflicts: conflicts with "one":\n- .data.a\n- .data.b\nconflicts with "two":\n- .data.c',
        [
          { manager: '"one"', field: '.data.a' },
          { manager: '"one"', field: '.data.b' },
          { manager: '"two"', field: '.data.c' },
        ],
      ),
    });
  });

  it('shares a field applied with the same value', async () => {
    const name = uniqueName('shared');
    expect((await apply('configmaps', configMap(name, { key: 'same' }), 'first')).status).toBe(201);
    const shared = await apply('configmaps', configMap(name, { key: 'same', more: 'x' }), 'second');
    expect(shared.status).toBe(200);
    expect(dataOf(shared)).toEqual({ key: 'same', more: 'x' });
  });

  it('forced, takes the field: the former manager now conflicts and no longer removes it', async () => {
    const name = uniqueName('forced');
    expect((await apply('configmaps', configMap(name, { key: 'one', own: 'x' }), 'first')).status).toBe(201);
    const forced = await apply('configmaps', configMap(name, { key: 'two' }), 'second', true);
    expect(forced.status).toBe(200);
    expect(dataOf(forced)).toEqual({ key: 'two', own: 'x' });
    expect(await apply('configmaps', configMap(name, { key: 'one', own: 'x' }), 'first')).toEqual({
      status: 409,
      json: conflictStatus('Apply failed with 1 conflict: conflict with "second": .data.key', [
        { manager: '"second"', field: '.data.key' },
      ]),
    });
    const withdrawn = await apply('configmaps', configMap(name, { own: 'x' }), 'first');
    expect(withdrawn.status).toBe(200);
    expect(dataOf(withdrawn)).toEqual({ key: 'two', own: 'x' });
  });

  it('conflicts with the fields a patch changed, its manager named with its API version', async () => {
    const name = uniqueName('patched');
    expect((await apply('configmaps', configMap(name, { a: '1', b: '1' }), 'alpha')).status).toBe(201);
    const edited = await rawRequest(
      target,
      'PATCH',
      `/api/v1/namespaces/${namespace}/configmaps/${name}?fieldManager=editor`,
      { contentType: 'application/merge-patch+json', text: JSON.stringify({ data: { a: '3' } }) },
    );
    expect(edited.status).toBe(200);
    expect(await apply('configmaps', configMap(name, { a: '1', b: '1' }), 'alpha')).toEqual({
      status: 409,
      json: conflictStatus('Apply failed with 1 conflict: conflict with "editor" using v1: .data.a', [
        { manager: '"editor" using v1', field: '.data.a' },
      ]),
    });
    const forced = await apply('configmaps', configMap(name, { a: '1', b: '1' }), 'alpha', true);
    expect(dataOf(forced)).toEqual({ a: '1', b: '1' });
    expect((await apply('configmaps', configMap(name, { a: '4' }), 'third')).status).toBe(409);
  });

  it('names a keyed list item by its keys', async () => {
    const name = uniqueName('ports');
    const service = (targetPort: number) => ({
      apiVersion: 'v1',
      kind: 'Service',
      metadata: { name },
      spec: { ports: [{ name: 'dns', port: 53, protocol: 'UDP', targetPort }] },
    });
    expect((await apply('services', service(53), 'first')).status).toBe(201);
    expect(await apply('services', service(5353), 'second')).toEqual({
      status: 409,
      json: conflictStatus(
        'Apply failed with 1 conflict: conflict with "first": .spec.ports[port=53,protocol="UDP"].targetPort',
        [{ manager: '"first"', field: '.spec.ports[port=53,protocol="UDP"].targetPort' }],
      ),
    });
  });
});
