import {
  AppsV1Api,
  CoreV1Api,
  PatchStrategy,
  setHeaderOptions,
  type V1ConfigMap,
  type V1OwnerReference,
} from '@kubernetes/client-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  connect,
  CONTROLLER_PATIENCE_MS,
  eventually,
  failure,
  freshNamespace,
  whenNotFound,
  type Target,
} from './harness.ts';

let target: Target;
let core: CoreV1Api;
let namespace: string;
const merge = setHeaderOptions('Content-Type', PatchStrategy.MergePatch);

beforeAll(async () => {
  target = await connect();
  core = target.kubeConfig.makeApiClient(CoreV1Api);
  namespace = await freshNamespace(target);
});
afterAll(() => target.stop());

async function exists(name: string, inNamespace = namespace): Promise<boolean> {
  try {
    await core.readNamespacedConfigMap({ name, namespace: inNamespace });
    return true;
  } catch {
    return false;
  }
}

async function gone(name: string, inNamespace = namespace): Promise<true> {
  return eventually(
    () => whenNotFound(() => core.readNamespacedConfigMap({ name, namespace: inNamespace })),
    CONTROLLER_PATIENCE_MS,
  );
}

function ownedBy(owner: V1ConfigMap, blockOwnerDeletion = false): V1OwnerReference[] {
  return [
    {
      apiVersion: 'v1',
      kind: 'ConfigMap',
      name: owner.metadata?.name ?? '',
      uid: owner.metadata?.uid ?? '',
      blockOwnerDeletion,
    },
  ];
}

describe('finalizers', () => {
  it('hold a deleted object with a deletionTimestamp until the last one is removed', async () => {
    await core.createNamespacedConfigMap({
      namespace,
      body: { metadata: { name: 'held', finalizers: ['example.com/hold'] } },
    });
    await core.deleteNamespacedConfigMap({ name: 'held', namespace });
    const held = await core.readNamespacedConfigMap({ name: 'held', namespace });
    expect(held.metadata?.deletionTimestamp).toBeDefined();
    expect(held.metadata?.finalizers).toEqual(['example.com/hold']);
    await core.patchNamespacedConfigMap(
      { name: 'held', namespace, body: { metadata: { finalizers: null } } },
      merge,
    );
    expect(await exists('held')).toBe(false);
  });

  it('cannot be added to an object being deleted', async () => {
    await core.createNamespacedConfigMap({
      namespace,
      body: { metadata: { name: 'no-new', finalizers: ['example.com/a'] } },
    });
    await core.deleteNamespacedConfigMap({ name: 'no-new', namespace });
    const status = await failure(
      core.patchNamespacedConfigMap(
        { name: 'no-new', namespace, body: { metadata: { finalizers: ['example.com/a', 'example.com/b'] } } },
        merge,
      ),
    );
    expect(status).toMatchObject({
      code: 422,
      reason: 'Invalid',
      message:
        'ConfigMap "no-new" is invalid: metadata.finalizers: Forbidden: no new finalizers can be added if the object is being deleted, found new finalizers []string{"example.com/b"}',
    });
  });
});

