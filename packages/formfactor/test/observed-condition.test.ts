import type { KubeObject } from '@scoby/kube-objects';
import { describe, expect, it } from 'vitest';
import { observedCondition } from '../src/index.ts';

function withConditions(conditions: unknown): KubeObject {
  return { apiVersion: 'apps/v1', kind: 'Deployment', metadata: {}, status: { conditions } };
}

describe('observedCondition', () => {
  it('returns the first entry of the type with missing texts as ""', () => {
    const object = withConditions([
      null,
      'Available',
      { type: 'Available', status: 'True' },
      { type: 'Available', status: 'False', reason: 'Later' },
    ]);
    expect(observedCondition(object, 'Available')).toStrictEqual({ status: 'True', reason: '', message: '' });
  });

  it('turns a non-string status into JSON text and a missing one into ""', () => {
    expect(
      observedCondition(withConditions([{ type: 'Ready', status: true, reason: 7, message: 'm' }]), 'Ready'),
    ).toStrictEqual({
      status: 'true',
      reason: '',
      message: 'm',
    });
    expect(observedCondition(withConditions([{ type: 'Ready' }]), 'Ready')).toStrictEqual({
      status: '',
      reason: '',
      message: '',
    });
  });

  it('is undefined without the object, its status, a condition list or the type', () => {
    expect(observedCondition(undefined, 'Ready')).toBeUndefined();
    expect(observedCondition({ apiVersion: 'v1', kind: 'Service', metadata: {} }, 'Ready')).toBeUndefined();
    expect(observedCondition(withConditions({ type: 'Ready' }), 'Ready')).toBeUndefined();
    expect(
      observedCondition(withConditions([{ type: 'Progressing', status: 'True' }]), 'Ready'),
    ).toBeUndefined();
  });
});
