/**
 * docs/spec/hooks-v1.md §6.6: which failed calls failurePolicy Ignore goes on without, and the
 * HookSucceeded condition that says so, added after Ready and never counted in it.
 */
import { describe, expect, it } from 'vitest';
import type { StatusFeatures } from '../../src/crd/inspect.ts';
import { ignoresHookFailure } from '../../src/instance/hook-failure-policy.ts';
import { completeStatus, startWorkingStatus } from '../../src/instance/status/instance-status.ts';
import { hookFailure as failure } from './hook-failure.ts';

describe('ignoresHookFailure', () => {
  it.each([
    ['a transport failure or timeout (no status)', failure({})],
    ['a 500', failure({ status: 500 })],
    ['a 503 with Retry-After', failure({ status: 503, retryAfterMs: 30_000 })],
    ['a permanent 502', failure({ status: 502, permanent: true, transient: false })],
  ])('ignores %s of pre-reconcile under Ignore', (_case, answer) => {
    expect(ignoresHookFailure('Ignore', 'pre-reconcile', answer)).toBe(true);
    expect(ignoresHookFailure('Fail', 'pre-reconcile', answer)).toBe(false);
    expect(ignoresHookFailure(undefined, 'pre-reconcile', answer)).toBe(false);
    expect(ignoresHookFailure('Ignore', 'finalize', answer)).toBe(false);
  });

  it.each([
    ['a 4xx', failure({ status: 422, permanent: true, transient: false })],
    ['a 429', failure({ status: 429, retryAfterMs: 1_000 })],
    ['a 3xx', failure({ status: 302 })],
    ['a malformed 2xx', failure({ status: 200 })],
    ['a 5xx with continue (§6.2 rule 1 goes on anyway)', failure({ status: 500, continue: true })],
  ])('keeps %s as under Fail', (_case, answer) => {
    expect(ignoresHookFailure('Ignore', 'pre-reconcile', answer)).toBe(false);
  });
});

const NOW = '2025-03-02T10:16:12Z';
const EARLIER = '2025-03-02T10:00:00Z';
const FEATURES: StatusFeatures = {
  subresource: true,
  conditionFields: ['type', 'status', 'reason', 'message', 'lastTransitionTime'],
  observedGeneration: true,
  address: false,
  schema: undefined,
};

describe('HookSucceeded beside Ready', () => {
  const ready = {
    formFactor: {
      conditions: {
        DeploymentReady: { status: 'True' as const, reason: 'MinimumReplicasAvailable', message: '' },
      },
      address: { kind: 'none' as const },
    },
    generation: 1,
    features: FEATURES,
    now: NOW,
  };

  it('is added False after Ready was computed, which stays True', () => {
    const working = startWorkingStatus(undefined, ['DeploymentReady', 'Ready'], NOW);
    const status = completeStatus(working, {
      ...ready,
      stored: undefined,
      hookFailureIgnored: { message: 'down', hookConditionTypes: [] },
    });
    expect(status.conditions).toEqual([
      {
        type: 'DeploymentReady',
        status: 'True',
        reason: 'MinimumReplicasAvailable',
        message: '',
        lastTransitionTime: NOW,
      },
      {
        type: 'HookSucceeded',
        status: 'False',
        reason: 'HookFailedIgnored',
        message: 'down',
        lastTransitionTime: NOW,
      },
      { type: 'Ready', status: 'True', reason: 'CONDITIONSOK', message: '', lastTransitionTime: NOW },
    ]);
  });

  it('keeps the time of the first failure, and is gone with the next reconcile without one', () => {
    const stored = {
      conditions: [
        {
          type: 'DeploymentReady',
          status: 'True',
          reason: 'MinimumReplicasAvailable',
          message: '',
          lastTransitionTime: EARLIER,
        },
        {
          type: 'HookSucceeded',
          status: 'False',
          reason: 'HookFailedIgnored',
          message: 'down',
          lastTransitionTime: EARLIER,
        },
        { type: 'Ready', status: 'True', reason: 'CONDITIONSOK', message: '', lastTransitionTime: EARLIER },
      ],
    };
    const types = ['DeploymentReady', 'Ready'];
    const still = completeStatus(startWorkingStatus(stored, types, NOW), {
      ...ready,
      stored,
      hookFailureIgnored: { message: 'still down', hookConditionTypes: [] },
    });
    expect((still.conditions as { type: string; lastTransitionTime: string }[])[1]).toEqual({
      type: 'HookSucceeded',
      status: 'False',
      reason: 'HookFailedIgnored',
      message: 'still down',
      lastTransitionTime: EARLIER,
    });
    const recovered = completeStatus(startWorkingStatus(stored, types, NOW), { ...ready, stored });
    expect((recovered.conditions as { type: string }[]).map(({ type }) => type)).toEqual([
      'DeploymentReady',
      'Ready',
    ]);
  });
});
