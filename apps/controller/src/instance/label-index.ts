/**
 * Objects of an informer grouped by namespace and the value of one label, kept current from the
 * informer's events, so that a reconcile finds its instance's children without scanning every
 * child in the cluster (a scan per reconcile is quadratic in the number of instances). It holds
 * names, not objects: the objects are the cache's, which may replace one by a smaller form of the
 * same version without an event (docs/spec/children-and-status.md §5.2).
 */
import { sharedString } from '@scoby/controller-runtime';
import type { KubeObject } from '@scoby/kube-objects';

/**
 * The names under one label value: nearly always one child of the kind per instance, so one name is
 * held as itself; a Set (about 150 bytes even with one entry) only from the second.
 */
type Names = string | Set<string>;

export class LabelIndex {
  readonly #label: string;
  readonly #resolve: (namespace: string, name: string) => KubeObject | undefined;
  /** `namespace` → label value → names. */
  readonly #buckets = new Map<string, Map<string, Names>>();

  /** `resolve` reads an object from the cache the index is kept for. */
  constructor(label: string, resolve: (namespace: string, name: string) => KubeObject | undefined) {
    this.#label = label;
    this.#resolve = resolve;
  }

  upsert(object: KubeObject, old?: KubeObject): void {
    if (old) this.remove(old);
    const value = object.metadata.labels?.[this.#label];
    if (value === undefined) return;
    const namespace = object.metadata.namespace ?? '';
    let byValue = this.#buckets.get(namespace);
    if (!byValue) this.#buckets.set(sharedString(namespace), (byValue = new Map()));
    // Shared with the cached objects' copies of the same text (the instance's name, mostly).
    const name = sharedString(object.metadata.name ?? '');
    const names = byValue.get(value);
    if (names === undefined) byValue.set(sharedString(value), name);
    else if (typeof names !== 'string') names.add(name);
    else if (names !== name) byValue.set(value, new Set([names, name]));
  }

  remove(object: KubeObject): void {
    const value = object.metadata.labels?.[this.#label];
    if (value === undefined) return;
    const byValue = this.#buckets.get(object.metadata.namespace ?? '');
    const names = byValue?.get(value);
    const name = object.metadata.name ?? '';
    if (names === undefined || byValue === undefined) return;
    if (typeof names === 'string') {
      if (names === name) byValue.delete(value);
      return;
    }
    if (!names.delete(name)) return;
    const [only, ...others] = names;
    if (only === undefined) byValue.delete(value);
    else if (others.length === 0) byValue.set(value, only);
  }

  /** Objects in `namespace` whose label has `value`. */
  get(namespace: string, value: string): KubeObject[] {
    const objects: KubeObject[] = [];
    const names = this.#buckets.get(namespace)?.get(value);
    for (const name of typeof names === 'string' ? [names] : (names ?? [])) {
      const object = this.#resolve(namespace, name);
      if (object !== undefined) objects.push(object);
    }
    return objects;
  }
}
