/**
 * Step 9 of the instance reconcile (docs/spec/children-and-status.md §5–§6): prune unwanted children, then create
 * or apply the ones not up to date. Every child is attempted; failures are collected.
 *
 * Scoby never modifies an object it does not control (§5.1), and it checks that on the object its
 * write lands on, not on its cache alone (the caches only hold objects with Scoby's managed-by label):
 *
 * - a name the cache lacks is created with POST (never an apply, which would merge into an object
 *   someone else holds under that name); only when the name is taken (409 AlreadyExists) is the object
 *   read, and then written only if the instance controls it (e.g. a child whose labels were removed);
 * - an apply carries the uid of the controlled object it updates, so the API server refuses it if
 *   that object was replaced (422) or deleted (409) since it was read;
 * - a prune deletes with a uid precondition, so a replacement is never deleted.
 */
import type { KubeObject } from '@scoby/kube-objects';
import { adoptUpdatedFieldsPatch } from './field-ownership.ts';
import { FIELD_MANAGER } from '../../config/build-info.ts';
import { selectPrunable } from './prune.ts';
import { desiredHash, isControlledBy, isUpToDate, withDesiredHash } from './update-detection.ts';
import {
  ApiError,
  type CallOptions,
  type DynamicClient,
  errorMessage,
  isAbortError,
  isAlreadyExists,
  isConflict,
  isNotFound,
  loadRefusal,
  JSON_PATCH,
  type ResourceRef,
} from '@scoby/controller-runtime';

export interface ChildStore {
  /** Resource of a kind the controller manages; undefined when the cluster does not serve it. */
  resourceFor(apiVersion: string, kind: string): ResourceRef | undefined;
  /** Cached object of a managed kind. */
  get(apiVersion: string, kind: string, namespace: string, name: string): KubeObject | undefined;
  /** Cached objects of the managed kinds in a namespace with the given labels. */
  list(namespace: string, labels: Record<string, string>): KubeObject[];
  /**
   * `child` (cached, or as the API server answered) is up to date: the cache may keep less of it
   * from now on (docs/spec/children-and-status.md §5.2).
   */
  upToDate(child: KubeObject): void;
}

export interface ChildOwner {
  kind: string;
  name: string;
  uid: string;
  namespace: string;
}

/** A child this reconcile changed on the API server, as its Event and log line name it. */
export interface ChildChange {
  action: 'created' | 'updated' | 'pruned';
  /** `Kind namespace/name`. */
  child: string;
}

export interface ChildrenOutcome {
  observed: Record<string, KubeObject | undefined>;
  errors: string[];
  /** How many create/apply/patch/delete requests were made (steady state: zero). */
  writes: number;
  /** What changed, in the order it happened (steady state: nothing). */
  changes: ChildChange[];
  /** The children created or updated, as the API server answered the write. */
  written: KubeObject[];
}

function childName(object: KubeObject): string {
  return `${object.kind} ${object.metadata.namespace ?? ''}/${object.metadata.name ?? ''}`;
}

function describe(object: KubeObject): string {
  return `${object.kind} "${object.metadata.namespace ?? ''}/${object.metadata.name ?? ''}"`;
}

/** §5.1's error for an object under a child's name that the instance does not control. */
export function notControlledMessage(desired: KubeObject, owner: ChildOwner): string {
  return `${describe(desired)} exists and is not controlled by ${owner.kind} "${owner.name}"`;
}

/** What a write learnt when it was refused because the object changed: the object now, if it read it. */
const UNREAD = Symbol('unread');
type Attempt = { observed: KubeObject } | { refused: KubeObject | undefined | typeof UNREAD };

/** Writes one child; `writes` counts its requests that change something. */
class ChildWriter {
  writes = 0;
  /** Set once the child was created or updated on the API server. */
  action: 'created' | 'updated' | undefined;
  readonly #client: DynamicClient;
  readonly #resource: ResourceRef;
  readonly #desired: KubeObject;
  readonly #owner: ChildOwner;
  readonly #upToDate: (child: KubeObject) => void;
  /** The reconcile's cancellation: no request is sent once it has fired. */
  readonly #call: CallOptions;
  /** The desired object's hash, computed once (it is not cheap), when first needed. */
  #hash: string | undefined;

  constructor(
    client: DynamicClient,
    resource: ResourceRef,
    desired: KubeObject,
    owner: ChildOwner,
    call: CallOptions,
    upToDate: (child: KubeObject) => void,
  ) {
    this.#call = call;
    this.#upToDate = upToDate;
    this.#client = client;
    this.#resource = resource;
    this.#desired = desired;
    this.#owner = owner;
  }

