/**
 * Objects of an informer grouped by namespace and the value of one label, kept current from the
 * informer's events, so that a reconcile finds its instance's children without scanning every
 * child in the cluster (a scan per reconcile is quadratic in the number of instances).
 */
import type { KubeObject } from '@scoby/kube-objects';

export class LabelIndex {
  readonly #label: string;
  /** `namespace` → label value → `name` → object. */
  readonly #buckets = new Map<string, Map<string, Map<string, KubeObject>>>();

  constructor(label: string) {
    this.#label = label;
  }

  upsert(object: KubeObject, old?: KubeObject): void {
    if (old) this.remove(old);
    const value = object.metadata.labels?.[this.#label];
    if (value === undefined) return;
    const namespace = object.metadata.namespace ?? '';
    let byValue = this.#buckets.get(namespace);
    if (!byValue) this.#buckets.set(namespace, (byValue = new Map()));
    let objects = byValue.get(value);
    if (!objects) byValue.set(value, (objects = new Map()));
    objects.set(object.metadata.name ?? '', object);
  }

  remove(object: KubeObject): void {
    const value = object.metadata.labels?.[this.#label];
    if (value === undefined) return;
    const byValue = this.#buckets.get(object.metadata.namespace ?? '');
    const objects = byValue?.get(value);
    if (!objects?.delete(object.metadata.name ?? '')) return;
    if (objects.size === 0) byValue!.delete(value);
  }

  /** Objects in `namespace` whose label has `value`. */
  get(namespace: string, value: string): KubeObject[] {
    return [...(this.#buckets.get(namespace)?.get(value)?.values() ?? [])];
  }
}
