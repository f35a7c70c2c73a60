/**
 * The garbage collector decides whether an owner reference is dangling as kube-controller-manager does:
 * by the owner's apiVersion, kind, name and namespace, and its uid. A uid alone is not enough.
 */
import { CoreV1Api, type V1ConfigMap, type V1OwnerReference } from '@kubernetes/client-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  connect,
  CONTROLLER_PATIENCE_MS,
  eventually,
  freshNamespace,
  uniqueName,
  whenNotFound,
  type Target,
} from './harness.ts';

let target: Target;
let core: CoreV1Api;
let namespace: string;
let owner: V1ConfigMap;

beforeAll(async () => {
  target = await connect();
  core = target.kubeConfig.makeApiClient(CoreV1Api);
  namespace = await freshNamespace(target, 'gc');
  owner = await core.createNamespacedConfigMap({ namespace, body: { metadata: { name: 'owner' } } });
});
afterAll(() => target.stop());

function reference(overrides: Partial<V1OwnerReference> = {}): V1OwnerReference {
  return {
    apiVersion: 'v1',
    kind: 'ConfigMap',
    name: owner.metadata?.name ?? '',
    uid: owner.metadata?.uid ?? '',
    ...overrides,
  };
}

async function dependent(ownerReferences: V1OwnerReference[]): Promise<string> {
  const name = uniqueName('dependent');
  await core.createNamespacedConfigMap({ namespace, body: { metadata: { name, ownerReferences } } });
  return name;
}

function read(name: string) {
  return core.readNamespacedConfigMap({ name, namespace });
}

describe('garbage collection of dangling owner references', () => {
  it('deletes a dependent whose owner has its uid but another name, or another kind', async () => {
    const solid = await dependent([reference()]);
    const otherName = await dependent([reference({ name: 'not-the-owner' })]);
    const otherKind = await dependent([reference({ kind: 'Secret', apiVersion: 'v1' })]);
    await eventually(() => whenNotFound(() => read(otherName)), CONTROLLER_PATIENCE_MS);
    await eventually(() => whenNotFound(() => read(otherKind)), CONTROLLER_PATIENCE_MS);
    // The collector worked off the others meanwhile; the dependent of a live owner stays.
    expect((await read(solid)).metadata?.ownerReferences).toEqual([reference()]);
  });

  it('keeps a dependent whose owner is of a kind the server does not serve (it cannot be looked up)', async () => {
    const absent = { name: 'x', uid: '00000000-0000-0000-0000-000000000002' };
    const unknownKind = await dependent([{ apiVersion: 'example.com/v1', kind: 'Nope', ...absent }]);
    const knownKind = await dependent([{ apiVersion: 'v1', kind: 'Secret', ...absent }]);
    await eventually(() => whenNotFound(() => read(knownKind)), CONTROLLER_PATIENCE_MS);
    expect((await read(unknownKind)).metadata?.name).toBe(unknownKind);
  });

  it('drops only the dangling reference of a dependent that still has a live owner', async () => {
    const gone = reference({ name: 'gone', uid: '00000000-0000-0000-0000-000000000001' });
    const name = await dependent([reference(), gone]);
    const kept = await eventually(async () => {
      const current = await read(name);
      return (current.metadata?.ownerReferences ?? []).length === 1 ? current : undefined;
    }, CONTROLLER_PATIENCE_MS);
    expect(kept.metadata?.ownerReferences).toEqual([reference()]);
  });

  it('deletes an object updated to name only a missing owner, as it deletes one created so', async () => {
    const name = await dependent([]);
    const gone = reference({ name: 'gone', uid: '00000000-0000-0000-0000-000000000003' });
    await core.patchNamespacedConfigMap({
      name,
      namespace,
      body: [{ op: 'add', path: '/metadata/ownerReferences', value: [gone] }],
    });
    await eventually(() => whenNotFound(() => read(name)), CONTROLLER_PATIENCE_MS);
  });
});
