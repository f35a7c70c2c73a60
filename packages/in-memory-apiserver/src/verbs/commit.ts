import type { KubeObject, ObjectMeta } from '@scoby/kube-objects';
import { atVersion, storageApiVersion, type Cluster } from '../cluster.ts';
import { deepEqual, omit } from '../json.ts';
import { keyOf, type ResourceType } from '../resource-type.ts';
import { invalid, ok, type Outcome } from '../status.ts';
import type { Cause } from '@scoby/structural-schema';
import { invalidValue } from '../validation/field-errors.ts';
import { strategyFor } from '../strategies/index.ts';
import { namespaceSpecFinalizers } from '../strategies/namespace.ts';
import { admit } from './admit.ts';
import { followManagedFields, forgetOwnership } from './managed-fields.ts';

/** Metadata only the server writes: an update keeps the current values. */
const SERVER_METADATA = [
  'name',
  'namespace',
  'uid',
  'creationTimestamp',
  'generation',
  'resourceVersion',
] as const;

/** Deletion metadata a write may not change (422 when it does), kept when the write leaves it out. */
const DELETION_METADATA = ['deletionTimestamp', 'deletionGracePeriodSeconds'] as const;

export function keepServerMetadata(next: KubeObject, current: KubeObject): KubeObject {
  const metadata: Record<string, unknown> = { ...next.metadata };
  for (const key of SERVER_METADATA) {
    if (current.metadata[key] === undefined) delete metadata[key];
    else metadata[key] = current.metadata[key];
  }
  for (const key of DELETION_METADATA) {
    if (metadata[key] === undefined || metadata[key] === null) {
      if (current.metadata[key] === undefined) delete metadata[key];
      else metadata[key] = current.metadata[key];
    }
  }
  // Clients may rewrite managedFields; a write without any keeps the current ones.
  const entries = next.metadata.managedFields;
  if (!Array.isArray(entries) || entries.length === 0) {
    if (current.metadata.managedFields === undefined) delete metadata.managedFields;
    else metadata.managedFields = current.metadata.managedFields;
  }
  return { ...next, metadata: metadata as ObjectMeta };
}

function sameDeletionValue(
  key: (typeof DELETION_METADATA)[number],
  next: unknown,
  current: unknown,
): boolean {
  const absent = (value: unknown) => value === undefined || value === null;
  if (absent(next) || absent(current)) return absent(next) && absent(current);
  if (key === 'deletionTimestamp') return Date.parse(String(next)) === Date.parse(String(current));
  return next === current;
}

/**
 * kube-apiserver checks the deletion metadata as immutable twice (its common update checks and the
 * type's ObjectMeta update validation), so a change is reported by two equal causes.
 */
function deletionMetadataCauses(next: KubeObject, current: KubeObject): Cause[] {
  return DELETION_METADATA.flatMap((key) => {
    const value = next.metadata[key];
    if (sameDeletionValue(key, value, current.metadata[key])) return [];
    const cause = invalidValue(`metadata.${key}`, value ?? null, 'field is immutable');
    return [cause, cause];
  });
}

/** The causes of a failed validation (a 422), as causes again. */
function invalidCauses(outcome: Outcome<unknown>): Cause[] {
  if (outcome.ok || outcome.failure.code !== 422) return [];
  const details = (
    outcome.failure.body as { details?: { causes?: { reason: string; field: string; message: string }[] } }
  ).details;
  return (details?.causes ?? []).map((cause) => ({
    type: cause.reason as Cause['type'],
    field: cause.field,
    message: cause.message,
  }));
}

function specContent(object: KubeObject): unknown {
  return omit(object, ['metadata', 'status']);
}

/** An object being deleted goes away once nothing holds it: no finalizers left (and, for namespaces, no spec finalizers). */
export function released(type: ResourceType, object: KubeObject): boolean {
  if (object.metadata.deletionTimestamp === undefined) return false;
  if ((object.metadata.finalizers ?? []).length > 0) return false;
  return !(type.group === '' && type.plural === 'namespaces' && namespaceSpecFinalizers(object).length > 0);
}

