/**
 * Deciding whether a child needs a write (docs/spec/children-and-status.md §5.1–§5.2).
 */
import crypto from 'node:crypto';
import { compactJson, type KubeObject } from '@scoby/kube-objects';
import { DESIRED_HASH_ANNOTATION, isSlim } from './child-cache.ts';

export { DESIRED_HASH_ANNOTATION };

/** Lowercase hex SHA-256 of the compact JSON of the desired object without the hash annotation. */
export function desiredHash(desired: KubeObject): string {
  const annotations = { ...(desired.metadata.annotations ?? {}) };
  delete annotations[DESIRED_HASH_ANNOTATION];
  const metadata = { ...desired.metadata };
  if (Object.keys(annotations).length > 0) metadata.annotations = annotations;
  else delete metadata.annotations;
  return crypto.hash('sha256', compactJson({ ...desired, metadata }), 'hex');
}

/** The desired object as written: with its hash annotation (`hash` when the caller has it already). */
export function withDesiredHash(desired: KubeObject, hash = desiredHash(desired)): KubeObject {
  return {
    ...desired,
    metadata: {
      ...desired.metadata,
      annotations: {
        ...(desired.metadata.annotations ?? {}),
        [DESIRED_HASH_ANNOTATION]: hash,
      },
    },
  };
}

export function isControlledBy(object: KubeObject, ownerUid: string): boolean {
  return (object.metadata.ownerReferences ?? []).some(
    (reference) => reference.controller === true && reference.uid === ownerUid,
  );
}

/** Desired keys only; null in desired ignored; arrays element-wise with equal length; scalars by value. */
export function covers(existing: unknown, desired: unknown): boolean {
  if (desired === null) return true;
  if (Array.isArray(desired)) {
    return (
      Array.isArray(existing) &&
      existing.length === desired.length &&
      desired.every((item, index) => covers(existing[index], item))
    );
  }
  if (typeof desired === 'object') {
    if (typeof existing !== 'object' || existing === null || Array.isArray(existing)) return false;
    const record = existing as Record<string, unknown>;
    return Object.entries(desired).every(([key, value]) => covers(record[key], value));
  }
  return existing === desired;
}

/** §5.2: exists, controlled, same hash, and no drift in labels, annotations and spec. */
export function isUpToDate(
  existing: KubeObject | undefined,
  desired: KubeObject,
  ownerUid: string,
  hash = desiredHash(desired),
): boolean {
  if (!existing || !isControlledBy(existing, ownerUid)) return false;
  if (existing.metadata.annotations?.[DESIRED_HASH_ANNOTATION] !== hash) return false;
  // Found up to date with this hash, and unchanged since (its fingerprint): so are its labels,
  // annotations, owner reference and spec.
  if (isSlim(existing)) return true;
  const owner = desired.metadata.ownerReferences?.find((reference) => reference.controller === true);
  const ownerPresent = (existing.metadata.ownerReferences ?? []).some((reference) =>
    covers(reference, owner),
  );
  return (
    ownerPresent &&
    covers(existing.metadata.labels ?? {}, desired.metadata.labels ?? {}) &&
    covers(existing.metadata.annotations ?? {}, desired.metadata.annotations ?? {}) &&
    covers(existing.spec, desired.spec ?? null)
  );
}
