/**
 * The plan's last stage (docs/spec/children-and-status.md §1 steps 9–11): what the form factor's
 * status function is given for the observed children, and the stop when writing them failed.
 */
import { describe, expect, it } from 'vitest';
import type { FormFactorPlugin } from '@scoby/formfactor';
import type { KubeObject } from '@scoby/kube-objects';
import { desiredState } from '../../../src/instance/plan/desired-state.ts';
import type { InstanceTarget } from '../../../src/instance/plan/instance-target.ts';
import { startWorkingStatus } from '../../../src/instance/status/instance-status.ts';
import { planTarget } from './plan-target.ts';

const NOW = '2026-11-29T15:00:00Z';
const INSTANCE: KubeObject = {
  apiVersion: 'example.com/v1',
  kind: 'Mailer',
  metadata: { name: 'orders', namespace: 'shop', uid: 'u-1', generation: 1 },
  spec: {},
};
const IDENTITY = {
  apiVersion: 'example.com/v1',
  kind: 'Mailer',
  namespace: 'shop',
  name: 'orders',
  uid: 'u-1',
};

/** The default form factor, its status function's inputs recorded in `seen`. */
function plannedState(seen: Array<Parameters<FormFactorPlugin['status']>[0]>) {
  const base = planTarget();
  const plugin = base.plugin;
  const target: InstanceTarget = {
    ...base,
    plugin: {
      ...plugin,
      status: (input) => {
        seen.push(input);
        return plugin.status(input);
      },
    },
  };
  return desiredState({
    instance: INSTANCE,
    identity: IDENTITY,
    target,
    working: startWorkingStatus(undefined, target.conditionTypes, NOW),
    children: {},
  });
}

describe('the desired state', () => {
  it("gives the form factor's status function the Pods it was given, as a copy, and no pods without them", () => {
    const seen: Array<Parameters<FormFactorPlugin['status']>[0]> = [];
    const desired = plannedState(seen);
    const pods = { deployment: [{ apiVersion: 'v1', kind: 'Pod', metadata: { name: 'orders-1' } }] };
    desired.statusFor({}, NOW, pods);
    desired.statusFor({}, NOW);
    expect(seen.map((input) => input.pods)).toEqual([pods, undefined]);
    expect(seen[0]?.pods).not.toBe(pods);
    expect(Object.hasOwn(seen[1] ?? {}, 'pods')).toBe(false);
  });

  it('stops with ApplyFailed naming every error, to be retried, when writing the children failed', () => {
    const stop = plannedState([]).applyFailed([
      'Deployment "shop/orders": forbidden',
      'Service "shop/orders": conflict',
    ]);
    expect({ failure: stop.failure, next: stop.next }).toEqual({
      failure: {
        reason: 'ApplyFailed',
        message: 'Deployment "shop/orders": forbidden; Service "shop/orders": conflict',
      },
      next: { kind: 'retry' },
    });
  });
});
