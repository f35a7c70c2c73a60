/**
 * The decisions of the instance plan's second stage as data (docs/spec/hooks-v1.md §6.2–§6.6): for
 * each kind of pre-reconcile answer, under each failure policy, whether the reconcile stops (and
 * what comes next), which Warning Events it decides on, and when an ignored failure's hook is called
 * again. The controller and `scoby render` both carry out exactly these.
 */
import { describe, expect, it } from 'vitest';
import type { HookResult } from '@scoby/hooks-v1/client';
import type { KubeObject } from '@scoby/kube-objects';
import { planAfterHook, type AfterHook } from '../../../src/instance/plan/after-hook.ts';
import { planBeforeHook } from '../../../src/instance/plan/before-hook.ts';
import type { InstanceTarget } from '../../../src/instance/plan/instance-target.ts';
import { hookFailure as failure } from '../hook-failure.ts';
import { planTarget } from './plan-target.ts';

const NOW = '2026-11-26T07:00:00Z';

function target(failurePolicy: 'Fail' | 'Ignore'): InstanceTarget {
  return planTarget({
    hook: {
      version: 'v1',
      address: { uri: 'http://hook.example/v1' },
      capabilities: ['pre-reconcile'],
      failurePolicy,
    },
  });
}

const INSTANCE: KubeObject = {
  apiVersion: 'example.com/v1',
  kind: 'Mailer',
  metadata: { name: 'orders', namespace: 'shop', uid: 'u-1', generation: 1 },
  spec: {},
};

/** What a decision says, without the desired state's children and status. */
function decision(after: AfterHook) {
  return after.kind === 'stop'
    ? { stop: after.stop.failure.reason, next: after.stop.next }
    : {
        warnings: after.warnings.warnings.map(({ reason }) => reason),
        judged: after.warnings.judged,
        ...(after.hookFailureIgnored ? { recall: after.hookFailureIgnored.recall } : {}),
      };
}

/** The plan's second stage for `instance` after `answer`, its first stage having prepared a call. */
async function planAfter(
  instanceTarget: InstanceTarget,
  instance: KubeObject,
  answer: HookResult | undefined,
): Promise<AfterHook> {
  const before = await planBeforeHook(instanceTarget, instance, NOW, {
    controllerNamespace: 'scoby-system',
    controllerConfigMap: () => undefined,
    resolveAddress: async () => ({ ok: false, message: 'no addresses here' }),
  });
  if (before.kind !== 'prepared') throw new Error('the render failed');
  expect(before.hookRequests.map(({ phase }) => phase)).toEqual(['pre-reconcile']);
  return planAfterHook(
    before.prepared,
    answer === undefined ? [] : [{ phase: 'pre-reconcile', result: answer }],
  );
}

async function decide(policy: 'Fail' | 'Ignore', answer: HookResult | undefined) {
  return decision(await planAfter(target(policy), INSTANCE, answer));
}

const WRITTEN = {
  warnings: [],
  judged: ['HookObjectChangesIgnored', 'HookConditionRepeated', 'HookFailedIgnored'],
};

describe('the plan after the pre-reconcile answer', () => {
  it.each<[string, HookResult | undefined, 'Fail' | 'Ignore', unknown]>([
    ['no call made', undefined, 'Fail', { warnings: [], judged: [] }],
    ['a 2xx answer', { ok: true }, 'Fail', WRITTEN],
    [
      'a 2xx answer changing more than status',
      { ok: true, objectChangesIgnored: ['spec'] },
      'Fail',
      { ...WRITTEN, warnings: ['HookObjectChangesIgnored'] },
    ],
    [
      'a transient failure',
      failure({ status: 500 }),
      'Fail',
      { stop: 'HookFailed', next: { kind: 'retry' } },
    ],
    [
      'a 503 with Retry-After',
      failure({ status: 503, retryAfterMs: 30_000 }),
      'Fail',
      { stop: 'HookFailed', next: { kind: 'retry-after', delayMs: 30_000 } },
    ],
    [
      'a permanent failure',
      failure({ status: 400, permanent: true, transient: false }),
      'Fail',
      { stop: 'HookFailed', next: { kind: 'park' } },
    ],
    [
      'a failure with continue',
      failure({ status: 500, continue: true }),
      'Fail',
      { warnings: ['HookFailed'], judged: ['HookFailedIgnored'] },
    ],
    [
      'a 5xx under Ignore',
      failure({ status: 500 }),
      'Ignore',
      { warnings: ['HookFailedIgnored'], judged: ['HookFailedIgnored'], recall: { kind: 'backoff' } },
    ],
    [
      'a 503 with Retry-After under Ignore',
      failure({ status: 503, retryAfterMs: 2_000 }),
      'Ignore',
      {
        warnings: ['HookFailedIgnored'],
        judged: ['HookFailedIgnored'],
        recall: { kind: 'after', delayMs: 2_000 },
      },
    ],
    [
      'a permanent 5xx under Ignore',
      failure({ status: 502, permanent: true, transient: false }),
      'Ignore',
      { warnings: ['HookFailedIgnored'], judged: ['HookFailedIgnored'], recall: { kind: 'next-trigger' } },
    ],
    [
      'a 4xx under Ignore',
      failure({ status: 403, permanent: true, transient: false }),
      'Ignore',
      { stop: 'HookFailed', next: { kind: 'park' } },
    ],
  ])('%s', async (_case, answer, policy, expected) => {
    expect(await decide(policy, answer)).toEqual(expected);
  });
});

