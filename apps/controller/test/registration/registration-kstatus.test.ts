/**
 * docs/spec/registration.md §5.6: a registration's Reconciling and Stalled, through the status a
 * registration reconcile writes.
 */
import type { CRDRegistration } from '@scoby/registration';
import { describe, expect, it } from 'vitest';
import type { RegistrationFindings } from '../../src/registration/conditions.ts';
import { desiredRegistrationStatus } from '../../src/registration/registration-status.ts';

const NOW = '2025-03-02T10:15:00Z';
const CRD = 'mailers.notify.example.com';
const STARTED: RegistrationFindings = {
  crdName: CRD,
  validation: { ok: true },
  crd: { kind: 'found', servesVersion: true },
  controller: { kind: 'started' },
};

function registration(status?: Record<string, unknown>): CRDRegistration {
  return {
    apiVersion: 'scoby.triggermesh.io/v1alpha1',
    kind: 'CRDRegistration',
    metadata: { name: 'mailer', generation: 2 },
    spec: { crd: CRD, workload: { fromImage: { repo: 'example.com/mailer:1' } } },
    ...(status === undefined ? {} : { status }),
  } as CRDRegistration;
}

function conditions(findings: RegistrationFindings, stored?: Record<string, unknown>): unknown[] {
  const inputs = { now: NOW, countsDue: false, counts: undefined };
  return desiredRegistrationStatus(registration(stored), findings, undefined, inputs).status
    .conditions as unknown[];
}

function kstatusOf(findings: RegistrationFindings): unknown[] {
  return conditions(findings).filter((condition) =>
    ['Reconciling', 'Stalled'].includes((condition as { type: string }).type),
  );
}

describe('Reconciling and Stalled of a registration (registration.md §5.6)', () => {
  it('writes neither while the instance controller runs', () => {
    expect(kstatusOf(STARTED)).toEqual([]);
  });

  it('writes Reconciling=True/CRDERROR while waiting for its CRD', () => {
    const message = `customresourcedefinitions.apiextensions.k8s.io "${CRD}" not found`;
    expect(kstatusOf({ ...STARTED, crd: { kind: 'missing', message }, controller: undefined })).toEqual([
      { type: 'Reconciling', status: 'True', reason: 'CRDERROR', message, lastTransitionTime: NOW },
    ]);
  });

  it('writes Reconciling=True/ControllerStarting while the controller starts', () => {
    expect(kstatusOf({ ...STARTED, controller: { kind: 'starting' } })).toEqual([
      {
        type: 'Reconciling',
        status: 'True',
        reason: 'ControllerStarting',
        message: '',
        lastTransitionTime: NOW,
      },
    ]);
  });

  it('writes Stalled with the reason of a refused spec, also while the CRD is missing', () => {
    const message = 'spec.hook.version: unsupported hooks API version "v2" (supported: "v1")';
    const refused: RegistrationFindings = {
      ...STARTED,
      validation: { ok: false, reason: 'InvalidHookVersion', message },
      crd: { kind: 'missing', message: 'not found' },
      controller: undefined,
    };
    expect(kstatusOf(refused)).toEqual([
      { type: 'Stalled', status: 'True', reason: 'InvalidHookVersion', message, lastTransitionTime: NOW },
    ]);
  });

  it('writes Stalled for a failure not retried, Reconciling for one retried', () => {
    const failed = (reason: string, message: string): RegistrationFindings => ({
      ...STARTED,
      controller: { kind: 'failed', reason, message },
    });
    expect(kstatusOf(failed('CRDAlreadyRegistered', 'taken'))).toEqual([
      {
        type: 'Stalled',
        status: 'True',
        reason: 'CRDAlreadyRegistered',
        message: 'taken',
        lastTransitionTime: NOW,
      },
    ]);
    for (const reason of ['HOOKFAILED', 'CONTROLLERFAILED', 'MissingPermissions']) {
      expect(kstatusOf(failed(reason, 'retried'))).toEqual([
        { type: 'Reconciling', status: 'True', reason, message: 'retried', lastTransitionTime: NOW },
      ]);
    }
  });

  it('drops a stored Reconciling once Ready, and keeps its time while it holds', () => {
    const THEN = '2025-03-02T10:00:00Z';
    const stored = {
      conditions: [
        { type: 'Reconciling', status: 'True', reason: 'CRDERROR', message: 'old', lastTransitionTime: THEN },
      ],
    };
    expect(conditions(STARTED, stored).map((condition) => (condition as { type: string }).type)).toEqual([
      'CRDExists',
      'ControllerReady',
      'Ready',
    ]);
    const missing = { ...STARTED, crd: { kind: 'missing', message: 'gone' }, controller: undefined } as const;
    expect(conditions(missing, stored)).toContainEqual({
      type: 'Reconciling',
      status: 'True',
      reason: 'CRDERROR',
      message: 'gone',
      lastTransitionTime: THEN,
    });
  });
});
