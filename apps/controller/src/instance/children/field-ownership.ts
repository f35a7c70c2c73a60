/**
 * Server-side apply removes a field a manager stopped applying only when that manager's Apply entry
 * owns it. A child Scoby creates with POST (the one create that fails when the name is taken) is owned
 * by Scoby's Update entry instead, so later applies could never drop an environment variable or label
 * set at creation. The JSON patch below turns that Update entry into Scoby's Apply entry (merged into
 * it when there is one), as client-go's csaupgrade does for kubectl.
 */
import { isJsonObject } from '@scoby/structural-schema';
import type { KubeObject } from '@scoby/kube-objects';
import { unionOfFields } from '../../field-manager/field-sets.ts';

type JsonPatchOperation =
  { op: 'test' | 'replace'; path: string; value: unknown } | { op: 'remove'; path: string };

interface ManagedFieldsEntry {
  manager?: unknown;
  operation?: unknown;
  subresource?: unknown;
  fieldsV1?: unknown;
}

function entryIndex(entries: readonly unknown[], manager: string, operation: 'Update' | 'Apply'): number {
  return entries.findIndex((entry) => {
    if (!isJsonObject(entry)) return false;
    const { manager: name, operation: op, subresource } = entry as ManagedFieldsEntry;
    return name === manager && op === operation && (subresource === undefined || subresource === '');
  });
}

/** The patch giving `manager`'s Update entry to its Apply entry; undefined when it has none. */
export function adoptUpdatedFieldsPatch(
  object: KubeObject,
  manager: string,
): JsonPatchOperation[] | undefined {
  const entries = Array.isArray(object.metadata.managedFields) ? object.metadata.managedFields : [];
  const updated = entryIndex(entries, manager, 'Update');
  if (updated < 0) return undefined;
  const at = (index: number, field: string) => `/metadata/managedFields/${index}/${field}`;
  // The tests make the patch fail, rather than rewrite another entry, if the list changed meanwhile.
  const identify = (index: number, operation: string): JsonPatchOperation[] => [
    { op: 'test', path: at(index, 'manager'), value: manager },
    { op: 'test', path: at(index, 'operation'), value: operation },
  ];
  const applied = entryIndex(entries, manager, 'Apply');
  if (applied < 0) {
    return [
      ...identify(updated, 'Update'),
      { op: 'replace', path: at(updated, 'operation'), value: 'Apply' },
    ];
  }
  const union = unionOfFields(
    (entries[applied] as ManagedFieldsEntry).fieldsV1,
    (entries[updated] as ManagedFieldsEntry).fieldsV1,
  );
  return [
    ...identify(updated, 'Update'),
    ...identify(applied, 'Apply'),
    { op: 'replace', path: at(applied, 'fieldsV1'), value: union },
    { op: 'remove', path: `/metadata/managedFields/${updated}` },
  ];
}
