/**
 * What the caches keep of a child (docs/spec/children-and-status.md §5.2). A child is cached whole
 * until the controller has found it up to date; from then on the cache keeps only what is read
 * again (metadata, status, the fields the form factors' `status` declares) and the child's
 * fingerprint: a hash of everything else but status. What it keeps shares its strings with the
 * other cached objects' (controller-runtime's withSharedStrings). A later version with the same fingerprint (a
 * status change, a new resourceVersion) is known up to date without its spec; a version with another
 * fingerprint (someone edited the child) is cached whole again and checked against the desired one.
 */
import crypto from 'node:crypto';
import type { KubeObject, ObjectMeta } from '@scoby/kube-objects';
import { sharedString, stripManagedFields, withSharedStrings } from '@scoby/controller-runtime';

/** §5.2's annotation with the hash of the desired object a child was written from. */
export const DESIRED_HASH_ANNOTATION = 'scoby.triggermesh.io/desired-hash';

/** Where a slim child keeps its fingerprint: a symbol, so no serialisation or spread copies it. */
export const FINGERPRINT: unique symbol = Symbol('scoby.child-fingerprint');

/** A child known up to date with its `desired-hash` annotation, with only what is read kept. */
export type SlimChild = KubeObject & { readonly [FINGERPRINT]: string };

export function isSlim(object: KubeObject): object is SlimChild {
  return typeof (object as Partial<SlimChild>)[FINGERPRINT] === 'string';
}

/** The metadata fields the controller reads of a child: identity, ownership, labels, annotations. */
const KEPT_METADATA = [
  'name',
  'namespace',
  'uid',
  'resourceVersion',
  'generation',
  'labels',
  'annotations',
  'ownerReferences',
  'deletionTimestamp',
  'finalizers',
] as const satisfies readonly (keyof ObjectMeta)[];

/** A slim child is frozen: its empty objects and arrays can be the one frozen empty object and array. */
const SHARE_EMPTY = { shareEmpty: true } as const;

/** The fields left out of the fingerprint: they change without anyone changing what Scoby set. */
const UNFINGERPRINTED_METADATA = new Set(['resourceVersion', 'generation', 'managedFields']);

/**
 * SHA-256 (base64url, 128 bits) of the child without status and without the metadata that changes
 * on its own (resourceVersion, generation, managedFields): equal fingerprints, equal spec, labels,
 * annotations and owner references.
 */
export function childFingerprint(object: KubeObject): string {
  const { status: _status, metadata, ...rest } = object;
  const kept: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(metadata)) {
    if (!UNFINGERPRINTED_METADATA.has(key)) kept[key] = value;
  }
  return crypto.hash('sha256', JSON.stringify([kept, rest]), 'base64url').slice(0, 22);
}

/** The slim, frozen form of `object` whose fingerprint is `fingerprint`. */
export function slimChild(
  object: KubeObject,
  observedFields: readonly string[],
  fingerprint: string,
): SlimChild {
  const metadata: Record<string, unknown> = {};
  for (const key of KEPT_METADATA) {
    if (object.metadata[key] !== undefined)
      metadata[key] = withSharedStrings(object.metadata[key], SHARE_EMPTY);
  }
  // The fingerprint attests every other annotation: a slim child is checked by its hash alone.
  const hash = object.metadata.annotations?.[DESIRED_HASH_ANNOTATION];
  if (hash === undefined) delete metadata['annotations'];
  else metadata['annotations'] = Object.freeze({ [DESIRED_HASH_ANNOTATION]: hash });
  const slim: Record<string | symbol, unknown> = {
    apiVersion: sharedString(object.apiVersion),
    kind: sharedString(object.kind),
    metadata: Object.freeze(metadata),
  };
  for (const field of ['status', ...observedFields]) {
    if (field === 'metadata' || field.startsWith('metadata.')) continue;
    copyPath(object as unknown as Record<string, unknown>, slim, field.split('.'));
  }
  slim[FINGERPRINT] = fingerprint;
  return Object.freeze(slim) as unknown as SlimChild;
}

/**
 * Copies the value at `path` of `source` (a top-level field, or a dotted path such as
 * `spec.selector`) into `target`, creating the objects on the way; an absent value copies nothing.
 */
