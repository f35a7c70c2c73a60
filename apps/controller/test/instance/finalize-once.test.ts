/**
 * The finalize hook is called once per deletion (docs/spec/hooks-v1.md §7): a child event can requeue
 * the instance after its finalizer was removed but before the watch brings the removal, and that
 * reconcile sees the cached copy still holding the finalizer. It must not call the hook again.
 * (Found on the real control plane: Go Scoby's migrated instance got two finalize calls.)
 */
import { describe, expect, it } from 'vitest';
import type { HookCall } from '@scoby/hooks-v1';
import type { KubeObject } from '@scoby/kube-objects';
import type { FormFactorPlugin } from '@scoby/formfactor';
import { FINALIZER } from '@scoby/registration';
import { ApiError } from '@scoby/controller-runtime';
import { InstanceReconciler } from '../../src/instance/reconcile.ts';
import type { InstanceConfig } from '../../src/instance/instance-config.ts';
import type { ChildStore } from '../../src/instance/children/write-children.ts';
import { deletionDependencies, instanceKey, reconcileContext } from './reconcile-context.ts';

const deleting: KubeObject = {
  apiVersion: 'example.com/v1',
  kind: 'Kuard',
  metadata: {
    name: 'one',
    namespace: 'apps',
    uid: 'u-1',
    resourceVersion: '40',
    deletionTimestamp: '2026-11-26T07:00:00Z',
    finalizers: [FINALIZER, 'example.com/other'],
  },
  spec: {},
};

const config = {
  registrationName: 'kuard',
  revision: 'r1',
  plugin: { name: 'deployment', managedKinds: [] } as unknown as FormFactorPlugin,
  crd: { group: 'example.com', version: 'v1' },
  spec: { hook: { capabilities: ['finalize'] } },
  instanceResource: { group: 'example.com', version: 'v1', resource: 'kuards', namespaced: true },
  hook: { url: 'http://127.0.0.1:1/v1', timeoutMs: 1000 },
  writeVerbs: { status: 'patch', finalizers: 'patch' },
} as unknown as InstanceConfig;

interface World {
  reconciler: InstanceReconciler;
  finalizeCalls: HookCall[];
  patches: unknown[];
}

/** A reconciler whose client records finalizer patches and answers them as kube-apiserver does. */
function world(answerPatch: (body: unknown) => KubeObject | undefined): World {
  const finalizeCalls: HookCall[] = [];
  const patches: unknown[] = [];
  const deps = deletionDependencies(
    async (body) => {
      patches.push(body);
      const answer = answerPatch(body);
      if (answer === undefined) throw new ApiError(404, 'NotFound', 'kuards.example.com "one" not found');
      return answer;
    },
    async (call) => {
      finalizeCalls.push(call);
      return { ok: true };
    },
    new Date('2026-11-26T07:00:01Z'),
  );
  return { reconciler: new InstanceReconciler(deps, config, noChildren), finalizeCalls, patches };
}

const noChildren = {} as ChildStore;
const KEY = instanceKey('example.com', 'Kuard', 'apps', 'one');
const CONTEXT = reconcileContext();

describe('the finalize hook of a deleted instance', () => {
  it('is called once when a stale cached copy is reconciled after the finalizer was removed', async () => {
    const { reconciler, finalizeCalls, patches } = world(() => ({
      ...deleting,
      metadata: { ...deleting.metadata, resourceVersion: '41', finalizers: ['example.com/other'] },
    }));
    expect(await reconciler.reconcile(KEY, deleting, CONTEXT)).toBeUndefined();
    expect(patches).toHaveLength(1);
    expect(await reconciler.reconcile(KEY, deleting, CONTEXT)).toBeUndefined();
    expect(finalizeCalls.map((call) => [call.phase, call.object.metadata.name])).toEqual([
      ['finalize', 'one'],
    ]);
    expect(patches).toEqual([{ metadata: { finalizers: ['example.com/other'], resourceVersion: '40' } }]);
  });

  it('is called once when the instance was already gone when its finalizer was removed', async () => {
    const { reconciler, finalizeCalls, patches } = world(() => undefined);
    await reconciler.reconcile(KEY, deleting, CONTEXT);
    await reconciler.reconcile(KEY, deleting, CONTEXT);
    expect(finalizeCalls).toHaveLength(1);
    expect(patches).toHaveLength(1);
  });

  it('is called once when removing the last finalizer answers the version read (the object went with it)', async () => {
    // kube-apiserver answers the write that deletes the object with the object as it was stored.
    const last = { ...deleting, metadata: { ...deleting.metadata, finalizers: [FINALIZER] } };
    const { reconciler, finalizeCalls, patches } = world(() => ({
      ...last,
      metadata: { ...last.metadata, finalizers: [] },
    }));
    await reconciler.reconcile(KEY, last, CONTEXT);
    await reconciler.reconcile(KEY, last, CONTEXT);
    expect(finalizeCalls).toHaveLength(1);
    expect(patches).toEqual([{ metadata: { finalizers: [], resourceVersion: '40' } }]);
  });

  it('is called again for a newer version of the instance (the cache moved on)', async () => {
    const { reconciler, finalizeCalls } = world(() => ({
      ...deleting,
      metadata: { ...deleting.metadata, resourceVersion: '41', finalizers: ['example.com/other'] },
    }));
    await reconciler.reconcile(KEY, deleting, CONTEXT);
    const readded = { ...deleting, metadata: { ...deleting.metadata, resourceVersion: '42' } };
    await reconciler.reconcile(KEY, readded, CONTEXT);
    expect(finalizeCalls).toHaveLength(2);
  });
});