/** A deletion with a grace period left (kube-apiserver's ShouldDeleteDuringUpdate waits for it). */
function graceful(current: KubeObject): boolean {
  const grace = current.metadata.deletionGracePeriodSeconds;
  return typeof grace === 'number' && grace > 0;
}

function addedFinalizers(next: KubeObject, current: KubeObject): string[] {
  const before = new Set(current.metadata.finalizers ?? []);
  return (next.metadata.finalizers ?? []).filter((finalizer) => !before.has(finalizer));
}

/**
 * Stores `next` as the new state of `current`: defaults and validation, the deletion rules, generation
 * bumped only when the spec (anything but metadata and status) changed, no write at all for a no-op, and
 * removal when the last finalizer of an object being deleted is gone.
 */
export function commitUpdate(
  cluster: Cluster,
  type: ResourceType,
  version: string,
  current: KubeObject,
  next: KubeObject,
  dryRun = false,
  subresource?: 'status',
): Outcome<KubeObject> {
  const immutable = deletionMetadataCauses(next, current);
  const strategy = strategyFor(type);
  const prepared = strategy.beforeUpdateValidation ? strategy.beforeUpdateValidation(next, current) : next;
  const admitted = admit(type, version, prepared, atVersion(type, version, current));
  // The deletion metadata is validated with the rest of the update: one 422 names every cause.
  if (immutable.length > 0)
    return invalid(type, current.metadata.name ?? '', [...immutable, ...invalidCauses(admitted)]);
  if (!admitted.ok) return admitted;
  let object = strategy.prepareForUpdate
    ? strategy.prepareForUpdate(admitted.value, current, cluster)
    : admitted.value;
  object = { ...object, apiVersion: storageApiVersion(type) };
  const name = current.metadata.name ?? '';
  if (current.metadata.deletionTimestamp !== undefined) {
    const added = addedFinalizers(object, current);
    if (added.length > 0) {
      return invalid(type, name, [
        {
          type: 'FieldValueForbidden',
          field: 'metadata.finalizers',
          message: `Forbidden: no new finalizers can be added if the object is being deleted, found new finalizers []string{${added.map((finalizer) => JSON.stringify(finalizer)).join(', ')}}`,
        },
      ]);
    }
  }
  if (type.tracksGeneration) {
    const generation = current.metadata.generation ?? 1;
    // A Deployment's generation follows its annotations too (kube's deployment strategy, for rollbacks).
    const annotationsChanged =
      subresource === undefined &&
      type.group === 'apps' &&
      type.plural === 'deployments' &&
      !deepEqual(object.metadata.annotations ?? {}, current.metadata.annotations ?? {});
    const changed = annotationsChanged || !deepEqual(specContent(object), specContent(current));
    object = {
      ...object,
      metadata: { ...object.metadata, generation: changed ? generation + 1 : generation },
    };
  }
  // kube-apiserver deletes an object being deleted (without grace) that an update leaves without
  // finalizers, before it looks whether the update changed anything.
  const deleting = released(type, object) && !graceful(current);
  if (!deleting && deepEqual(omit(object, ['apiVersion']), omit(current, ['apiVersion']))) return ok(current);
  if (dryRun) return ok(object);
  const key = keyOf(type);
  if (deleting) {
    forgetOwnership(cluster, current.metadata.uid);
    const removed = cluster.store.remove(key, object);
    // kube-apiserver answers with the object as this write left it (its last finalizer gone).
    return ok({
      ...object,
      metadata: { ...object.metadata, resourceVersion: removed?.metadata.resourceVersion },
    });
  }
  const written = cluster.store.write(key, object);
  followManagedFields(cluster, written);
  return ok(written);
}
