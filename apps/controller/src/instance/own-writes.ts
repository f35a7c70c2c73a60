/**
 * The objects this controller wrote last, by uid, at the resourceVersion its write returned. The watch
 * event of such a write (its echo) brings back exactly what the reconcile that wrote it already saw,
 * so it needs no reconcile of its own; any later change has another resourceVersion and does.
 */
import type { KubeObject } from '@scoby/kube-objects';

export class OwnWrites {
  /** uid → resourceVersion of the object as the write returned it. */
  readonly #written = new Map<string, string>();

  wrote(object: KubeObject): void {
    const { uid, resourceVersion } = object.metadata;
    if (uid !== undefined && resourceVersion !== undefined) this.#written.set(uid, resourceVersion);
  }

  /** True once for the watch event of the object as this controller wrote it. */
  isEcho(object: KubeObject): boolean {
    const { uid, resourceVersion } = object.metadata;
    if (uid === undefined || this.#written.get(uid) !== resourceVersion) return false;
    this.#written.delete(uid);
    return true;
  }

  forget(object: KubeObject): void {
    if (object.metadata.uid !== undefined) this.#written.delete(object.metadata.uid);
  }
}
