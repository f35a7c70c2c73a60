import { describe, expect, it } from 'vitest';
import type { KubeObject } from '@scoby/kube-objects';
import {
  stripManagedFieldsUnlessLegacy,
  takenOverEntries,
  takeOverPatch,
} from '../../src/field-manager/legacy-ownership.ts';

const FINALIZER = 'scoby.triggermesh.io/finalizer';
const OURS = `v:"${FINALIZER}"`;
const TIME = '2025-01-01T00:00:00Z';

function object(entries: unknown[]): KubeObject {
  return {
    apiVersion: 'shop.example.com/v1',
    kind: 'Mailer',
    metadata: { name: 'orders', namespace: 'shop', resourceVersion: '42', managedFields: entries },
  };
}

const entry = (manager: string, fieldsV1: unknown, extra: Record<string, unknown> = {}) => ({
  manager,
  operation: 'Update',
  apiVersion: 'shop.example.com/v1',
  time: TIME,
  fieldsType: 'FieldsV1',
  fieldsV1,
  ...extra,
});

describe('taking over what unknown wrote (docs/spec/children-and-status.md §8.11)', () => {
  it('merges unknown status fields and its hold on the finalizer into Scoby entries that exist', () => {
    const entries = takenOverEntries(
      object([
        entry('unknown', { 'f:metadata': { 'f:finalizers': { '.': {}, [OURS]: {} } } }),
        entry('unknown', { 'f:status': { 'f:smtpHost': {} } }, { subresource: 'status' }),
        entry('scoby-controller', { 'f:status': { 'f:conditions': {} } }, { subresource: 'status' }),
        entry('kubectl-edit', { 'f:spec': { 'f:size': {} } }),
      ]),
      'scoby-controller',
      FINALIZER,
    );
    expect(entries).toEqual([
      entry(
        'scoby-controller',
        { 'f:status': { 'f:conditions': {}, 'f:smtpHost': {} } },
        { subresource: 'status' },
      ),
      entry('kubectl-edit', { 'f:spec': { 'f:size': {} } }),
      entry('scoby-controller', { 'f:metadata': { 'f:finalizers': { '.': {}, [OURS]: {} } } }),
    ]);
  });

  it('leaves an object alone where unknown holds none of Scoby fields', () => {
    const untouched = object([entry('unknown', { 'f:spec': { 'f:size': {} } })]);
    expect(takenOverEntries(untouched, 'scoby-controller', FINALIZER)).toBeUndefined();
    expect(takeOverPatch(untouched, 'scoby-controller', FINALIZER)).toBeUndefined();
  });

  it('tests the resourceVersion it read before replacing managedFields', () => {
    const legacy = object([entry('unknown', { 'f:status': {} }, { subresource: 'status' })]);
    expect(takeOverPatch(legacy, 'scoby-controller', FINALIZER)).toEqual([
      { op: 'test', path: '/metadata/resourceVersion', value: '42' },
      {
        op: 'replace',
        path: '/metadata/managedFields',
        value: [entry('scoby-controller', { 'f:status': {} }, { subresource: 'status' })],
      },
    ]);
  });

  it("keeps managedFields in the cache only where unknown holds Scoby's fields", () => {
    const legacy = object([entry('unknown', { 'f:status': {} }, { subresource: 'status' })]);
    const created = object([entry('unknown', { 'f:spec': {} })]);
    const plain = object([entry('kubectl', { 'f:spec': {} })]);
    expect(stripManagedFieldsUnlessLegacy(legacy)).toBe(legacy);
    expect(stripManagedFieldsUnlessLegacy(created).metadata.managedFields).toBeUndefined();
    expect(stripManagedFieldsUnlessLegacy(plain).metadata.managedFields).toBeUndefined();
  });
});
