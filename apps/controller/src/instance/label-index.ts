/**
 * Objects of an informer grouped by namespace and the value of one label, kept current from the
 * informer's events, so that a reconcile finds its instance's children without scanning every
 * child in the cluster (a scan per reconcile is quadratic in the number of instances). It holds
 * names, not objects: the objects are the cache's, which may replace one by a smaller form of the
 * same version without an event (docs/spec/children-and-status.md §5.2).
 */
import type { KubeObject } from '@scoby/kube-objects';

export class LabelIndex {
  readonly #label: string;
  readonly #resolve: (namespace: string, name: string) => KubeObject | undefined;
  /** `namespace` → label value → names. */
  readonly #buckets = new Map<string, Map<string, Set<string>>>();

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
    if (!byValue) this.#buckets.set(namespace, (byValue = new Map()));
    let names = byValue.get(value);
    if (!names) byValue.set(value, (names = new Set()));
    names.add(object.metadata.name ?? '');
  }

  remove(object: KubeObject): void {
    const value = object.metadata.labels?.[this.#label];
    if (value === undefined) return;
    const byValue = this.#buckets.get(object.metadata.namespace ?? '');
    const names = byValue?.get(value);
    if (!names?.delete(object.metadata.name ?? '')) return;
    if (names.size === 0) byValue!.delete(value);
  }

  /** Objects in `namespace` whose label has `value`. */
  get(namespace: string, value: string): KubeObject[] {
    const objects: KubeObject[] = [];
    for (const name of this.#buckets.get(namespace)?.get(value) ?? []) {
      const object = this.#resolve(namespace, name);
      if (object !== undefined) objects.push(object);
    }
    return objects;
  }
}
