/**
 * metadata.managedFields, as far as clients act on it. The server records field ownership as the
 * configuration each manager applied (see patch/server-side-apply.ts), not as field sets; entries
 * appear in managedFields only for creates with a fieldManager, where a client needs them:
 *
 * - A POST with `?fieldManager=M` makes M's `Update` entry the owner of everything it set. M's later
 *   server-side applies (its `Apply` entry, a different owner) then cannot remove those fields.
 * - A write that turns that `Update` entry into an `Apply` entry of M (what client-go's csaupgrade
 *   does) hands the fields to M's applies: the next apply that leaves one out removes it.
 *
 * The entries carry an empty fieldsV1; clients that rewrite entries keep it as they found it.
 */
import type { KubeObject } from '@scoby/kube-objects';
import type { Cluster } from '../cluster.ts';
import { isJsonMap } from '../json.ts';
import { applyServerSideApply } from '../patch/index.ts';

interface Entry {
  manager?: unknown;
  operation?: unknown;
  subresource?: unknown;
}

/** The managedFields of an object a POST with `fieldManager` created. */
export function creationEntries(manager: string, apiVersion: string, time: string): unknown[] {
  return [{ manager, operation: 'Update', apiVersion, time, fieldsType: 'FieldsV1', fieldsV1: {} }];
}

function hasEntry(entries: unknown, manager: string, operation: 'Update' | 'Apply'): boolean {
  return (
    Array.isArray(entries) &&
    entries.some((entry) => {
      if (!isJsonMap(entry)) return false;
      const { manager: name, operation: op, subresource } = entry as Entry;
      return name === manager && op === operation && (subresource === undefined || subresource === '');
    })
  );
}

/** Remembers what the creating manager's Update entry owns. */
export function recordCreation(cluster: Cluster, object: KubeObject, manager: string, config: unknown): void {
  if (object.metadata.uid !== undefined) cluster.created.set(object.metadata.uid, { manager, config });
}

/**
 * After a write that may have changed managedFields: when the creating manager's Update entry is gone,
 * its fields go to that manager's Apply entry if there is one now, else to nobody.
 */
export function followManagedFields(cluster: Cluster, written: KubeObject): void {
  const uid = written.metadata.uid ?? '';
  const creation = cluster.created.get(uid);
  if (creation === undefined) return;
  const entries = written.metadata.managedFields;
  if (hasEntry(entries, creation.manager, 'Update')) return;
  cluster.created.delete(uid);
  if (!hasEntry(entries, creation.manager, 'Apply')) return;
  const managers = cluster.applied.get(uid) ?? new Map<string, unknown>();
  const applied = managers.get(creation.manager);
  // Owning both sets: the created configuration overlaid with what the manager applied since.
  managers.set(
    creation.manager,
    applied === undefined ? creation.config : applyServerSideApply(creation.config, applied, undefined),
  );
  cluster.applied.set(uid, managers);
}

/** Forgets the ownership records of a removed object. */
export function forgetOwnership(cluster: Cluster, uid: string | undefined): void {
  cluster.applied.delete(uid ?? '');
  cluster.updated.delete(uid ?? '');
  cluster.created.delete(uid ?? '');
}
