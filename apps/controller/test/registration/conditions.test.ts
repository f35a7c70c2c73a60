import { describe, expect, it } from 'vitest';
import { blockedBy, candidates } from '../../src/registration/selection.ts';
import {
  registrationConditions,
  restartOfStartedGeneration,
  type RegistrationFindings,
} from '../../src/registration/conditions.ts';

const base: RegistrationFindings = {
  crdName: 'mailers.notify.example.com',
  validation: { ok: true },
  crd: { kind: 'found', servesVersion: true },
  controller: { kind: 'started' },
};

describe('registration conditions (docs/spec/registration.md §5)', () => {
  it('is Ready when the CRD exists and the controller started', () => {
    expect(registrationConditions(base)).toEqual({
      CRDExists: { status: 'True', reason: 'CRDEXIST', message: '' },
      ControllerReady: { status: 'True', reason: 'CONTROLLERSTARTED', message: '' },
      Ready: { status: 'True', reason: 'CONDITIONSOK', message: '' },
    });
  });

  it('waits for a missing CRD: CRDExists False decides Ready', () => {
    const message = 'customresourcedefinitions.apiextensions.k8s.io "mailers.notify.example.com" not found';
    expect(
      registrationConditions({ ...base, crd: { kind: 'missing', message }, controller: undefined }),
    ).toEqual({
      CRDExists: { status: 'False', reason: 'CRDERROR', message },
      ControllerReady: {
        status: 'Unknown',
        reason: 'UNKNOWN',
        message: 'waiting for CRD "mailers.notify.example.com"',
      },
      Ready: { status: 'False', reason: 'CRDERROR', message },
    });
  });

  it('reports a CRD that serves no version', () => {
    const values = registrationConditions({
      ...base,
      crd: { kind: 'found', servesVersion: false },
      controller: undefined,
    });
    expect(values.CRDExists).toEqual({
      status: 'False',
      reason: 'CRDERROR',
      message: 'CRD "mailers.notify.example.com" serves no version',
    });
    expect(values.Ready.reason).toBe('CRDERROR');
  });

  it('copies a validation failure into ControllerReady and Ready', () => {
    const failure = {
      ok: false as const,
      reason: 'InvalidHookTimeout',
      message: 'spec.hook.timeout: must be greater than zero',
    };
    expect(registrationConditions({ ...base, validation: failure, controller: undefined })).toEqual({
      CRDExists: { status: 'True', reason: 'CRDEXIST', message: '' },
      ControllerReady: {
        status: 'False',
        reason: 'InvalidHookTimeout',
        message: 'spec.hook.timeout: must be greater than zero',
      },
      Ready: {
        status: 'False',
        reason: 'InvalidHookTimeout',
        message: 'spec.hook.timeout: must be greater than zero',
      },
    });
  });

  it('is Unknown while the controller starts, False when a check failed', () => {
    expect(registrationConditions({ ...base, controller: { kind: 'starting' } }).Ready).toEqual({
      status: 'Unknown',
      reason: 'UNKNOWN',
      message: '',
    });
    const failed = registrationConditions({
      ...base,
      controller: {
        kind: 'failed',
        reason: 'CRDAlreadyRegistered',
        message: 'CRD "m" is already registered by CRDRegistration "a"',
      },
    });
    expect(failed.ControllerReady.reason).toBe('CRDAlreadyRegistered');
    expect(failed.Ready).toEqual({
      status: 'False',
      reason: 'CRDAlreadyRegistered',
      message: 'CRD "m" is already registered by CRDRegistration "a"',
    });
  });
});

describe('active registration (§6.4)', () => {
  it('picks the oldest, then the smaller name, among those naming the CRD', () => {
    const claims = [
      { name: 'b', crd: 'x.example.com', creationTimestamp: '2025-01-01T00:00:00Z' },
      { name: 'a', crd: 'x.example.com', creationTimestamp: '2025-01-01T00:00:00Z' },
      { name: 'old', crd: 'y.example.com', creationTimestamp: '2024-01-01T00:00:00Z' },
      { name: 'c', crd: 'x.example.com', creationTimestamp: '2025-02-01T00:00:00Z' },
    ];
    expect(candidates(claims, 'x.example.com').map((claim) => claim.name)).toEqual(['a']);
    expect(blockedBy(claims, 'x.example.com', 'b')).toBe('a');
    expect(blockedBy(claims, 'x.example.com', 'c')).toBe('a');
    expect(candidates(claims, 'z.example.com')).toEqual([]);
  });
});

describe('restartOfStartedGeneration', () => {
  const started = {
    observedGeneration: 3,
    conditions: [{ type: 'ControllerReady', status: 'True', reason: 'CONTROLLERSTARTED' }],
  };
  const starting: RegistrationFindings = { ...base, controller: { kind: 'starting' } };

  it('keeps the stored status while a controller starts again for the generation it reported started', () => {
    expect(restartOfStartedGeneration(started, 3, starting)).toBe(true);
  });

  it('reports the start of a new generation, of a controller never started, and anything but starting', () => {
    expect(restartOfStartedGeneration(started, 4, starting)).toBe(false);
    const unknown = { ...started, conditions: [{ type: 'ControllerReady', status: 'Unknown' }] };
    expect(restartOfStartedGeneration(unknown, 3, starting)).toBe(false);
    expect(restartOfStartedGeneration(undefined, 3, starting)).toBe(false);
    expect(restartOfStartedGeneration(started, 3, base)).toBe(false);
  });
});
