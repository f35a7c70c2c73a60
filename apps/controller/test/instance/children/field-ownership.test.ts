import { describe, expect, it } from 'vitest';
import type { KubeObject } from '@scoby/kube-objects';
import { adoptUpdatedFieldsPatch } from '../../../src/instance/children/field-ownership.ts';

function withEntries(managedFields: unknown[]): KubeObject {
  return { apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'mailer-orders', managedFields } };
}

const entry = (manager: string, operation: string, fieldsV1: unknown = {}, subresource?: string) => ({
  manager,
  operation,
  apiVersion: 'apps/v1',
  time: '2025-03-02T10:15:00Z',
  fieldsType: 'FieldsV1',
  fieldsV1,
  ...(subresource ? { subresource } : {}),
});

describe('handing fields Scoby set with an Update to its Apply entry', () => {
  it('needs nothing when Scoby has no Update entry on the object itself', () => {
    expect(adoptUpdatedFieldsPatch(withEntries([]), 'scoby-controller')).toBeUndefined();
    expect(
      adoptUpdatedFieldsPatch(
        withEntries([
          entry('scoby-controller', 'Apply'),
          entry('scoby-controller', 'Update', {}, 'status'),
          entry('kubectl-edit', 'Update'),
        ]),
        'scoby-controller',
      ),
    ).toBeUndefined();
  });

  it('turns the Update entry into the Apply entry when there is none', () => {
    expect(
      adoptUpdatedFieldsPatch(
        withEntries([
          entry('kube-controller-manager', 'Update', {}, 'status'),
          entry('scoby-controller', 'Update'),
        ]),
        'scoby-controller',
      ),
    ).toEqual([
      { op: 'test', path: '/metadata/managedFields/1/manager', value: 'scoby-controller' },
      { op: 'test', path: '/metadata/managedFields/1/operation', value: 'Update' },
      { op: 'replace', path: '/metadata/managedFields/1/operation', value: 'Apply' },
    ]);
  });

  it('merges the Update entry’s fields into the Apply entry and removes it', () => {
    const updated = {
      'f:spec': { 'f:replicas': {}, 'f:template': { 'f:spec': { 'f:serviceAccountName': {} } } },
    };
    const applied = {
      'f:metadata': { 'f:labels': { 'f:app': {} } },
      'f:spec': { 'f:template': { 'f:spec': { 'f:containers': {} } } },
    };
    expect(
      adoptUpdatedFieldsPatch(
        withEntries([
          entry('scoby-controller', 'Apply', applied),
          entry('scoby-controller', 'Update', updated),
        ]),
        'scoby-controller',
      ),
    ).toEqual([
      { op: 'test', path: '/metadata/managedFields/1/manager', value: 'scoby-controller' },
      { op: 'test', path: '/metadata/managedFields/1/operation', value: 'Update' },
      { op: 'test', path: '/metadata/managedFields/0/manager', value: 'scoby-controller' },
      { op: 'test', path: '/metadata/managedFields/0/operation', value: 'Apply' },
      {
        op: 'replace',
        path: '/metadata/managedFields/0/fieldsV1',
        value: {
          'f:metadata': { 'f:labels': { 'f:app': {} } },
          'f:spec': {
            'f:replicas': {},
            'f:template': { 'f:spec': { 'f:containers': {}, 'f:serviceAccountName': {} } },
          },
        },
      },
      { op: 'remove', path: '/metadata/managedFields/1' },
    ]);
  });
});
