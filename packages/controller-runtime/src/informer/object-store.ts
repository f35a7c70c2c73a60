import type { KubeObject } from '@scoby/kube-objects';

export type StoreEvent<T> =
  { type: 'add'; object: T } | { type: 'update'; object: T; old: T } | { type: 'delete'; object: T };

/** The cache key of an object: `namespace/name`, or `name` for cluster-scoped objects (as client-go). */
export function objectKey(namespace: string | undefined, name: string): string {
  return namespace ? `${namespace}/${name}` : name;
}

function keyOf(object: KubeObject): string {
  return objectKey(object.metadata.namespace, object.metadata.name ?? '');
}

/**
 * The objects an informer knows, keyed by namespace/name. Every change returns the event it
 * amounts to, or nothing when the object is unchanged (same resourceVersion), so the same state
 * arriving twice (from a relist and from the watch) notifies handlers once.
 */
export class ObjectStore<T extends KubeObject> {
  readonly #objects = new Map<string, T>();

  get(namespace: string | undefined, name: string): T | undefined {
    return this.#objects.get(objectKey(namespace, name));
  }

  list(): T[] {
    return [...this.#objects.values()];
  }

  get size(): number {
    return this.#objects.size;
  }

  upsert(object: T): StoreEvent<T> | undefined {
    const key = keyOf(object);
    const old = this.#objects.get(key);
    if (old !== undefined && sameVersion(old, object)) return undefined;
    this.#objects.set(key, object);
    return old === undefined ? { type: 'add', object } : { type: 'update', object, old };
  }

  /** Replaces or adds `object` without an event (see SharedInformer.recache). */
  set(object: T): void {
    this.#objects.set(keyOf(object), object);
  }

  remove(object: T): StoreEvent<T> | undefined {
    const key = keyOf(object);
    if (!this.#objects.delete(key)) return undefined;
    return { type: 'delete', object };
  }

  /**
   * Makes the store hold exactly `items` within `namespace` (all objects when undefined): what a
   * relist means. Objects of other namespaces are left alone, so per-namespace watches can share
   * one store.
   */
  replace(items: readonly T[], namespace?: string): StoreEvent<T>[] {
    const listed = new Set(items.map(keyOf));
    const events: StoreEvent<T>[] = [];
    for (const [key, object] of this.#objects) {
      const inScope = namespace === undefined || object.metadata.namespace === namespace;
      if (inScope && !listed.has(key)) {
        this.#objects.delete(key);
        events.push({ type: 'delete', object });
      }
    }
    for (const item of items) {
      const event = this.upsert(item);
      if (event !== undefined) events.push(event);
    }
    return events;
  }
}

function sameVersion(a: KubeObject, b: KubeObject): boolean {
  return (
    a.metadata.resourceVersion !== undefined && a.metadata.resourceVersion === b.metadata.resourceVersion
  );
}
