import { describe, expect, it } from 'vitest';
import type { StatusFeatures } from '../../../src/crd/inspect.ts';
import {
  applyHookStatus,
  completeStatus,
  startWorkingStatus,
  withHookConditionsFailed,
} from '../../../src/instance/status/instance-status.ts';
import { applyStatusAdd } from '../../../src/instance/status/status-add.ts';
import { statusMergePatch } from '@scoby/controller-runtime';

const T0 = '2025-03-02T10:15:00Z';
const NOW = '2025-03-02T10:16:12Z';
const ALL: StatusFeatures = {
  subresource: true,
  conditionFields: ['type', 'status', 'reason', 'message', 'lastTransitionTime'],
  observedGeneration: true,
  address: true,
  schema: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true },
};
const TYPES = ['DeploymentReady', 'Ready', 'ServiceReady'];

describe('instance status (§8)', () => {
  it('produces the steady state of the running example', () => {
    const working = startWorkingStatus(undefined, TYPES, NOW);
    const status = completeStatus(working, {
      formFactor: {
        conditions: {
          DeploymentReady: { status: 'True', reason: 'MinimumReplicasAvailable', message: '' },
          ServiceReady: { status: 'True', reason: 'ServiceExist', message: '' },
        },
        address: { kind: 'url', url: 'http://mailer-orders.shop.svc.cluster.local' },
      },
      generation: 3,
      features: ALL,
      stored: undefined,
      now: NOW,
    });
    expect(status).toEqual({
      observedGeneration: 3,
      address: { url: 'http://mailer-orders.shop.svc.cluster.local' },
      conditions: [
        {
          type: 'DeploymentReady',
          status: 'True',
          reason: 'MinimumReplicasAvailable',
          message: '',
          lastTransitionTime: NOW,
        },
        { type: 'Ready', status: 'True', reason: 'CONDITIONSOK', message: '', lastTransitionTime: NOW },
        {
          type: 'ServiceReady',
          status: 'True',
          reason: 'ServiceExist',
          message: '',
          lastTransitionTime: NOW,
        },
      ],
    });
  });

  it('a failure overrides Ready and keeps the other conditions as stored (§8.5)', () => {
    const stored = {
      conditions: [
        {
          type: 'DeploymentReady',
          status: 'True',
          reason: 'MinimumReplicasAvailable',
          message: '',
          lastTransitionTime: T0,
        },
        { type: 'Ready', status: 'True', reason: 'CONDITIONSOK', message: '', lastTransitionTime: T0 },
      ],
      observedGeneration: 1,
    };
    const status = completeStatus(startWorkingStatus(stored, ['DeploymentReady', 'Ready'], NOW), {
      failure: { reason: 'RenderFailed', message: 'spec: expected an object, got string', parked: true },
      generation: 2,
      features: ALL,
      stored,
      now: NOW,
    });
    expect(status).toEqual({
      observedGeneration: 2,
      conditions: [
        {
          type: 'DeploymentReady',
          status: 'True',
          reason: 'MinimumReplicasAvailable',
          message: '',
          lastTransitionTime: T0,
        },
        {
          type: 'Ready',
          status: 'False',
          reason: 'RenderFailed',
          message: 'spec: expected an object, got string',
          lastTransitionTime: NOW,
        },
        {
          type: 'Stalled',
          status: 'True',
          reason: 'RenderFailed',
          message: 'spec: expected an object, got string',
          lastTransitionTime: NOW,
        },
      ],
    });
  });

  it('removes address.url when the form factor has none yet, keeping other address keys', () => {
    const stored = { address: { url: 'http://old', hostname: 'x' } };
    const status = completeStatus(startWorkingStatus(stored, ['Ready'], NOW), {
      formFactor: { conditions: {}, address: { kind: 'none' } },
      generation: 1,
      features: ALL,
      stored,
      now: NOW,
    });
    expect(status.address).toEqual({ hostname: 'x' });
  });

  it('leaves an unmanaged address alone and writes only declared condition fields', () => {
    const stored = { address: { url: 'http://set-by-hook' } };
    const status = completeStatus(startWorkingStatus(stored, ['Ready'], NOW), {
      formFactor: { conditions: {}, address: { kind: 'unmanaged' } },
      generation: 1,
      features: { ...ALL, conditionFields: ['type', 'status'], observedGeneration: false },
      stored,
      now: NOW,
    });
    expect(status).toEqual({
      address: { url: 'http://set-by-hook' },
      conditions: [{ type: 'Ready', status: 'True' }],
    });
  });
});

