import { describe, expect, it } from 'vitest';
import { eventTimestamp, involvedObject, newEvent } from '../../src/events/event-object.ts';

const instance = {
  apiVersion: 'notify.example.com/v1',
  kind: 'Mailer',
  metadata: {
    namespace: 'shop',
    name: 'orders',
    uid: '7c1e2a4b-5d6f-4a81-9b0c-2e3f4a5b6c7d',
    resourceVersion: '42',
  },
};

describe('Event objects', () => {
  it('formats timestamps as RFC 3339 with whole seconds', () => {
    expect(eventTimestamp(Date.UTC(2024, 4, 1, 10, 0, 7, 999))).toBe('2024-05-01T10:00:07Z');
  });

  it('references the involved object', () => {
    expect(involvedObject(instance)).toEqual({
      apiVersion: 'notify.example.com/v1',
      kind: 'Mailer',
      name: 'orders',
      namespace: 'shop',
      uid: '7c1e2a4b-5d6f-4a81-9b0c-2e3f4a5b6c7d',
      resourceVersion: '42',
    });
    expect(
      involvedObject({
        apiVersion: 'scoby.triggermesh.io/v1alpha1',
        kind: 'CRDRegistration',
        metadata: { name: 'mailer' },
      }),
    ).toEqual({
      apiVersion: 'scoby.triggermesh.io/v1alpha1',
      kind: 'CRDRegistration',
      name: 'mailer',
    });
  });

  it('builds a complete core/v1 Event', () => {
    const source = { component: 'scoby-controller', reportingInstance: 'pod-1' };
    expect(
      newEvent('orders.1', instance, 'Warning', 'RenderFailed', 'spec.x: bad', source, Date.UTC(2024, 4, 1)),
    ).toEqual({
      apiVersion: 'v1',
      kind: 'Event',
      metadata: { name: 'orders.1', namespace: 'shop' },
      involvedObject: involvedObject(instance),
      type: 'Warning',
      reason: 'RenderFailed',
      message: 'spec.x: bad',
      source: { component: 'scoby-controller' },
      reportingComponent: 'scoby-controller',
      reportingInstance: 'pod-1',
      firstTimestamp: '2024-05-01T00:00:00Z',
      lastTimestamp: '2024-05-01T00:00:00Z',
      count: 1,
    });
  });

  it('puts Events of cluster-scoped objects in default', () => {
    const registration = {
      apiVersion: 'scoby.triggermesh.io/v1alpha1',
      kind: 'CRDRegistration',
      metadata: { name: 'mailer' },
    };
    const source = { component: 'scoby-controller', reportingInstance: 'pod-1' };
    expect(newEvent('mailer.1', registration, 'Warning', 'X', 'y', source, 0).metadata).toEqual({
      name: 'mailer.1',
      namespace: 'default',
    });
  });
});
