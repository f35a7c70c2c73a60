import { describe, expect, it } from 'vitest';
import { groupVersionPath, objectPath } from '../src/api-paths.ts';

describe('groupVersionPath', () => {
  it('puts the core group under /api', () => {
    expect(groupVersionPath('v1')).toBe('/api/v1');
  });

  it('puts named groups under /apis', () => {
    expect(groupVersionPath('eventing.knative.dev/v1')).toBe('/apis/eventing.knative.dev/v1');
  });
});

describe('objectPath', () => {
  const ref = { apiVersion: 'eventing.knative.dev/v1', kind: 'Broker', namespace: 'infra', name: 'default' };

  it('includes the namespace of a namespaced resource', () => {
    expect(objectPath(ref, { name: 'brokers', namespaced: true })).toBe(
      '/apis/eventing.knative.dev/v1/namespaces/infra/brokers/default',
    );
  });

  it('leaves the namespace out for a cluster-scoped resource', () => {
    expect(
      objectPath(
        { ...ref, apiVersion: 'v1', kind: 'Namespace', name: 'shop' },
        { name: 'namespaces', namespaced: false },
      ),
    ).toBe('/api/v1/namespaces/shop');
  });

  it('escapes names so they stay one path segment', () => {
    expect(objectPath({ ...ref, name: 'a/b?c' }, { name: 'brokers', namespaced: true })).toBe(
      '/apis/eventing.knative.dev/v1/namespaces/infra/brokers/a%2Fb%3Fc',
    );
  });
});