describe('hook status (§8.10)', () => {
  it("takes hook-declared conditions from the hook and keeps Scoby's other conditions", () => {
    const working = startWorkingStatus(
      {
        conditions: [
          { type: 'DeploymentReady', status: 'True', reason: 'A', message: '', lastTransitionTime: T0 },
        ],
      },
      ['DeploymentReady', 'QuotaChecked', 'Ready'],
      NOW,
    );
    const next = applyHookStatus(
      working,
      {
        annotations: { note: 'x' },
        conditions: [
          { type: 'QuotaChecked', status: 'Maybe' },
          { type: 'DeploymentReady', status: 'False', reason: 'Hacked' },
          { type: 'Ready', status: 'True' },
        ],
      },
      ['QuotaChecked'],
      ['DeploymentReady', 'QuotaChecked', 'Ready'],
      NOW,
    );
    expect(next.repeatedTypes).toEqual([]);
    expect(next.status).toEqual({
      annotations: { note: 'x' },
      conditions: [
        { type: 'DeploymentReady', status: 'True', reason: 'A', message: '', lastTransitionTime: T0 },
        { type: 'QuotaChecked', status: 'Unknown', reason: 'UNKNOWN', message: '', lastTransitionTime: NOW },
        { type: 'Ready', status: 'Unknown', reason: 'UNKNOWN', message: '', lastTransitionTime: NOW },
      ],
    });
  });
});

describe('a hook answer that repeats a condition type (§8.10)', () => {
  const types = ['DeploymentReady', 'QuotaChecked', 'Ready'];
  const working = () => startWorkingStatus({}, types, NOW);
  const echoed = {
    type: 'QuotaChecked',
    status: 'Unknown',
    reason: 'UNKNOWN',
    message: '',
    lastTransitionTime: NOW,
  };
  const own = { type: 'QuotaChecked', status: 'True', reason: 'WithinQuota', message: '' };
  const quota = (status: Record<string, unknown>) =>
    (status.conditions as { type: string }[]).find((condition) => condition.type === 'QuotaChecked');

  it("takes the hook's entry appended after the echo of Scoby's, and names the type", () => {
    const next = applyHookStatus(working(), { conditions: [echoed, own] }, ['QuotaChecked'], types, NOW);
    expect(quota(next.status)).toEqual({ ...own, lastTransitionTime: NOW });
    expect(next.repeatedTypes).toEqual(['QuotaChecked']);
  });

  it('takes the echo when the hook puts its entry before it: the last entry wins, and the type is named', () => {
    const next = applyHookStatus(working(), { conditions: [own, echoed] }, ['QuotaChecked'], types, NOW);
    expect(quota(next.status)).toEqual(echoed);
    expect(next.repeatedTypes).toEqual(['QuotaChecked']);
  });

  it("takes the last of two entries that both differ from Scoby's", () => {
    const last = { ...own, reason: 'Recounted' };
    const next = applyHookStatus(working(), { conditions: [own, last] }, ['QuotaChecked'], types, NOW);
    expect(quota(next.status)).toEqual({ ...last, lastTransitionTime: NOW });
  });

  // The render property's long run found a hook answering three entries of a type flip its condition
  // at every reconcile: the entry taken depended on the one Scoby sent, which the last write changed.
  it('gives the same condition for the same answer whatever Scoby sent: the status it writes is a fixed point', () => {
    const answer = [
      { type: 'QuotaChecked', status: 'Unknown', reason: 'Checked' },
      { type: 'QuotaChecked', status: 'True', message: '' },
      { type: 'QuotaChecked', status: 'True', reason: 'Over', message: 'quota left' },
    ];
    const first = applyHookStatus(working(), { conditions: answer }, ['QuotaChecked'], types, NOW);
    const second = applyHookStatus(first.status, { conditions: answer }, ['QuotaChecked'], types, NOW);
    const third = applyHookStatus(second.status, { conditions: answer }, ['QuotaChecked'], types, NOW);
    const expected = {
      type: 'QuotaChecked',
      status: 'True',
      reason: 'Over',
      message: 'quota left',
      lastTransitionTime: NOW,
    };
    expect([quota(first.status), quota(second.status), quota(third.status)]).toEqual([
      expected,
      expected,
      expected,
    ]);
  });

  it('does not name a repeated type the hook may not set', () => {
    const ready = { type: 'Ready', status: 'True', reason: 'Forged', message: '' };
    const next = applyHookStatus(working(), { conditions: [ready, ready] }, ['QuotaChecked'], types, NOW);
    expect(next.repeatedTypes).toEqual([]);
  });
});

