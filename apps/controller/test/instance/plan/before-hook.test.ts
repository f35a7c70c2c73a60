/**
 * The plan's first stage when the instance cannot be rendered (docs/spec/env.md §9,
 * children-and-status.md §8.12): a spec that must change first parks the instance, and its status
 * says Stalled, which kstatus reads as Failed; a CRD without the status subresource gets no status.
 */
import { describe, expect, it } from 'vitest';
import type { KubeObject } from '@scoby/kube-objects';
import { planBeforeHook } from '../../../src/instance/plan/before-hook.ts';
import type { InstanceTarget } from '../../../src/instance/plan/instance-target.ts';
import { planTarget } from './plan-target.ts';

const NOW = '2026-11-29T16:00:00Z';
const LOOKUPS = {
  controllerNamespace: 'scoby-system',
  controllerConfigMap: () => undefined,
  resolveAddress: async () => ({ ok: false as const, message: 'no addresses here' }),
};

/** A registration whose env reads a Secret the instance names: `features` as its CRD has them. */
function secretReading(features: Partial<InstanceTarget['features']>): InstanceTarget {
  const base = planTarget({
    workload: {
      fromImage: { repo: 'registry.example.com/mailer:1' },
      parameterConfiguration: {
        fromSpec: {
          toEnv: [
            {
              path: 'spec.credentials',
              name: 'DB_PASSWORD',
              valueFrom: {
                secretPath: { name: 'spec.credentials.secretName', key: 'spec.credentials.passwordKey' },
              },
            },
          ],
        },
      },
    },
  });
  return { ...base, features: { ...base.features, ...features } };
}

/** An instance that names no Secret: rendering it fails until its spec changes. */
const MISSING_LEAF: KubeObject = {
  apiVersion: 'example.com/v1',
  kind: 'Mailer',
  metadata: { name: 'orders', namespace: 'shop', uid: 'u-1', generation: 1 },
  spec: { credentials: { passwordKey: 'password' } },
};

describe('the first stage of the plan, when rendering fails', () => {
  it('parks an instance whose spec must change, and writes Stalled beside Ready=False', async () => {
    // A CRD whose status declares conditions (children-and-status.md §7.2).
    const target = secretReading({
      conditionFields: ['type', 'status', 'reason', 'message', 'lastTransitionTime'],
    });
    const before = await planBeforeHook(target, MISSING_LEAF, NOW, LOOKUPS);
    if (before.kind !== 'stop') throw new Error('the render did not fail');
    const status = before.stop.statusAt(NOW) as { conditions: Array<{ type: string; status: string }> };
    expect({
      reason: before.stop.failure.reason,
      next: before.stop.next,
      kstatus: status.conditions.filter((condition) => ['Reconciling', 'Stalled'].includes(condition.type)),
    }).toEqual({
      reason: 'RenderFailed',
      next: { kind: 'park' },
      kstatus: [expect.objectContaining({ type: 'Stalled', status: 'True' })],
    });
  });

  it('writes no status for a CRD without the status subresource (children-and-status.md §7.2)', async () => {
    const before = await planBeforeHook(secretReading({ subresource: false }), MISSING_LEAF, NOW, LOOKUPS);
    if (before.kind !== 'stop') throw new Error('the render did not fail');
    expect(before.stop.statusAt(NOW)).toBeNull();
  });
});
