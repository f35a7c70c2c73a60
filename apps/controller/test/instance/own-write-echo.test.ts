/**
 * The watch event of an instance write is an echo, and triggers no reconcile, only when the write
 * changed nothing but what it wrote (docs/spec/children-and-status.md §9, "Not a trigger"). A status
 * patch has no precondition: answered with a generation the reconcile never read (an edit made while
 * it ran), its event must reconcile, for after a watch that failed the informer lists afresh and
 * that event is the only one of the edit. (Found by the fault bench's `mixed` on the real control
 * plane: an edit never reconciled, and a deleted instance's finalizer never released.)
 */
import { describe, expect, it } from 'vitest';
import type { KubeObject } from '@scoby/kube-objects';
import { FINALIZER } from '@scoby/registration';
import type { DynamicClient } from '@scoby/controller-runtime';
import { InstanceMemory } from '../../src/instance/instance-memory.ts';
import { InstanceWrites } from '../../src/instance/instance-writes.ts';
import { OwnWrites } from '../../src/instance/own-writes.ts';
import type { InstanceConfig } from '../../src/instance/instance-config.ts';
import type { InstanceTarget } from '../../src/instance/plan/instance-target.ts';
import { startRun } from '../../src/instance/reconcile-run.ts';
import { instanceKey, reconcileContext } from './reconcile-context.ts';

const read: KubeObject = {
  apiVersion: 'example.com/v1',
  kind: 'Kuard',
  metadata: {
    name: 'one',
    namespace: 'apps',
    uid: 'u-1',
    resourceVersion: '40',
    generation: 1,
    labels: { tier: 'web' },
    finalizers: [FINALIZER, 'example.com/other'],
  },
  spec: { replicas: 1 },
};

const config = {
  registrationName: 'kuard',
  revision: 'r1',
  instanceResource: { group: 'example.com', version: 'v1', resource: 'kuards', namespaced: true },
  writeVerbs: { status: 'patch', finalizers: 'patch' },
} as unknown as InstanceConfig;

/** Instance writes whose client answers every patch with `stored`, as kube-apiserver answers with what it stored. */
function writesAnswering(stored: (patched: KubeObject) => KubeObject) {
  const ownWrites = new OwnWrites();
  const client = {
    patch: async () => stored({ ...read, metadata: { ...read.metadata, resourceVersion: '42' } }),
  } as unknown as DynamicClient;
  const writes = new InstanceWrites(client, new InstanceMemory(client, () => 0), ownWrites);
  const run = startRun(
    instanceKey('example.com', 'Kuard', 'apps', 'one'),
    reconcileContext(),
    config,
    {} as InstanceTarget,
  );
  return { ownWrites, writes, run };
}

const STATUS = { observedGeneration: 1, conditions: [] };
const edits: Record<string, (object: KubeObject) => KubeObject> = {
  'a spec edit (generation 2)': (object) => ({
    ...object,
    metadata: { ...object.metadata, generation: 2 },
    spec: { replicas: 3 },
  }),
  'a label edit': (object) => ({ ...object, metadata: { ...object.metadata, labels: { tier: 'api' } } }),
  'an annotation edit': (object) => ({
    ...object,
    metadata: { ...object.metadata, annotations: { note: 'x' } },
  }),
  'its deletion': (object) => ({
    ...object,
    metadata: { ...object.metadata, generation: 2, deletionTimestamp: '2026-11-30T00:34:05Z' },
  }),
};

describe("an instance write's watch event", () => {
  it('is an echo when the answer shows nothing but the written status', async () => {
    const { ownWrites, writes, run } = writesAnswering((stored) => ({ ...stored, status: STATUS }));
    await writes.writeStatus(run, read, STATUS);
    const answer = { ...read, metadata: { ...read.metadata, resourceVersion: '42' }, status: STATUS };
    expect(ownWrites.isEcho(answer)).toBe(true);
  });

  for (const [edit, apply] of Object.entries(edits)) {
    it(`triggers a reconcile when the status patch landed on ${edit} the reconcile never read`, async () => {
      const { ownWrites, writes, run } = writesAnswering((stored) => ({ ...apply(stored), status: STATUS }));
      await writes.writeStatus(run, read, STATUS);
      const answer = { ...apply(read), metadata: { ...apply(read).metadata, resourceVersion: '42' } };
      expect(ownWrites.isEcho({ ...answer, status: STATUS })).toBe(false);
    });
  }

  it("is an echo of a finalizer write that changed only the finalizers, and not of one answered with another's edit", async () => {
    const withoutOurs = (object: KubeObject) => ({
      ...object,
      metadata: { ...object.metadata, finalizers: ['example.com/other'] },
    });
    const plain = writesAnswering(withoutOurs);
    const written = await plain.writes.setFinalizer(plain.run, read, false);
    expect(plain.ownWrites.isEcho(written!)).toBe(true);

    const edited = writesAnswering((stored) => withoutOurs(edits['a label edit']!(stored)));
    const answer = await edited.writes.setFinalizer(edited.run, read, false);
    expect(answer?.metadata.labels).toEqual({ tier: 'api' });
    expect(edited.ownWrites.isEcho(answer!)).toBe(false);
  });
});