describe("the hook's conditions while its pre-reconcile call fails (§8.5, §8.4)", () => {
  const HOOKED = ['DeploymentReady', 'QuotaChecked', 'Ready'];
  const REFUSED =
    'pre-reconcile hook: request to http://127.0.0.1:9/v1 failed: connect ECONNREFUSED 127.0.0.1:9';
  const stored = {
    conditions: [
      {
        type: 'DeploymentReady',
        status: 'True',
        reason: 'MinimumReplicasAvailable',
        message: '',
        lastTransitionTime: T0,
      },
      {
        type: 'QuotaChecked',
        status: 'True',
        reason: 'WithinQuota',
        message: '120 of 500',
        lastTransitionTime: T0,
      },
      { type: 'Ready', status: 'True', reason: 'CONDITIONSOK', message: '', lastTransitionTime: T0 },
    ],
  };
  const deploymentReady = {
    conditions: {
      DeploymentReady: { status: 'True' as const, reason: 'MinimumReplicasAvailable', message: '' },
    },
    address: { kind: 'none' as const },
  };
  const quotaUnknown = {
    type: 'QuotaChecked',
    status: 'Unknown',
    reason: 'HookFailed',
    message: REFUSED,
    lastTransitionTime: NOW,
  };
  const deploymentTrue = {
    type: 'DeploymentReady',
    status: 'True',
    reason: 'MinimumReplicasAvailable',
    message: '',
    lastTransitionTime: T0,
  };

  it('writes them Unknown/HookFailed with the message Ready=False carries, the others as stored (failurePolicy Fail)', () => {
    const working = withHookConditionsFailed(
      startWorkingStatus(stored, HOOKED, NOW),
      ['QuotaChecked'],
      REFUSED,
    );
    const status = completeStatus(working, {
      failure: { reason: 'HookFailed', message: REFUSED, parked: false },
      generation: 2,
      features: ALL,
      stored,
      now: NOW,
    });
    expect(status.conditions).toEqual([
      deploymentTrue,
      quotaUnknown,
      { type: 'Ready', status: 'False', reason: 'HookFailed', message: REFUSED, lastTransitionTime: NOW },
      {
        type: 'Reconciling',
        status: 'True',
        reason: 'HookFailed',
        message: REFUSED,
        lastTransitionTime: NOW,
      },
    ]);
  });

  it('writes them Unknown/HookFailed under Ignore, leaving them out of Ready, which the form factor alone makes True', () => {
    const working = withHookConditionsFailed(
      startWorkingStatus(stored, HOOKED, NOW),
      ['QuotaChecked'],
      REFUSED,
    );
    const status = completeStatus(working, {
      formFactor: deploymentReady,
      hookFailureIgnored: { message: REFUSED, hookConditionTypes: ['QuotaChecked'] },
      generation: 2,
      features: ALL,
      stored,
      now: NOW,
    });
    expect(status.conditions).toEqual([
      deploymentTrue,
      {
        type: 'HookSucceeded',
        status: 'False',
        reason: 'HookFailedIgnored',
        message: REFUSED,
        lastTransitionTime: NOW,
      },
      quotaUnknown,
      { type: 'Ready', status: 'True', reason: 'CONDITIONSOK', message: '', lastTransitionTime: T0 },
    ]);
  });

  it('still counts a False form-factor condition in Ready under Ignore', () => {
    const working = withHookConditionsFailed(
      startWorkingStatus(stored, HOOKED, NOW),
      ['QuotaChecked'],
      REFUSED,
    );
    const status = completeStatus(working, {
      formFactor: {
        ...deploymentReady,
        conditions: { DeploymentReady: { status: 'False', reason: 'DeploymentUnavailable', message: '' } },
      },
      hookFailureIgnored: { message: REFUSED, hookConditionTypes: ['QuotaChecked'] },
      generation: 2,
      features: ALL,
      stored,
      now: NOW,
    });
    expect((status.conditions as { type: string }[]).find(({ type }) => type === 'Ready')).toEqual({
      type: 'Ready',
      status: 'False',
      reason: 'CONDITIONSNOTOK',
      message: 'DeploymentReady=False: DeploymentUnavailable',
      lastTransitionTime: NOW,
    });
  });

  it('changes nothing for a registration without conditionsFromHook', () => {
    const working = startWorkingStatus(stored, HOOKED, NOW);
    expect(withHookConditionsFailed(working, [], REFUSED)).toBe(working);
  });
});

