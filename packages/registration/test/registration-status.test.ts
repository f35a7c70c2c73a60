import { describe, expect, it } from 'vitest';
import type { Condition } from '@scoby/kube-objects';
import {
  computeRegistrationReady,
  crdAlreadyRegisteredMessage,
  crdClusterScopedMessage,
  crdServesNoVersionMessage,
  waitingForCrdMessage,
} from '../src/registration-status.ts';

type State = Pick<Condition, 'status' | 'reason' | 'message'>;
const TRUE_CRD: State = { status: 'True', reason: 'CRDEXIST', message: '' };
const TRUE_CONTROLLER: State = { status: 'True', reason: 'CONTROLLERSTARTED', message: '' };
const UNKNOWN: State = { status: 'Unknown', reason: 'UNKNOWN', message: '' };
const NO_CRD: State = {
  status: 'False',
  reason: 'CRDERROR',
  message: 'customresourcedefinitions.apiextensions.k8s.io "mailers.notify.example.com" not found',
};
const INVALID: State = { status: 'False', reason: 'InvalidHookVersion', message: 'spec.hook.version: …' };

describe('computeRegistrationReady (docs/spec/registration.md §5.3)', () => {
  it.each([
    ['both True', TRUE_CRD, TRUE_CONTROLLER, { status: 'True', reason: 'CONDITIONSOK', message: '' }],
    ['CRD missing, controller waiting', NO_CRD, UNKNOWN, NO_CRD],
    ['CRD missing and spec invalid: CRDExists first', NO_CRD, INVALID, NO_CRD],
    ['spec invalid', TRUE_CRD, INVALID, INVALID],
    ['spec invalid, CRD not yet evaluated: False beats Unknown', UNKNOWN, INVALID, INVALID],
    ['controller starting', TRUE_CRD, UNKNOWN, { status: 'Unknown', reason: 'UNKNOWN', message: '' }],
    ['nothing evaluated', UNKNOWN, UNKNOWN, { status: 'Unknown', reason: 'UNKNOWN', message: '' }],
  ])('%s', (_name, crdExists, controllerReady, expected) => {
    expect(computeRegistrationReady(crdExists, controllerReady)).toEqual({ type: 'Ready', ...expected });
  });
});

describe('messages (docs/spec/registration.md §4, §5.2)', () => {
  it('spells the CRD messages exactly', () => {
    expect(crdClusterScopedMessage('clusterthings.example.com')).toBe(
      'CRD "clusterthings.example.com" is cluster scoped; only namespaced CRDs can be registered',
    );
    expect(crdAlreadyRegisteredMessage('mailers.notify.example.com', 'mailer-v1')).toBe(
      'CRD "mailers.notify.example.com" is already registered by CRDRegistration "mailer-v1"',
    );
    expect(crdServesNoVersionMessage('mailers.notify.example.com')).toBe(
      'CRD "mailers.notify.example.com" serves no version',
    );
    expect(waitingForCrdMessage('mailers.notify.example.com')).toBe(
      'waiting for CRD "mailers.notify.example.com"',
    );
  });
});