describe('garbage collection', () => {
  it('deletes dependents in the background once the owner is gone', async () => {
    const owner = await core.createNamespacedConfigMap({
      namespace,
      body: { metadata: { name: 'bg-owner' } },
    });
    await core.createNamespacedConfigMap({
      namespace,
      body: { metadata: { name: 'bg-dependent', ownerReferences: ownedBy(owner) } },
    });
    await core.deleteNamespacedConfigMap({ name: 'bg-owner', namespace, propagationPolicy: 'Background' });
    expect(await gone('bg-dependent')).toBe(true);
  });

  it('keeps dependents that still have another owner, dropping the dangling reference', async () => {
    const first = await core.createNamespacedConfigMap({
      namespace,
      body: { metadata: { name: 'first-owner' } },
    });
    const second = await core.createNamespacedConfigMap({
      namespace,
      body: { metadata: { name: 'second-owner' } },
    });
    await core.createNamespacedConfigMap({
      namespace,
      body: { metadata: { name: 'shared', ownerReferences: [...ownedBy(first), ...ownedBy(second)] } },
    });
    await core.deleteNamespacedConfigMap({ name: 'first-owner', namespace });
    const shared = await eventually(async () => {
      const current = await core.readNamespacedConfigMap({ name: 'shared', namespace });
      return current.metadata?.ownerReferences?.length === 1 ? current : undefined;
    }, CONTROLLER_PATIENCE_MS);
    expect(shared.metadata?.ownerReferences?.map((reference) => reference.name)).toEqual(['second-owner']);
  });

  it('orphans dependents with propagationPolicy Orphan', async () => {
    const owner = await core.createNamespacedConfigMap({
      namespace,
      body: { metadata: { name: 'orphan-owner' } },
    });
    await core.createNamespacedConfigMap({
      namespace,
      body: { metadata: { name: 'orphan', ownerReferences: ownedBy(owner) } },
    });
    await core.deleteNamespacedConfigMap({ name: 'orphan-owner', namespace, propagationPolicy: 'Orphan' });
    await gone('orphan-owner');
    const orphan = await core.readNamespacedConfigMap({ name: 'orphan', namespace });
    expect(orphan.metadata?.ownerReferences).toBeUndefined();
  });

  it('keeps a Foreground-deleted owner with the foregroundDeletion finalizer until blocking dependents are gone', async () => {
    const owner = await core.createNamespacedConfigMap({
      namespace,
      body: { metadata: { name: 'fg-owner' } },
    });
    await core.createNamespacedConfigMap({
      namespace,
      body: {
        metadata: {
          name: 'fg-blocker',
          finalizers: ['example.com/slow'],
          ownerReferences: ownedBy(owner, true),
        },
      },
    });
    await core.deleteNamespacedConfigMap({ name: 'fg-owner', namespace, propagationPolicy: 'Foreground' });
    const deleting = await core.readNamespacedConfigMap({ name: 'fg-owner', namespace });
    expect(deleting.metadata?.finalizers).toEqual(['foregroundDeletion']);
    expect(deleting.metadata?.deletionTimestamp).toBeDefined();
    const blocker = await eventually(async () => {
      const current = await core.readNamespacedConfigMap({ name: 'fg-blocker', namespace });
      return current.metadata?.deletionTimestamp ? current : undefined;
    }, CONTROLLER_PATIENCE_MS);
    expect(blocker.metadata?.finalizers).toEqual(['example.com/slow']);
    expect(await exists('fg-owner')).toBe(true);
    await core.patchNamespacedConfigMap(
      { name: 'fg-blocker', namespace, body: { metadata: { finalizers: null } } },
      merge,
    );
    expect(await gone('fg-blocker')).toBe(true);
    expect(await gone('fg-owner')).toBe(true);
  });

  it('collects children of a deleted Deployment owner across types', async () => {
    const apps = target.kubeConfig.makeApiClient(AppsV1Api);
    const deployment = await apps.createNamespacedDeployment({
      namespace,
      body: {
        metadata: { name: 'owner-deploy' },
        spec: {
          selector: { matchLabels: { app: 'x' } },
          template: {
            metadata: { labels: { app: 'x' } },
            spec: { containers: [{ name: 'c', image: 'nginx' }] },
          },
        },
      },
    });
    await core.createNamespacedConfigMap({
      namespace,
      body: {
        metadata: {
          name: 'deploy-child',
          ownerReferences: [
            {
              apiVersion: 'apps/v1',
              kind: 'Deployment',
              name: 'owner-deploy',
              uid: deployment.metadata?.uid ?? '',
            },
          ],
        },
      },
    });
    await apps.deleteNamespacedDeployment({ name: 'owner-deploy', namespace });
    expect(await gone('deploy-child')).toBe(true);
  });
});

describe('namespace deletion', () => {
  it('terminates the namespace, removes its objects, then the namespace', async () => {
    const doomed = await freshNamespace(target, 'doomed');
    await core.createNamespacedConfigMap({
      namespace: doomed,
      body: { metadata: { name: 'inside', finalizers: ['example.com/hold'] } },
    });
    const deleted = (await core.deleteNamespace({ name: doomed })) as unknown as {
      status?: { phase?: string };
    };
    expect(deleted.status?.phase).toBe('Terminating');
    const status = await failure(
      core.createNamespacedConfigMap({ namespace: doomed, body: { metadata: { name: 'late' } } }),
    );
    expect(status).toMatchObject({
      code: 403,
      reason: 'Forbidden',
      message: `configmaps "late" is forbidden: unable to create new content in namespace ${doomed} because it is being terminated`,
    });
    await eventually(
      async () =>
        (await core.readNamespacedConfigMap({ name: 'inside', namespace: doomed })).metadata
          ?.deletionTimestamp
          ? true
          : undefined,
      CONTROLLER_PATIENCE_MS,
    );
    expect((await core.readNamespace({ name: doomed })).status?.phase).toBe('Terminating');
    await core.patchNamespacedConfigMap(
      { name: 'inside', namespace: doomed, body: { metadata: { finalizers: null } } },
      merge,
    );
    await eventually(() => whenNotFound(() => core.readNamespace({ name: doomed })), CONTROLLER_PATIENCE_MS);
  });
});