describe('statusConfiguration.add (§8.9)', () => {
  const entries = [
    { path: 'status.sinkUri', valueFrom: { path: 'spec.sink' } },
    { path: '$.status.nested.value', valueFrom: { path: '.spec.missing' } },
    { path: 'status.blocked.x', valueFrom: { path: 'spec.sink' } },
    { path: 'status.denied', valueFrom: { path: 'spec.sink' } },
  ];
  it('writes values, removes fields without a value, skips non-object parents and denied paths', () => {
    const status = { nested: { value: 'stale', keep: 1 }, blocked: 'scalar' };
    const result = applyStatusAdd(
      status,
      entries,
      { 'spec.sink': 'http://collector.shop.svc.cluster.local/events' },
      (segments) => segments[0] !== 'denied',
    );
    expect(result).toEqual({
      sinkUri: 'http://collector.shop.svc.cluster.local/events',
      nested: { keep: 1 },
      blocked: 'scalar',
    });
    expect(status.nested.value).toBe('stale');
  });
  it('returns the status itself when there are no entries', () => {
    const status = { nested: { value: 'kept' } };
    expect(applyStatusAdd(status, [], {}, () => true)).toBe(status);
  });
});

describe('status merge patch (§8.11)', () => {
  it('sends only changed fields, null for removed ones, arrays whole', () => {
    const stored = { observedGeneration: 1, gone: 'x', conditions: [{ type: 'Ready', status: 'True' }] };
    const desired = {
      observedGeneration: 2,
      conditions: [
        { type: 'Ready', status: 'True' },
        { type: 'B', status: 'True' },
      ],
    };
    expect(statusMergePatch(stored, desired)).toEqual({
      status: {
        observedGeneration: 2,
        gone: null,
        conditions: [
          { type: 'Ready', status: 'True' },
          { type: 'B', status: 'True' },
        ],
      },
    });
  });
  it('sends nothing when nothing changed', () => {
    expect(statusMergePatch({ a: { b: [1] } }, { a: { b: [1] } })).toBeUndefined();
  });
});
