import type { KubeObject, OwnerReference } from '@scoby/kube-objects';
import type { Cluster } from '../cluster.ts';
import { keyOf } from '../resource-type.ts';
import type { StoreEvent } from '../store.ts';
import { FOREGROUND_FINALIZER, ORPHAN_FINALIZER } from '../verbs/delete.ts';
import { deleteAs, deleting, updateAs, withoutFinalizer, type TypedObject } from './objects.ts';
import { ReconcileLoop } from './reconcile-loop.ts';

/** Resources the garbage collector ignores (core and events.k8s.io Events share one storage key). */
const IGNORED_KEYS: ReadonlySet<string> = new Set(['events']);

/** Owner uid → dependent uid → storage key of the dependent, kept current from the store's events. */
class DependentsIndex {
  private readonly byOwner = new Map<string, Map<string, string>>();

  apply(event: StoreEvent): void {
    const uid = event.object.metadata.uid;
    if (uid === undefined) return;
    for (const reference of event.previous?.metadata.ownerReferences ?? [])
      this.byOwner.get(reference.uid)?.delete(uid);
    if (event.type === 'DELETED') return;
    for (const reference of event.object.metadata.ownerReferences ?? []) {
      const dependents = this.byOwner.get(reference.uid) ?? new Map<string, string>();
      dependents.set(uid, event.key);
      this.byOwner.set(reference.uid, dependents);
    }
  }

  dependents(cluster: Cluster, ownerUid: string): TypedObject[] {
    const result: TypedObject[] = [];
    for (const [uid, key] of this.byOwner.get(ownerUid) ?? []) {
      const object = cluster.store.byUid(uid);
      const type = cluster.registry.byKey(key);
      if (object !== undefined && type !== undefined) result.push({ type, object });
    }
    if (result.length === 0) this.byOwner.delete(ownerUid);
    return result;
  }
}

function located(cluster: Cluster, uid: string): TypedObject | undefined {
  const found = cluster.store.locate(uid);
  const type = found === undefined ? undefined : cluster.registry.byKey(found.key);
  return found === undefined || type === undefined ? undefined : { type, object: found.object };
}

function dropOwners(cluster: Cluster, dependent: TypedObject, ownerUids: ReadonlySet<string>): void {
  const ownerReferences = (dependent.object.metadata.ownerReferences ?? []).filter(
    (reference) => !ownerUids.has(reference.uid),
  );
  const { ownerReferences: _previous, ...metadata } = dependent.object.metadata;
  updateAs(cluster, dependent, {
    ...dependent.object,
    metadata: ownerReferences.length > 0 ? { ...metadata, ownerReferences } : metadata,
  });
}

/**
 * Whether a reference names no live owner, as kube-controller-manager decides it: the owner is looked up
 * by apiVersion, kind and name (in the dependent's namespace when the owner's kind is namespaced) and
 * must have the reference's uid. A kind the server does not serve is not decided: the collector keeps
 * the dependent, as kube's keeps retrying a reference it cannot map.
 */
function dangling(cluster: Cluster, dependent: KubeObject, reference: OwnerReference): boolean {
  const slash = reference.apiVersion.lastIndexOf('/');
  const group = slash < 0 ? '' : reference.apiVersion.slice(0, slash);
  const version = reference.apiVersion.slice(slash + 1);
  const type = cluster.registry
    .inGroupVersion(group, version)
    .find((candidate) => candidate.kind === reference.kind);
  if (type === undefined) return false;
  const namespace = type.namespaced ? dependent.metadata.namespace : undefined;
  const owner = cluster.store.get(keyOf(type), namespace, reference.name);
  return owner?.metadata.uid !== reference.uid;
}

/**
 * Dependents whose owners are all gone are deleted in the background; references to gone owners are
 * dropped. `deletedOwner` is an owner the collector saw deleted: gone even when its kind is no longer
 * served (a CRD deleted after its instances).
 */
function collectIfDangling(cluster: Cluster, dependent: TypedObject, deletedOwner?: string): void {
  const references = dependent.object.metadata.ownerReferences ?? [];
  if (references.length === 0 || deleting(dependent.object)) return;
  const gone = references.filter(
    (reference) => reference.uid === deletedOwner || dangling(cluster, dependent.object, reference),
  );
  if (gone.length === references.length) deleteAs(cluster, dependent, 'Background');
  else if (gone.length > 0) dropOwners(cluster, dependent, new Set(gone.map((reference) => reference.uid)));
}

