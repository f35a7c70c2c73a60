import type { KubeObject } from '@scoby/kube-objects';
import { describe, expect, it } from 'vitest';
import { stripManagedFields } from '../../src/informer/transforms.ts';

const ENTRY = { manager: 'scoby-controller', operation: 'Update', fieldsV1: { 'f:data': { 'f:value': {} } } };

describe('stripManagedFields', () => {
  it('returns the object without metadata.managedFields and leaves the original as it was', () => {
    const served: KubeObject = {
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: { namespace: 'shop', name: 'a', labels: { app: 'x' }, managedFields: [ENTRY] },
      data: { value: 'v' },
    };
    expect(stripManagedFields(served)).toEqual({
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: { namespace: 'shop', name: 'a', labels: { app: 'x' } },
      data: { value: 'v' },
    });
    expect(served.metadata.managedFields).toEqual([ENTRY]);
  });

  it('returns an object without managedFields as it is', () => {
    const object: KubeObject = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'a' } };
    expect(stripManagedFields(object)).toBe(object);
  });
});
