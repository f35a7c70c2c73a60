/**
 * Step 9 of the instance reconcile (children-and-status.md §5–§6): prune unwanted children, then create
 * or apply the ones not up to date. Every child is attempted; failures are collected.
 */
import type { KubeObject } from '@scoby/kube-objects';
import { selectPrunable } from '../children/prune.ts';
import { isControlledBy, isUpToDate, withDesiredHash } from '../children/update-detection.ts';
import { errorMessage, isNotFound } from '../kube/api-error.ts';
import type { DynamicClient, ResourceRef } from '../kube/dynamic-client.ts';

export const FIELD_MANAGER = 'scoby-controller';

export interface ChildStore {
  /** Resource of a kind the controller manages; undefined when the cluster does not serve it. */
  resourceFor(apiVersion: string, kind: string): ResourceRef | undefined;
  /** Cached object of a managed kind. */
  get(apiVersion: string, kind: string, namespace: string, name: string): KubeObject | undefined;
  /** Cached objects of the managed kinds in a namespace with the given labels. */
  list(namespace: string, labels: Record<string, string>): KubeObject[];
}

export interface ChildrenOutcome {
  observed: Record<string, KubeObject | undefined>;
  errors: string[];
  /** How many create/apply/delete requests were made (steady state: zero). */
  writes: number;
}

function describe(object: KubeObject): string {
  return `${object.kind} "${object.metadata.namespace ?? ''}/${object.metadata.name ?? ''}"`;
}

export async function writeChildren(
  client: DynamicClient,
  store: ChildStore,
  children: Readonly<Record<string, KubeObject>>,
  owner: { kind: string; name: string; uid: string; namespace: string },
  selector: Record<string, string>,
): Promise<ChildrenOutcome> {
  const errors: string[] = [];
  const observed: Record<string, KubeObject | undefined> = {};
  let writes = 0;

  for (const stale of selectPrunable(store.list(owner.namespace, selector), children, owner.uid)) {
    const resource = store.resourceFor(stale.apiVersion, stale.kind);
    if (!resource) continue;
    try {
      writes++;
      await client.delete(resource, stale.metadata.namespace, stale.metadata.name ?? '', 'Background');
    } catch (error) {
      if (!isNotFound(error)) errors.push(`${describe(stale)}: ${errorMessage(error)}`);
    }
  }

  for (const [key, desired] of Object.entries(children)) {
    const name = desired.metadata.name ?? '';
    const resource = store.resourceFor(desired.apiVersion, desired.kind);
    if (!resource) {
      errors.push(`${describe(desired)}: the cluster does not serve ${desired.apiVersion} ${desired.kind}`);
      continue;
    }
    const existing = store.get(desired.apiVersion, desired.kind, owner.namespace, name);
    if (existing && !isControlledBy(existing, owner.uid)) {
      errors.push(`${describe(desired)} exists and is not controlled by ${owner.kind} "${owner.name}"`);
      continue;
    }
    if (isUpToDate(existing, desired, owner.uid)) {
      observed[key] = existing;
      continue;
    }
    try {
      writes++;
      observed[key] = await client.apply(resource, withDesiredHash(desired), FIELD_MANAGER);
    } catch (error) {
      errors.push(`${describe(desired)}: ${errorMessage(error)}`);
    }
  }
  return { observed, errors, writes };
}