/** Orphan propagation: dependents lose their reference to the owner, then the owner goes. */
function orphan(cluster: Cluster, owner: TypedObject, dependents: TypedObject[]): void {
  const uid = owner.object.metadata.uid ?? '';
  for (const dependent of dependents) dropOwners(cluster, dependent, new Set([uid]));
  updateAs(cluster, owner, withoutFinalizer(owner.object, ORPHAN_FINALIZER));
}

/**
 * Foreground propagation: dependents are deleted first (in the foreground themselves when they have
 * dependents of their own); the owner waits for those with blockOwnerDeletion.
 */
function foreground(
  cluster: Cluster,
  index: DependentsIndex,
  owner: TypedObject,
  dependents: TypedObject[],
): void {
  const uid = owner.object.metadata.uid ?? '';
  for (const dependent of dependents) {
    if (deleting(dependent.object)) continue;
    const hasDependents = index.dependents(cluster, dependent.object.metadata.uid ?? '').length > 0;
    deleteAs(cluster, dependent, hasDependents ? 'Foreground' : 'Background');
  }
  const blocking = dependents.some(
    ({ object }) =>
      cluster.store.byUid(object.metadata.uid ?? '') !== undefined &&
      (object.metadata.ownerReferences ?? []).some(
        (reference) => reference.uid === uid && reference.blockOwnerDeletion === true,
      ),
  );
  const current = cluster.store.byUid(uid);
  if (!blocking && current !== undefined)
    updateAs(cluster, { type: owner.type, object: current }, withoutFinalizer(current, FOREGROUND_FINALIZER));
}

function gainedOwners(event: StoreEvent): boolean {
  if (event.type === 'ADDED') return true;
  if (event.type !== 'MODIFIED') return false;
  const before = new Set((event.previous?.metadata.ownerReferences ?? []).map((reference) => reference.uid));
  return (event.object.metadata.ownerReferences ?? []).some((reference) => !before.has(reference.uid));
}

/**
 * The garbage collector: works off the owners whose state changed (gone, or being deleted with Orphan
 * or Foreground propagation) and the new objects whose owners may already be gone.
 */
export function startGarbageCollector(cluster: Cluster): () => void {
  const index = new DependentsIndex();
  const owners = new Set<string>();
  /** Objects seen deleted: as owners they are gone whatever their kind maps to now. */
  const deleted = new Set<string>();
  const newDependents = new Set<string>();
  const pass = (): void => {
    const ownerBatch = [...owners];
    const deletedBatch = new Set(deleted);
    deleted.clear();
    const dependentBatch = [...newDependents];
    owners.clear();
    newDependents.clear();
    for (const uid of ownerBatch) {
      const dependents = index.dependents(cluster, uid);
      const owner = located(cluster, uid);
      if (owner === undefined)
        for (const dependent of dependents)
          collectIfDangling(cluster, dependent, deletedBatch.has(uid) ? uid : undefined);
      else if (owner.object.metadata.finalizers?.includes(ORPHAN_FINALIZER))
        orphan(cluster, owner, dependents);
      else if (owner.object.metadata.finalizers?.includes(FOREGROUND_FINALIZER))
        foreground(cluster, index, owner, dependents);
    }
    for (const uid of dependentBatch) {
      const dependent = located(cluster, uid);
      if (dependent !== undefined) collectIfDangling(cluster, dependent);
    }
  };
  const loop = new ReconcileLoop(pass);
  const unsubscribe = cluster.store.subscribe((event) => {
    // kube-controller-manager's collector does not watch Events (its ignored resources): their owner
    // references are never acted on.
    if (IGNORED_KEYS.has(event.key)) return;
    index.apply(event);
    const { metadata } = event.object;
    const uid = metadata.uid ?? '';
    if (event.type === 'DELETED' || metadata.deletionTimestamp !== undefined) {
      owners.add(uid);
      if (event.type === 'DELETED') deleted.add(uid);
      // A dependent that blocked a foreground owner is gone: the owner may now go too.
      if (event.type === 'DELETED')
        for (const reference of metadata.ownerReferences ?? []) owners.add(reference.uid);
      loop.request();
    }
    // An object that gains owners (created with them, or updated to name new ones) is looked at, as
    // kube's graph builder looks up owners it has not seen.
    if (metadata.ownerReferences !== undefined && gainedOwners(event)) {
      newDependents.add(uid);
      loop.request();
    }
  });
  return () => {
    unsubscribe();
    loop.stop();
  };
}
