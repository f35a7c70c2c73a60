import type { KubeObject } from '@scoby/kube-objects';
import { describe, expect, it } from 'vitest';
import { registrationEvents } from '../../src/registration/events.ts';

type Status = 'True' | 'False' | 'Unknown';

function registration(
  controllerReady: Status,
  ready: Status,
  reason = 'CONDITIONSOK',
  message = '',
): KubeObject {
  return {
    apiVersion: 'scoby.triggermesh.io/v1alpha1',
    kind: 'CRDRegistration',
    metadata: { name: 'mailer' },
    spec: { crd: 'mailers.notify.example.com' },
    status: {
      conditions: [
        { type: 'ControllerReady', status: controllerReady, reason: 'X', message: '' },
        { type: 'Ready', status: ready, reason, message },
      ],
    },
  };
}

describe('registrationEvents', () => {
  it('announces a controller that started', () => {
    expect(registrationEvents(registration('Unknown', 'Unknown'), registration('True', 'True'))).toEqual([
      {
        type: 'Normal',
        reason: 'ControllerStarted',
        message: 'started the controller of mailers.notify.example.com',
      },
    ]);
  });

  it('warns once per new reason or message of Ready=False', () => {
    const invalid = registration(
      'False',
      'False',
      'InvalidHookTimeout',
      'spec.hook.timeout: "10s" is not an ISO 8601 duration',
    );
    expect(registrationEvents(registration('True', 'True'), invalid)).toEqual([
      {
        type: 'Warning',
        reason: 'InvalidHookTimeout',
        message: 'spec.hook.timeout: "10s" is not an ISO 8601 duration',
      },
    ]);
    expect(registrationEvents(invalid, structuredClone(invalid))).toEqual([]);
    const other = registration('False', 'False', 'CRDERROR', 'not found');
    expect(registrationEvents(invalid, other)).toEqual([
      { type: 'Warning', reason: 'CRDERROR', message: 'not found' },
    ]);
  });

  it('says nothing of a registration seen for the first time (a restart is no change) or unchanged', () => {
    expect(registrationEvents(undefined, registration('False', 'False', 'CRDERROR', 'x'))).toEqual([]);
    expect(registrationEvents(registration('True', 'True'), registration('True', 'True'))).toEqual([]);
  });
});
