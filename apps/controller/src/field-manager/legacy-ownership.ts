/**
 * Fields an earlier version of this controller wrote without naming a field manager: kube-apiserver
 * recorded them under `unknown` (the status of registrations and instances, and Scoby's finalizer).
 * The controller now writes as `scoby-controller`; a merge patch never conflicts, but fields it
 * rewrites with the same value stay `unknown`'s. The JSON patch below hands them to Scoby's entries
 * (docs/spec/children-and-status.md §8.11), as client-go's csaupgrade hands kubectl's over.
 */
import { stripManagedFields, withSharedStrings } from '@scoby/controller-runtime';
import type { KubeObject } from '@scoby/kube-objects';
import { FINALIZER } from '@scoby/registration';
import { isJsonObject } from '@scoby/structural-schema';
import { type FieldSet, unionOfFields } from './field-sets.ts';

/** The manager kube-apiserver records for a write with neither `fieldManager` nor User-Agent. */
export const LEGACY_MANAGER = 'unknown';

type JsonPatchOperation = { op: 'test' | 'replace'; path: string; value: unknown };

interface Entry {
  manager?: unknown;
  operation?: unknown;
  subresource?: unknown;
  apiVersion?: unknown;
  time?: unknown;
  fieldsType?: unknown;
  fieldsV1?: unknown;
}

function entriesOf(object: KubeObject): Entry[] {
  const entries = object.metadata.managedFields;
  return Array.isArray(entries) ? entries.filter(isJsonObject) : [];
}

const isStatusEntry = (entry: Entry) => entry.subresource === 'status';
const isMainEntry = (entry: Entry) => entry.subresource === undefined || entry.subresource === '';

function isLegacy(entry: Entry): boolean {
  return entry.manager === LEGACY_MANAGER && entry.operation === 'Update';
}

/** Scoby's finalizer out of a main-resource field set: what Scoby takes, and what stays. */
function splitFinalizer(fields: unknown, finalizer: string): { taken?: FieldSet; left: FieldSet } {
  const all = isJsonObject(fields) ? fields : {};
  const metadata = isJsonObject(all['f:metadata']) ? all['f:metadata'] : {};
  const finalizers = isJsonObject(metadata['f:finalizers']) ? metadata['f:finalizers'] : {};
  const key = `v:${JSON.stringify(finalizer)}`;
  if (!(key in finalizers)) return { left: all };
  const { [key]: _ours, ...others } = finalizers;
  const listOwned = '.' in finalizers ? { '.': {} } : {};
  const taken = { 'f:metadata': { 'f:finalizers': { ...listOwned, [key]: {} } } };
  const keepsOthers = Object.keys(others).some((name) => name !== '.');
  const { 'f:finalizers': _list, ...otherMetadata } = metadata;
  const leftMetadata = keepsOthers ? { ...otherMetadata, 'f:finalizers': others } : otherMetadata;
  const { 'f:metadata': _metadata, ...rest } = all;
  const left = Object.keys(leftMetadata).length > 0 ? { ...rest, 'f:metadata': leftMetadata } : rest;
  return { taken, left };
}

/**
 * The managedFields with `unknown`'s status entry and its hold on Scoby's finalizer given to
 * `manager`'s Update entries; undefined when `unknown` holds none of them.
 */
export function takenOverEntries(
  object: KubeObject,
  manager: string,
  finalizer: string,
): Entry[] | undefined {
  const entries = entriesOf(object);
  let changed = false;
  let statusFields: FieldSet | undefined;
  let mainFields: FieldSet | undefined;
  const kept: Entry[] = [];
  for (const entry of entries) {
    if (isLegacy(entry) && isStatusEntry(entry)) {
      statusFields = unionOfFields(statusFields, entry.fieldsV1);
      changed = true;
      continue;
    }
    if (isLegacy(entry) && isMainEntry(entry)) {
      const { taken, left } = splitFinalizer(entry.fieldsV1, finalizer);
      if (taken !== undefined) {
        mainFields = unionOfFields(mainFields, taken);
        changed = true;
        if (Object.keys(left).length > 0) kept.push({ ...entry, fieldsV1: left });
        continue;
      }
    }
    kept.push(entry);
  }
  if (!changed) return undefined;
  const apiVersion = object.apiVersion;
  const time = entries.map((entry) => entry.time).find((value) => typeof value === 'string');
  const give = (
    list: Entry[],
    fields: FieldSet | undefined,
    matches: (entry: Entry) => boolean,
    extra: Entry,
  ) => {
    if (fields === undefined) return list;
    const own = list.findIndex(
      (entry) => entry.manager === manager && entry.operation === 'Update' && matches(entry),
    );
    if (own >= 0) {
      const next = [...list];
      next[own] = { ...list[own], fieldsV1: unionOfFields(list[own]?.fieldsV1, fields) };
      return next;
    }
    return [
      ...list,
      {
        manager,
        operation: 'Update',
        apiVersion,
        ...(time === undefined ? {} : { time }),
        fieldsType: 'FieldsV1',
        fieldsV1: fields,
        ...extra,
      },
    ];
  };
  const withStatus = give(kept, statusFields, isStatusEntry, { subresource: 'status' });
  return give(withStatus, mainFields, isMainEntry, {});
}

/**
 * The JSON patch of takenOverEntries, tested against the resourceVersion read so that it fails
 * (409/422) rather than overwrite entries written meanwhile; undefined when there is nothing to take.
 */
export function takeOverPatch(
  object: KubeObject,
  manager: string,
  finalizer: string,
): JsonPatchOperation[] | undefined {
  const entries = takenOverEntries(object, manager, finalizer);
  if (entries === undefined) return undefined;
  return [
    { op: 'test', path: '/metadata/resourceVersion', value: object.metadata.resourceVersion },
    { op: 'replace', path: '/metadata/managedFields', value: entries },
  ];
}

/**
 * The informers' transform: managedFields dropped (they are most of an object's size), except on
 * the rare object where `unknown` still holds Scoby's fields, which the reconcile hands over once;
 * the others' strings shared with the other cached objects' (namespaces, kinds, condition reasons, …).
 */
export function stripManagedFieldsUnlessLegacy<T extends KubeObject>(object: T): T {
  const legacy = entriesOf(object).some(isLegacy) && takenOverEntries(object, '', FINALIZER) !== undefined;
  return legacy ? object : withSharedStrings(stripManagedFields(object));
}