function copyPath(
  source: Record<string, unknown>,
  target: Record<string, unknown>,
  path: readonly string[],
): void {
  const [head, ...rest] = path;
  if (head === undefined) return;
  const value = source[head];
  if (value === undefined) return;
  if (rest.length === 0) {
    target[head] = withSharedStrings(value, SHARE_EMPTY);
    return;
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return;
  const existing = target[head];
  const child =
    typeof existing === 'object' && existing !== null ? (existing as Record<string, unknown>) : {};
  copyPath(value as Record<string, unknown>, child, rest);
  if (Object.keys(child).length > 0) target[head] = child;
}

/**
 * The cache policy of one child kind, shared by every registration that manages the kind (as its
 * informer is). `observedFields` undefined: a form factor managing the kind declared nothing, so
 * its children are cached whole (without managedFields) and never slimmed.
 */
export class ChildCachePolicy {
  readonly #observedFields: readonly string[] | undefined;
  /**
   * uid → resourceVersion of children found up to date before their cache entry arrived (the write's
   * answer came before its watch event). Removed when an event of that uid arrives.
   */
  readonly #upToDateAhead = new Map<string, string>();

  constructor(observedFields: readonly string[] | undefined) {
    this.#observedFields = observedFields;
  }

  get slims(): boolean {
    return this.#observedFields !== undefined;
  }

  /** The informer's transform. */
  readonly transform = (object: KubeObject, cached?: KubeObject): KubeObject => {
    const full = stripManagedFields(object);
    const observedFields = this.#observedFields;
    if (observedFields === undefined) return full;
    const { uid, resourceVersion } = object.metadata;
    const ahead = uid === undefined ? undefined : this.#upToDateAhead.get(uid);
    if (uid !== undefined) this.#upToDateAhead.delete(uid);
    const carriedOver = cached !== undefined && isSlim(cached) && cached.metadata.uid === uid;
    if (!carriedOver && ahead !== resourceVersion) return full;
    const fingerprint = childFingerprint(full);
    if (ahead === resourceVersion || (cached as SlimChild)[FINGERPRINT] === fingerprint)
      return slimChild(full, observedFields, fingerprint);
    return full;
  };

  /**
   * The reconcile found `child` (whole: from the cache or an API server answer) up to date: the
   * cache keeps its slim form from now on. `recache` puts it in place of the cached version when
   * the cache holds that version already; otherwise it is slimmed when it arrives.
   */
  upToDate(child: KubeObject, recache: (slim: KubeObject) => boolean): void {
    const observedFields = this.#observedFields;
    const { uid, resourceVersion } = child.metadata;
    if (observedFields === undefined || isSlim(child) || uid === undefined || resourceVersion === undefined)
      return;
    const full = stripManagedFields(child);
    if (!recache(slimChild(full, observedFields, childFingerprint(full))))
      this.#upToDateAhead.set(uid, resourceVersion);
  }

  /** A deleted child's note goes with it. */
  forget(child: KubeObject): void {
    if (child.metadata.uid !== undefined) this.#upToDateAhead.delete(child.metadata.uid);
  }
}

interface DeclaringFormFactor {
  managedKinds: readonly { apiVersion: string; kind: string }[];
  observedFields?: readonly string[];
}

/** Fields of a child kind the controller itself reads, besides what the form factors declare. */
export interface ControllerReads {
  apiVersion: string;
  kind: string;
  fields: readonly string[];
}

/** The group of an apiVersion (`apps/v1` → `apps`, `v1` → ``). */
function groupOf(apiVersion: string): string {
  const slash = apiVersion.indexOf('/');
  return slash < 0 ? '' : apiVersion.slice(0, slash);
}

/**
 * One policy per child kind (group and kind) for the process: the fields kept are those every form
 * factor managing the kind reads; a kind one of them reads whole is cached whole.
 */
export class ChildCachePolicies {
  readonly #formFactors: readonly DeclaringFormFactor[];
  readonly #controllerReads: readonly ControllerReads[];
  readonly #policies = new Map<string, ChildCachePolicy>();

  constructor(formFactors: readonly DeclaringFormFactor[], controllerReads: readonly ControllerReads[] = []) {
    this.#formFactors = formFactors;
    this.#controllerReads = controllerReads;
  }

  for(apiVersion: string, kind: string): ChildCachePolicy {
    const key = `${groupOf(apiVersion)}/${kind}`;
    let policy = this.#policies.get(key);
    if (policy === undefined) {
      policy = new ChildCachePolicy(this.#observedFieldsOf(groupOf(apiVersion), kind));
      this.#policies.set(key, policy);
    }
    return policy;
  }

  #observedFieldsOf(group: string, kind: string): string[] | undefined {
    const fields = new Set<string>();
    for (const formFactor of this.#formFactors) {
      const manages = formFactor.managedKinds.some(
        (managed) => managed.kind === kind && groupOf(managed.apiVersion) === group,
      );
      if (!manages) continue;
      if (formFactor.observedFields === undefined) return undefined;
      for (const field of formFactor.observedFields) fields.add(field);
    }
    for (const reads of this.#controllerReads) {
      if (reads.kind !== kind || groupOf(reads.apiVersion) !== group) continue;
      for (const field of reads.fields) fields.add(field);
    }
    return [...fields].sort();
  }
}
