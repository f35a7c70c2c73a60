/**
 * After a start the registrations can be listed before the CRDs: a reconcile then must not report a
 * CRD it has not seen yet as missing (CRDERROR for a moment, a new lastTransitionTime on every restart).
 */
import { describe, expect, it } from 'vitest';
import type { CRDRegistration } from '@scoby/registration';
import { CRD_CACHE_SYNC_POLL_MS, RegistrationReconciler } from '../../src/registration/reconcile.ts';
import type { RegistrationWorld } from '../../src/registration/registration-world.ts';

const untouchable = new Proxy(
  {},
  {
    get: (_, property) => {
      throw new Error(`the reconcile used ${String(property)} before the CRD cache synced`);
    },
  },
);

describe('a registration reconciled before the CRD cache synced', () => {
  it('writes nothing, starts nothing, and is tried again shortly', async () => {
    const world = new Proxy({ crdsSynced: () => false } as Partial<RegistrationWorld>, {
      get: (target, property) =>
        property in target ? target[property as keyof RegistrationWorld] : Reflect.get(untouchable, property),
    }) as RegistrationWorld;
    const registration = {
      apiVersion: 'scoby.triggermesh.io/v1alpha1',
      kind: 'CRDRegistration',
      metadata: { name: 'kuard', resourceVersion: '7', finalizers: ['scoby.triggermesh.io/finalizer'] },
      spec: { crd: 'kuards.extensions.triggermesh.io', workload: { fromImage: { repo: 'r/kuard:1' } } },
    } as unknown as CRDRegistration;
    expect(await new RegistrationReconciler(world).reconcile(registration, 'kuard')).toEqual({
      requeueAfterMs: CRD_CACHE_SYNC_POLL_MS,
    });
  });
});
