/**
 * docs/spec/children-and-status.md §8.12: the Reconciling and Stalled conditions kstatus reads, through
 * the function that completes every status Scoby writes (and `scoby render` prints).
 */
import type { Condition } from '@scoby/kube-objects';
import { describe, expect, it } from 'vitest';
import type { StatusFeatures } from '../../../src/crd/inspect.ts';
import {
  completeStatus,
  startWorkingStatus,
  type StatusCompletion,
} from '../../../src/instance/status/instance-status.ts';
import type { ConditionValue } from '../../../src/status/conditions.ts';

const NOW = '2025-03-02T10:16:12Z';
const ALL: StatusFeatures = {
  subresource: true,
  conditionFields: ['type', 'status', 'reason', 'message', 'lastTransitionTime'],
  observedGeneration: true,
  address: true,
  schema: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true },
};
const TYPES = ['DeploymentReady', 'QuotaChecked', 'Ready', 'ServiceReady'];
const SUBJECTS = {
  DeploymentReady: 'Deployment shop/mailer-orders',
  ServiceReady: 'Service shop/mailer-orders',
};
const SERVICE: ConditionValue = { status: 'True', reason: 'ServiceExist', message: '' };
const QUOTA_OK = {
  type: 'QuotaChecked',
  status: 'True',
  reason: 'WithinQuota',
  message: '',
  lastTransitionTime: NOW,
};

function complete(
  deployment: ConditionValue,
  extra: Partial<StatusCompletion> = {},
  quota: Condition = QUOTA_OK as Condition,
): Condition[] {
  const working = startWorkingStatus({ conditions: [quota] }, TYPES, NOW);
  const status = completeStatus(working, {
    formFactor: {
      conditions: { DeploymentReady: deployment, ServiceReady: SERVICE },
      address: { kind: 'none' },
    },
    conditionSubjects: SUBJECTS,
    generation: 3,
    features: ALL,
    stored: undefined,
    now: NOW,
    ...extra,
  });
  return status.conditions as Condition[];
}

/** The kstatus conditions only, as `<type>=<status>/<reason>/<message>`. */
function kstatusOf(conditions: Condition[]): string[] {
  return conditions
    .filter((condition) => condition.type === 'Reconciling' || condition.type === 'Stalled')
    .map((condition) => `${condition.type}=${condition.status}/${condition.reason}/${condition.message}`);
}

const AVAILABLE: ConditionValue = { status: 'True', reason: 'MinimumReplicasAvailable', message: '' };
const PROGRESSING: ConditionValue = { status: 'Unknown', reason: 'DeploymentUnknown', message: '' };