describe("the hook's conditions after a failed pre-reconcile call (children-and-status.md §8.5)", () => {
  const MESSAGE = 'pre-reconcile hook: HTTP 500: quota service down';
  const EARLIER = '2026-11-26T06:00:00Z';
  const quotaChecked = {
    type: 'QuotaChecked',
    status: 'True',
    reason: 'WithinQuota',
    message: '',
    lastTransitionTime: EARLIER,
  };
  const stored = {
    conditions: [
      {
        type: 'DeploymentReady',
        status: 'True',
        reason: 'MinimumReplicasAvailable',
        message: '',
        lastTransitionTime: EARLIER,
      },
      quotaChecked,
      { type: 'Ready', status: 'True', reason: 'CONDITIONSOK', message: '', lastTransitionTime: EARLIER },
    ],
  };
  const quotaUnknown = {
    type: 'QuotaChecked',
    status: 'Unknown',
    reason: 'HookFailed',
    message: MESSAGE,
    lastTransitionTime: NOW,
  };

  async function plan(policy: 'Fail' | 'Ignore', answer: HookResult): Promise<AfterHook> {
    const plain = target(policy);
    const hooked: InstanceTarget = {
      ...plain,
      features: {
        ...plain.features,
        conditionFields: ['type', 'status', 'reason', 'message', 'lastTransitionTime'],
      },
      conditionTypes: ['DeploymentReady', 'QuotaChecked', 'Ready'],
      hookConditionTypes: ['QuotaChecked'],
    };
    return planAfter(hooked, { ...INSTANCE, status: stored }, answer);
  }

  const conditionsOf = (status: unknown) => (status as { conditions: unknown[] }).conditions;

  it.each([
    ['a transient failure', failure({ status: 500, message: MESSAGE }), 'Reconciling'],
    [
      'a permanent failure (parked)',
      failure({ status: 500, message: MESSAGE, permanent: true, transient: false }),
      'Stalled',
    ],
  ])('%s under Fail: Unknown/HookFailed beside Ready=False/HookFailed', async (_case, answer, kstatus) => {
    const after = await plan('Fail', answer);
    if (after.kind !== 'stop') throw new Error('the reconcile went on');
    expect(conditionsOf(after.stop.statusAt(NOW))).toEqual([
      stored.conditions[0],
      quotaUnknown,
      { type: 'Ready', status: 'False', reason: 'HookFailed', message: MESSAGE, lastTransitionTime: NOW },
      { type: kstatus, status: 'True', reason: 'HookFailed', message: MESSAGE, lastTransitionTime: NOW },
    ]);
  });

  it('a 5xx under Ignore: Unknown/HookFailed, not counted in Ready', async () => {
    const after = await plan('Ignore', failure({ status: 500, message: MESSAGE }));
    if (after.kind !== 'desired') throw new Error('the reconcile stopped');
    const deployment = after.desired.children.deployment!;
    const available = {
      ...deployment,
      status: { conditions: [{ type: 'Available', status: 'True', reason: 'MinimumReplicasAvailable' }] },
    };
    expect(conditionsOf(after.desired.statusFor({ deployment: available }, NOW))).toEqual([
      stored.conditions[0],
      {
        type: 'HookSucceeded',
        status: 'False',
        reason: 'HookFailedIgnored',
        message: MESSAGE,
        lastTransitionTime: NOW,
      },
      quotaUnknown,
      stored.conditions[2],
    ]);
  });

  it('a failure with continue keeps them: the hook asked to go on as if it had answered nothing', async () => {
    const after = await plan('Fail', failure({ status: 500, message: MESSAGE, continue: true }));
    if (after.kind !== 'desired') throw new Error('the reconcile stopped');
    expect(conditionsOf(after.desired.statusFor({}, NOW))).toContainEqual(quotaChecked);
  });
});
