import type { KubeObject } from '@scoby/kube-objects';

export type ChangeType = 'ADDED' | 'MODIFIED' | 'DELETED';

/** One committed change, as watchers and the internal controllers see it. */
export interface StoreEvent {
  readonly type: ChangeType;
  readonly resourceVersion: number;
  /** Storage key of the resource (see resourceKey). */
  readonly key: string;
  readonly object: KubeObject;
  /** The object before the change (MODIFIED and DELETED). */
  readonly previous?: KubeObject;
}

export type EventsSince = { expired: false; events: StoreEvent[] } | { expired: true; oldest: number };

export function objectKey(namespace: string | undefined, name: string): string {
  return `${namespace ?? ''}/${name}`;
}

function keyOfObject(object: KubeObject): string {
  return objectKey(object.metadata.namespace, object.metadata.name ?? '');
}

/**
 * All objects of the cluster, one global resourceVersion counter like etcd's revision, and a bounded
 * history of changes for watches that resume from a resourceVersion. Stored objects are never mutated:
 * every write stores a new object.
 */
export class ObjectStore {
  private revision = 0;
  private readonly collections = new Map<string, Map<string, KubeObject>>();
  private readonly uids = new Map<string, { key: string; object: KubeObject }>();
  private readonly history: StoreEvent[] = [];
  /** Highest resourceVersion whose event has been dropped from the history. */
  private compactedThrough = 0;
  private readonly listeners = new Set<(event: StoreEvent) => void>();
  private readonly historyLimit: number;
  /** Resources kept in another's collection, and how their objects are written there. */
  private readonly aliases = new Map<
    string,
    { key: string; toStorage: (object: KubeObject) => KubeObject }
  >();

  constructor(historyLimit: number) {
    this.historyLimit = historyLimit;
  }

  get resourceVersion(): number {
    return this.revision;
  }

  /**
   * Keeps the objects of resource `key` in the collection of `storageKey`, written in its shape, as
   * kube-apiserver stores events.k8s.io Events as core Events: one object, readable through both.
   */
  alias(key: string, storageKey: string, toStorage: (object: KubeObject) => KubeObject): void {
    this.aliases.set(key, { key: storageKey, toStorage });
  }

  /** The collection a resource's objects are kept in (its own unless it is an alias). */
  storageKey(key: string): string {
    return this.aliases.get(key)?.key ?? key;
  }

  get(key: string, namespace: string | undefined, name: string): KubeObject | undefined {
    return this.collections.get(this.storageKey(key))?.get(objectKey(namespace, name));
  }

  byUid(uid: string): KubeObject | undefined {
    return this.uids.get(uid)?.object;
  }

  /** The object with this uid and the storage key of its resource. */
  locate(uid: string): { key: string; object: KubeObject } | undefined {
    return this.uids.get(uid);
  }

  /** Objects of a resource (in one namespace when given), in key order like an etcd range read. */
  list(key: string, namespace?: string): KubeObject[] {
    const collection = this.collections.get(this.storageKey(key));
    if (!collection) return [];
    const entries = [...collection].filter(
      ([, object]) => namespace === undefined || object.metadata.namespace === namespace,
    );
    entries.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return entries.map(([, object]) => object);
  }

  keys(): string[] {
    return [...this.collections.keys()];
  }

  /** Stores a created or modified object, stamping the next resourceVersion on it. */
  write(resourceKey: string, written: KubeObject): KubeObject {
    const alias = this.aliases.get(resourceKey);
    const key = alias?.key ?? resourceKey;
    const object = alias === undefined ? written : alias.toStorage(written);
    const collection = this.collections.get(key) ?? new Map<string, KubeObject>();
    this.collections.set(key, collection);
    const id = keyOfObject(object);
    const previous = collection.get(id);
    const revision = ++this.revision;
    const stored = { ...object, metadata: { ...object.metadata, resourceVersion: String(revision) } };
    collection.set(id, stored);
    if (stored.metadata.uid) this.uids.set(stored.metadata.uid, { key, object: stored });
    this.emit({
      type: previous ? 'MODIFIED' : 'ADDED',
      resourceVersion: revision,
      key,
      object: stored,
      ...(previous ? { previous } : {}),
    });
    return stored;
  }

  /** Removes an object; its DELETED event carries a new resourceVersion like the real server's. */
  remove(resourceKey: string, object: KubeObject): KubeObject | undefined {
    const key = this.storageKey(resourceKey);
    const collection = this.collections.get(key);
    const id = keyOfObject(object);
    const previous = collection?.get(id);
    if (!collection || !previous) return undefined;
    collection.delete(id);
    if (previous.metadata.uid) this.uids.delete(previous.metadata.uid);
    const revision = ++this.revision;
    const deleted = { ...previous, metadata: { ...previous.metadata, resourceVersion: String(revision) } };
    this.emit({ type: 'DELETED', resourceVersion: revision, key, object: deleted, previous });
    return deleted;
  }

  /** Changes after `resourceVersion`, or expired when some of them left the history window. */
  eventsSince(resourceVersion: number): EventsSince {
    if (resourceVersion < this.compactedThrough) return { expired: true, oldest: this.compactedThrough + 1 };
    let low = 0;
    let high = this.history.length;
    while (low < high) {
      const middle = (low + high) >> 1;
      if ((this.history[middle]?.resourceVersion ?? 0) <= resourceVersion) low = middle + 1;
      else high = middle;
    }
    return { expired: false, events: this.history.slice(low) };
  }

  subscribe(listener: (event: StoreEvent) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  private emit(event: StoreEvent): void {
    this.history.push(event);
    if (this.history.length > this.historyLimit) {
      this.compactedThrough = this.history.shift()?.resourceVersion ?? this.compactedThrough;
    }
    for (const listener of [...this.listeners]) listener(event);
  }
}
