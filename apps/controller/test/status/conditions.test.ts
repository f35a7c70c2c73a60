import { describe, expect, it } from 'vitest';
import {
  formatTime,
  initializeConditions,
  limitMessage,
  readyFrom,
  conditionSubjects,
  settleConditions,
} from '../../src/status/conditions.ts';

const T0 = '2025-03-02T10:15:00Z';
const NOW = '2025-03-02T10:16:12Z';

describe('condition initialisation (§8.2)', () => {
  it('drops malformed, foreign and repeated entries, adds missing types as Unknown, sorts by type', () => {
    const stored = [
      'garbage',
      { type: 42 },
      { type: 'Foreign', status: 'True' },
      { type: 'Ready', status: 'True', reason: 'CONDITIONSOK', message: '', lastTransitionTime: T0 },
      { type: 'Ready', status: 'False', reason: 'X', message: '', lastTransitionTime: T0 },
    ];
    expect(initializeConditions(stored, ['ServiceReady', 'Ready', 'DeploymentReady'], NOW)).toEqual([
      { type: 'DeploymentReady', status: 'Unknown', reason: 'UNKNOWN', message: '', lastTransitionTime: NOW },
      { type: 'Ready', status: 'True', reason: 'CONDITIONSOK', message: '', lastTransitionTime: T0 },
      { type: 'ServiceReady', status: 'Unknown', reason: 'UNKNOWN', message: '', lastTransitionTime: NOW },
    ]);
  });
});

describe('Ready (§8.4)', () => {
  const c = (type: string, status: 'True' | 'False' | 'Unknown') => ({
    type,
    status,
    reason: 'r',
    message: 'm',
    lastTransitionTime: T0,
  });
  it('False beats Unknown', () => {
    expect(readyFrom([c('A', 'Unknown'), c('B', 'False'), c('Ready', 'True')])).toEqual({
      status: 'False',
      reason: 'CONDITIONSNOTOK',
      message: 'B=False: r: m',
    });
  });
  it('names every False condition, its child, reason and message in the message of Ready=False', () => {
    const deployment = {
      type: 'DeploymentReady',
      status: 'False' as const,
      reason: 'MinimumReplicasUnavailable',
      message: 'Deployment does not have minimum availability.',
      lastTransitionTime: T0,
    };
    const quota = { ...deployment, type: 'QuotaChecked', reason: 'OverQuota', message: '' };
    expect(
      readyFrom([deployment, quota, c('ServiceReady', 'True')], {
        DeploymentReady: 'Deployment shop/mailer',
        ServiceReady: 'Service shop/mailer',
      }),
    ).toEqual({
      status: 'False',
      reason: 'CONDITIONSNOTOK',
      message:
        'DeploymentReady=False for Deployment shop/mailer: MinimumReplicasUnavailable: Deployment does not have minimum availability.; QuotaChecked=False: OverQuota',
    });
  });
  it('knows the child of a <Kind>Ready condition when there is one child of that kind', () => {
    const child = (kind: string, name: string) => ({
      apiVersion: 'v1',
      kind,
      metadata: { namespace: 'shop', name },
    });
    expect(
      conditionSubjects(
        [child('Deployment', 'mailer'), child('Service', 'a'), child('Service', 'b')],
        ['DeploymentReady', 'ServiceReady', 'QuotaChecked', 'Ready'],
      ),
    ).toEqual({ DeploymentReady: 'Deployment shop/mailer' });
  });
  it('Unknown when nothing is False', () => {
    expect(readyFrom([c('A', 'Unknown'), c('B', 'True')])).toEqual({
      status: 'Unknown',
      reason: 'UNKNOWN',
      message: '',
    });
  });
  it('True when all are True, ignoring Ready itself', () => {
    expect(readyFrom([c('A', 'True'), c('Ready', 'False')])).toEqual({
      status: 'True',
      reason: 'CONDITIONSOK',
      message: '',
    });
  });
});

describe('lastTransitionTime (§8.6)', () => {
  it('keeps the stored time when status is unchanged, even if reason and message change', () => {
    const stored = [{ type: 'A', status: 'True', reason: 'Old', message: 'old', lastTransitionTime: T0 }];
    const settled = settleConditions(
      [{ type: 'A', status: 'True', reason: 'New', message: 'new', lastTransitionTime: 'ignored' }],
      stored,
      NOW,
    );
    expect(settled).toEqual([
      { type: 'A', status: 'True', reason: 'New', message: 'new', lastTransitionTime: T0 },
    ]);
  });
  it('moves to now when status changes or the condition is new', () => {
    const stored = [{ type: 'A', status: 'True', reason: 'r', message: '', lastTransitionTime: T0 }];
    const settled = settleConditions(
      [
        { type: 'A', status: 'False', reason: 'r', message: '', lastTransitionTime: T0 },
        { type: 'B', status: 'True', reason: 'r', message: '', lastTransitionTime: '1999-01-01T00:00:00Z' },
      ],
      stored,
      NOW,
    );
    expect(settled.map((condition) => condition.lastTransitionTime)).toEqual([NOW, NOW]);
  });
});

describe('formatting', () => {
  it('writes RFC 3339 UTC with whole seconds', () => {
    expect(formatTime(new Date('2025-03-02T10:15:00.987Z'))).toBe('2025-03-02T10:15:00Z');
  });
  it('cuts messages over 1024 characters to 1021 plus "..."', () => {
    expect(limitMessage('x'.repeat(1024))).toBe('x'.repeat(1024));
    expect(limitMessage('x'.repeat(1025))).toBe(`${'x'.repeat(1021)}...`);
  });
});
