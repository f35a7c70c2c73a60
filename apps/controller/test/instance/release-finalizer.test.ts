/**
 * Releasing Scoby's finalizer without a successful finalize call (docs/spec/hooks-v1.md §7 case 3,
 * docs/spec/registration.md §6.6–§6.7): one function for the instance reconcile and the release of a
 * deleted registration's instances.
 */
import { describe, expect, it } from 'vitest';
import type { HookCall } from '@scoby/hooks-v1/client';
import type { KubeObject } from '@scoby/kube-objects';
import { FINALIZER } from '@scoby/registration';
import { releaseFinalizer } from '../../src/instance/release-finalizer.ts';

const DESTINATION = {
  url: 'http://hook.example/v1',
  timeoutMs: 1000,
  formFactor: 'deployment',
  managedKinds: [{ apiVersion: 'apps/v1', kind: 'Deployment' }],
};

const instance = (deleted: boolean): KubeObject => ({
  apiVersion: 'example.com/v1',
  kind: 'Mailer',
  metadata: {
    name: 'orders',
    namespace: 'shop',
    finalizers: [FINALIZER],
    managedFields: [{ manager: 'kubectl' }],
    ...(deleted ? { deletionTimestamp: '2026-11-26T07:00:00Z' } : {}),
  },
  spec: {},
});

function release(removed: (object: KubeObject) => KubeObject | undefined) {
  const calls: HookCall[] = [];
  const events: string[][] = [];
  return {
    calls,
    events,
    io: {
      destination: DESTINATION,
      callHook: async (call: HookCall) => calls.push(call),
      removeFinalizer: async (object: KubeObject) => removed(object),
      events: { emit: (_object: KubeObject, ...event: string[]) => events.push(event) },
    },
  };
}

const released = (object: KubeObject): KubeObject => ({
  ...object,
  metadata: { ...object.metadata, finalizers: [] },
});

describe('releasing the finalizer', () => {
  it('of a deleted instance makes one best-effort finalize call, as the reconcile builds it', async () => {
    const { calls, events, io } = release(released);
    const deleted = instance(true);
    await releaseFinalizer(deleted, io);
    const { managedFields: _managedFields, ...metadata } = deleted.metadata;
    expect(calls).toEqual([
      {
        url: DESTINATION.url,
        timeoutMs: 1000,
        phase: 'finalize',
        formFactor: 'deployment',
        object: { ...deleted, metadata },
        managedKinds: DESTINATION.managedKinds,
        instanceNamespace: 'shop',
      },
    ]);
    expect(events).toEqual([['Normal', 'FinalizerReleased', `removed finalizer ${FINALIZER}`]]);
  });

  it('of a live instance, or without a hook address, calls no hook', async () => {
    const live = release(released);
    await releaseFinalizer(instance(false), live.io);
    const unaddressed = release(released);
    await releaseFinalizer(instance(true), { ...unaddressed.io, destination: undefined });
    expect([live.calls, unaddressed.calls]).toEqual([[], []]);
    expect([live.events.length, unaddressed.events.length]).toEqual([1, 1]);
  });

  it('of an instance already gone sends no Event', async () => {
    const { events, io } = release(() => undefined);
    expect(await releaseFinalizer(instance(true), io)).toBeUndefined();
    expect(events).toEqual([]);
  });
});
