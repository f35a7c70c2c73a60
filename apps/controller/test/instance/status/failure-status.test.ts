import { describe, expect, it } from 'vitest';
import type { StatusFeatures } from '../../../src/crd/inspect.ts';
import { failureStatus } from '../../../src/instance/status/failure-status.ts';

const ALL: StatusFeatures = {
  subresource: true,
  conditionFields: ['type', 'status', 'reason', 'message', 'lastTransitionTime'],
  observedGeneration: true,
  address: true,
  schema: undefined,
};
const THEN = '2025-03-02T10:15:00Z';
const NOW = '2025-03-02T10:20:00Z';
const TYPES = ['DeploymentReady', 'Ready', 'ServiceReady'];
const failure = {
  reason: 'StatusWriteFailed' as const,
  message: 'Request entity too large: limit is 3145728',
};

describe('the status that records a failure when the full status cannot be written', () => {
  it('sets Ready=False and observedGeneration from the stored conditions alone', () => {
    const stored = {
      observedGeneration: 1,
      annotations: { huge: 'x'.repeat(10) },
      conditions: [
        {
          type: 'DeploymentReady',
          status: 'True',
          reason: 'MinimumReplicasAvailable',
          message: '',
          lastTransitionTime: THEN,
        },
        { type: 'Ready', status: 'True', reason: 'CONDITIONSOK', message: '', lastTransitionTime: THEN },
        {
          type: 'ServiceReady',
          status: 'True',
          reason: 'ServiceExist',
          message: '',
          lastTransitionTime: THEN,
        },
      ],
    };
    expect(
      failureStatus({ stored, failure, generation: 2, conditionTypes: TYPES, features: ALL, now: NOW }),
    ).toEqual({
      conditions: [
        {
          type: 'DeploymentReady',
          status: 'True',
          reason: 'MinimumReplicasAvailable',
          message: '',
          lastTransitionTime: THEN,
        },
        {
          type: 'Ready',
          status: 'False',
          reason: 'StatusWriteFailed',
          message: failure.message,
          lastTransitionTime: NOW,
        },
        {
          type: 'Reconciling',
          status: 'True',
          reason: 'StatusWriteFailed',
          message: failure.message,
          lastTransitionTime: NOW,
        },
        {
          type: 'ServiceReady',
          status: 'True',
          reason: 'ServiceExist',
          message: '',
          lastTransitionTime: THEN,
        },
      ],
      observedGeneration: 2,
    });
  });

  it('initialises the conditions when none are stored, and leaves out what the CRD cannot hold', () => {
    expect(
      failureStatus({
        stored: undefined,
        failure,
        generation: 1,
        conditionTypes: TYPES,
        features: ALL,
        now: NOW,
      })?.conditions,
    ).toEqual([
      { type: 'DeploymentReady', status: 'Unknown', reason: 'UNKNOWN', message: '', lastTransitionTime: NOW },
      {
        type: 'Ready',
        status: 'False',
        reason: 'StatusWriteFailed',
        message: failure.message,
        lastTransitionTime: NOW,
      },
      {
        type: 'Reconciling',
        status: 'True',
        reason: 'StatusWriteFailed',
        message: failure.message,
        lastTransitionTime: NOW,
      },
      { type: 'ServiceReady', status: 'Unknown', reason: 'UNKNOWN', message: '', lastTransitionTime: NOW },
    ]);
    const withoutConditions = { ...ALL, conditionFields: [] };
    expect(
      failureStatus({
        stored: {},
        failure,
        generation: 3,
        conditionTypes: TYPES,
        features: withoutConditions,
        now: NOW,
      }),
    ).toEqual({ observedGeneration: 3 });
    expect(
      failureStatus({
        stored: {},
        failure,
        generation: 3,
        conditionTypes: TYPES,
        features: { ...withoutConditions, observedGeneration: false },
        now: NOW,
      }),
    ).toBeUndefined();
  });
});