describe('Reconciling and Stalled of an instance (§8.12)', () => {
  it('writes neither once Ready is True', () => {
    const conditions = complete(AVAILABLE);
    expect(conditions.map((condition) => condition.type)).toEqual([
      'DeploymentReady',
      'QuotaChecked',
      'Ready',
      'ServiceReady',
    ]);
  });

  it('writes Reconciling=True/Progressing naming every condition not True while the children are on their way', () => {
    const quota = { ...QUOTA_OK, status: 'Unknown', reason: 'UNKNOWN' } as Condition;
    expect(kstatusOf(complete(PROGRESSING, {}, quota))).toEqual([
      'Reconciling=True/Progressing/DeploymentReady=Unknown for Deployment shop/mailer-orders: DeploymentUnknown; QuotaChecked=Unknown: UNKNOWN',
    ]);
  });

  it('writes Reconciling while a Deployment lacks minimum availability', () => {
    const unavailable = {
      status: 'False',
      reason: 'MinimumReplicasUnavailable',
      message: 'Deployment does not have minimum availability.',
    } as const;
    expect(kstatusOf(complete(unavailable))).toEqual([
      'Reconciling=True/Progressing/DeploymentReady=False for Deployment shop/mailer-orders: MinimumReplicasUnavailable: Deployment does not have minimum availability.',
    ]);
  });

  it('writes Stalled=True/ProgressDeadlineExceeded, the Deployment having given up', () => {
    const deadline = {
      status: 'False',
      reason: 'ProgressDeadlineExceeded',
      message: 'ReplicaSet "mailer-orders-5d4f" has timed out progressing.',
    } as const;
    const conditions = complete(deadline);
    expect(kstatusOf(conditions)).toEqual([
      'Stalled=True/ProgressDeadlineExceeded/DeploymentReady=False for Deployment shop/mailer-orders: ProgressDeadlineExceeded: ReplicaSet "mailer-orders-5d4f" has timed out progressing.',
    ]);
    expect(conditions.find((condition) => condition.type === 'Stalled')).toEqual({
      type: 'Stalled',
      status: 'True',
      reason: 'ProgressDeadlineExceeded',
      message:
        'DeploymentReady=False for Deployment shop/mailer-orders: ProgressDeadlineExceeded: ReplicaSet "mailer-orders-5d4f" has timed out progressing.',
      lastTransitionTime: NOW,
    });
  });

  it('writes Stalled=True/CrashLoopBackOff also while the Deployment is only Unknown', () => {
    const crashing = {
      status: 'Unknown',
      reason: 'CrashLoopBackOff',
      message: 'container "adapter" is crashing (restarted 3 times, last exit code 1)',
    } as const;
    expect(kstatusOf(complete(crashing))).toEqual([
      'Stalled=True/CrashLoopBackOff/DeploymentReady=Unknown for Deployment shop/mailer-orders: CrashLoopBackOff: container "adapter" is crashing (restarted 3 times, last exit code 1)',
    ]);
  });

  it('writes Reconciling with a retried failure, Stalled with a parked one, and the failure over the children', () => {
    const retried = {
      failure: { reason: 'HookFailed', message: 'pre-reconcile hook: HTTP 503', parked: false },
    } as const;
    const parkedFailure = {
      failure: { reason: 'HookFailed', message: 'pre-reconcile hook: HTTP 422: over quota', parked: true },
    } as const;
    const applyFailed = {
      failure: {
        reason: 'ApplyFailed',
        message: 'Deployment "shop/mailer-orders": forbidden',
        parked: false,
      },
    } as const;
    const deadline = { status: 'False', reason: 'ProgressDeadlineExceeded', message: '' } as const;
    expect(kstatusOf(complete(deadline, retried))).toEqual([
      'Reconciling=True/HookFailed/pre-reconcile hook: HTTP 503',
    ]);
    expect(kstatusOf(complete(AVAILABLE, parkedFailure))).toEqual([
      'Stalled=True/HookFailed/pre-reconcile hook: HTTP 422: over quota',
    ]);
    expect(kstatusOf(complete(AVAILABLE, applyFailed))).toEqual([
      'Reconciling=True/ApplyFailed/Deployment "shop/mailer-orders": forbidden',
    ]);
  });

  it('is not counted by Ready, and an ignored hook failure changes nothing', () => {
    const conditions = complete(AVAILABLE, {
      hookFailureIgnored: { message: 'pre-reconcile hook: request failed', hookConditionTypes: [] },
    });
    expect(conditions.find((condition) => condition.type === 'Ready')?.status).toBe('True');
    expect(kstatusOf(conditions)).toEqual([]);
  });

  it('is dropped by the next initialisation, so a Ready instance loses a stored Stalled', () => {
    const stalled = {
      type: 'Stalled',
      status: 'True',
      reason: 'RenderFailed',
      message: 'x',
      lastTransitionTime: NOW,
    };
    const working = startWorkingStatus({ conditions: [QUOTA_OK, stalled] }, TYPES, NOW);
    expect((working.conditions as Condition[]).map((condition) => condition.type)).not.toContain('Stalled');
  });

  it('writes nothing without the conditions feature (§7.2)', () => {
    const working = startWorkingStatus(undefined, TYPES, NOW);
    const status = completeStatus(working, {
      failure: { reason: 'RenderFailed', message: 'spec: bad', parked: true },
      generation: 3,
      features: { ...ALL, conditionFields: [] },
      stored: undefined,
      now: NOW,
    });
    expect(status).toEqual({ observedGeneration: 3 });
  });
});
