/**
 * Step 9 of the instance reconcile (children-and-status.md §5–§6): prune unwanted children, then create
 * or apply the ones not up to date. Every child is attempted; failures are collected.
 *
 * Scoby never modifies an object it does not control (§5.1). The informer caches only hold objects
 * with Scoby's managed-by label, so a name missing there is read from the API server before anything
 * is written, and every write names the object it means by uid: an apply carries the uid of the object
 * read (the API server rejects an apply that would change an object's uid), and a prune deletes with a
 * uid precondition. An object that appears or is replaced between the read and the write therefore
 * makes the write fail instead of being taken over.
 */
import type { KubeObject } from '@scoby/kube-objects';
import { selectPrunable } from '../children/prune.ts';
import { isControlledBy, isUpToDate, withDesiredHash } from '../children/update-detection.ts';
import { ApiError, errorMessage, isConflict, isNotFound } from '../kube/api-error.ts';
import type { DynamicClient, ResourceRef } from '../kube/dynamic-client.ts';

export const FIELD_MANAGER = 'scoby-controller';

/**
 * The uid an apply carries when no object exists under the child's name: no object has it, so the
 * API server answers 422 if one appeared meanwhile, and assigns its own uid when it creates the child.
 */
export const NO_OBJECT_UID = '00000000-0000-0000-0000-000000000000';

export interface ChildStore {
  /** Resource of a kind the controller manages; undefined when the cluster does not serve it. */
  resourceFor(apiVersion: string, kind: string): ResourceRef | undefined;
  /** Cached object of a managed kind. */
  get(apiVersion: string, kind: string, namespace: string, name: string): KubeObject | undefined;
  /** Cached objects of the managed kinds in a namespace with the given labels. */
  list(namespace: string, labels: Record<string, string>): KubeObject[];
}

export interface ChildOwner {
  kind: string;
  name: string;
  uid: string;
  namespace: string;
}

export interface ChildrenOutcome {
  observed: Record<string, KubeObject | undefined>;
  errors: string[];
  /** How many create/apply/delete requests were made (steady state: zero). */
  writes: number;
}

type ChildOutcome = { observed: KubeObject; writes: number } | { error: string; writes: number };

function describe(object: KubeObject): string {
  return `${object.kind} "${object.metadata.namespace ?? ''}/${object.metadata.name ?? ''}"`;
}

/** §5.1's error for an object under a child's name that the instance does not control. */
export function notControlledMessage(desired: KubeObject, owner: ChildOwner): string {
  return `${describe(desired)} exists and is not controlled by ${owner.kind} "${owner.name}"`;
}

/** The object under the child's name as the API server has it now; undefined when there is none. */
async function readLive(
  client: DynamicClient,
  resource: ResourceRef,
  desired: KubeObject,
): Promise<KubeObject | undefined> {
  try {
    return await client.get(resource, desired.metadata.namespace, desired.metadata.name ?? '');
  } catch (error) {
    if (isNotFound(error)) return undefined;
    throw error;
  }
}

/** The answer the API server gives when an apply's uid is not the uid of the object under that name. */
function mayBeUidMismatch(error: unknown): boolean {
  return error instanceof ApiError && (error.code === 422 || error.code === 409);
}

async function writeChild(
  client: DynamicClient,
  resource: ResourceRef,
  desired: KubeObject,
  cached: KubeObject | undefined,
  owner: ChildOwner,
): Promise<ChildOutcome> {
  let current: KubeObject | undefined;
  try {
    current = cached ?? (await readLive(client, resource, desired));
  } catch (error) {
    return { error: `${describe(desired)}: ${errorMessage(error)}`, writes: 0 };
  }
  if (current && !isControlledBy(current, owner.uid))
    return { error: notControlledMessage(desired, owner), writes: 0 };
  if (current && isUpToDate(current, desired, owner.uid)) return { observed: current, writes: 0 };

  const written = withDesiredHash(desired);
  const expected = {
    ...written,
    metadata: { ...written.metadata, uid: current?.metadata.uid ?? NO_OBJECT_UID },
  };
  try {
    return { observed: await client.apply(resource, expected, FIELD_MANAGER), writes: 1 };
  } catch (error) {
    if (mayBeUidMismatch(error)) {
      // Someone else's object took the name between our read and the apply: say so, not the 422.
      const live = await readLive(client, resource, desired).catch(() => undefined);
      if (live && !isControlledBy(live, owner.uid))
        return { error: notControlledMessage(desired, owner), writes: 1 };
    }
    return { error: `${describe(desired)}: ${errorMessage(error)}`, writes: 1 };
  }
}

export async function writeChildren(
  client: DynamicClient,
  store: ChildStore,
  children: Readonly<Record<string, KubeObject>>,
  owner: ChildOwner,
  selector: Record<string, string>,
): Promise<ChildrenOutcome> {
  const errors: string[] = [];
  const observed: Record<string, KubeObject | undefined> = {};
  let writes = 0;

  for (const stale of selectPrunable(store.list(owner.namespace, selector), children, owner.uid)) {
    const resource = store.resourceFor(stale.apiVersion, stale.kind);
    const uid = stale.metadata.uid;
    if (!resource || uid === undefined) continue;
    try {
      writes++;
      await client.delete(resource, stale.metadata.namespace, stale.metadata.name ?? '', {
        preconditions: { uid },
      });
    } catch (error) {
      // A failed uid precondition (409) means our child is gone and another object holds the name.
      if (!isNotFound(error) && !isConflict(error)) errors.push(`${describe(stale)}: ${errorMessage(error)}`);
    }
  }

  for (const [key, desired] of Object.entries(children)) {
    const resource = store.resourceFor(desired.apiVersion, desired.kind);
    if (!resource) {
      errors.push(`${describe(desired)}: the cluster does not serve ${desired.apiVersion} ${desired.kind}`);
      continue;
    }
    const cached = store.get(desired.apiVersion, desired.kind, owner.namespace, desired.metadata.name ?? '');
    const outcome = await writeChild(client, resource, desired, cached, owner);
    writes += outcome.writes;
    if ('error' in outcome) errors.push(outcome.error);
    else observed[key] = outcome.observed;
  }
  return { observed, errors, writes };
}