  /**
   * The observed child, or the error. A name the cache lacks is created first: the cache holds every
   * child Scoby labelled, so a read first would nearly always find nothing. A write refused because
   * the object changed (or the name was taken) is tried once more, with the object read.
   */
  async write(cached: KubeObject | undefined): Promise<{ observed: KubeObject } | { error: string }> {
    // A cached child that needs a write is read first: the caches hold no managedFields (the informers
    // strip them), and the hand-over of the fields set at creation needs them.
    let current: KubeObject | undefined | typeof UNREAD =
      cached !== undefined && !isUpToDate(cached, this.#desired, this.#owner.uid, this.#desiredHash())
        ? UNREAD
        : cached;
    for (let attempt = 1; ; attempt++) {
      try {
        if (current === UNREAD) current = await this.#readLive();
        if (current !== undefined && !isControlledBy(current, this.#owner.uid)) {
          return { error: notControlledMessage(this.#desired, this.#owner) };
        }
        const outcome: Attempt = current === undefined ? await this.#create() : await this.#update(current);
        if ('observed' in outcome) {
          if (isUpToDate(outcome.observed, this.#desired, this.#owner.uid, this.#desiredHash()))
            this.#upToDate(outcome.observed);
          return outcome;
        }
        current = outcome.refused;
      } catch (error) {
        // An aborted reconcile stops here: no further write, and no failure to record; nor a write
        // the API server refused for load (the reconcile is retried when the server asked).
        if (isAbortError(error) || loadRefusal(error)) throw error;
        return { error: `${describe(this.#desired)}: ${errorMessage(error)}` };
      }
      if (attempt === 2) {
        return { error: `${describe(this.#desired)}: the object kept changing while it was written` };
      }
    }
  }

  /** The object under the child's name as the API server has it now; undefined when there is none. */
  async #readLive(): Promise<KubeObject | undefined> {
    try {
      return await this.#client.get(
        this.#resource,
        this.#desired.metadata.namespace,
        this.#desired.metadata.name ?? '',
        this.#call,
      );
    } catch (error) {
      if (isNotFound(error)) return undefined;
      throw error;
    }
  }

  #desiredHash(): string {
    this.#hash ??= desiredHash(this.#desired);
    return this.#hash;
  }

  /** Refused when someone else created an object of that name first. */
  async #create(): Promise<Attempt> {
    let created: KubeObject;
    try {
      this.writes++;
      const written = withDesiredHash(this.#desired, this.#desiredHash());
      created = await this.#client.create(this.#resource, written, FIELD_MANAGER, this.#call);
    } catch (error) {
      if (isAlreadyExists(error)) return { refused: UNREAD };
      throw error;
    }
    this.action = 'created';
    return { observed: created };
  }

  /** Refused when the object was replaced or deleted since it was read. */
  async #update(current: KubeObject): Promise<Attempt> {
    if (isUpToDate(current, this.#desired, this.#owner.uid, this.#desiredHash()))
      return { observed: current };
    // Only an apply needs the fields set at creation; handing them over earlier would cost a write.
    const adopted = await this.#adoptUpdatedFields(current);
    // The hand-over reads the object again when its patch is refused; by then it may be another one.
    if (adopted.metadata.uid !== current.metadata.uid) return { refused: adopted };
    const written = withDesiredHash(this.#desired, this.#desiredHash());
    const expected = { ...written, metadata: { ...written.metadata, uid: adopted.metadata.uid } };
    try {
      this.writes++;
      const applied = await this.#client.apply(this.#resource, expected, FIELD_MANAGER, this.#call);
      this.action ??= 'updated';
      return { observed: applied };
    } catch (error) {
      // The API server answers 422 to an apply whose uid is not the current object's, 409 when it is gone.
      if (!(error instanceof ApiError) || (error.code !== 422 && error.code !== 409)) throw error;
      const live = await this.#readLive();
      if (live?.metadata.uid === adopted.metadata.uid) throw error;
      return { refused: live };
    }
  }

  /**
   * Makes the fields Scoby's Update entry owns (set at creation) owned by its applies. The patch names
   * entries by position; when another manager's entry moved them (its tests fail: 422), it is
   * computed again from the object as it is now.
   */
  async #adoptUpdatedFields(object: KubeObject): Promise<KubeObject> {
    let current = object;
    for (let attempt = 1; ; attempt++) {
      const patch = adoptUpdatedFieldsPatch(current, FIELD_MANAGER);
      if (patch === undefined) return current;
      const { namespace, name = '' } = current.metadata;
      try {
        this.writes++;
        return await this.#client.patch(this.#resource, namespace, name, patch, {
          contentType: JSON_PATCH,
          ...this.#call,
        });
      } catch (error) {
        if (!(error instanceof ApiError) || error.code !== 422 || attempt === 3) throw error;
        current = await this.#client.get(this.#resource, namespace, name, this.#call);
      }
    }
  }
}

export async function writeChildren(
  client: DynamicClient,
  store: ChildStore,
  children: Readonly<Record<string, KubeObject>>,
  owner: ChildOwner,
  selector: Record<string, string>,
  call: CallOptions = {},
): Promise<ChildrenOutcome> {
  const errors: string[] = [];
  const observed: Record<string, KubeObject | undefined> = {};
  const changes: ChildChange[] = [];
  const written: KubeObject[] = [];
  let writes = 0;

  for (const stale of selectPrunable(store.list(owner.namespace, selector), children, owner.uid)) {
    const resource = store.resourceFor(stale.apiVersion, stale.kind);
    const uid = stale.metadata.uid;
    if (!resource || uid === undefined) continue;
    try {
      writes++;
      await client.delete(resource, stale.metadata.namespace, stale.metadata.name ?? '', {
        preconditions: { uid },
        ...call,
      });
      changes.push({ action: 'pruned', child: childName(stale) });
    } catch (error) {
      if (isAbortError(error) || loadRefusal(error)) throw error;
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
    const writer = new ChildWriter(client, resource, desired, owner, call, (child) => store.upToDate(child));
    const outcome = await writer.write(
      store.get(desired.apiVersion, desired.kind, owner.namespace, desired.metadata.name ?? ''),
    );
    writes += writer.writes;
    if (writer.action !== undefined) changes.push({ action: writer.action, child: childName(desired) });
    if ('error' in outcome) errors.push(outcome.error);
    else {
      observed[key] = outcome.observed;
      if (writer.action !== undefined) written.push(outcome.observed);
    }
  }
  return { observed, errors, writes, changes, written };
}
