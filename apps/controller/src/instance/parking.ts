/**
 * Parking after a permanent hook error (docs/spec/hooks-v1.md §6.3): the instance is left alone until something
 * that un-parks it changes: its generation, labels, annotations or deletion timestamp, or the
 * registration's effective configuration. A restart forgets every parked instance.
 */
import { compactJson, type KubeObject } from '@scoby/kube-objects';
import { reconcileBasis } from './reconcile-basis.ts';

export function parkingFingerprint(instance: KubeObject, configRevision: string): string {
  return compactJson([...reconcileBasis(instance), configRevision]);
}

export class ParkingLot {
  readonly #parked = new Map<string, string>();

  park(key: string, fingerprint: string): void {
    this.#parked.set(key, fingerprint);
  }

  /**
   * True while parked with an unchanged fingerprint; a changed one releases the instance. The
   * fingerprint is computed only for a parked instance (it serialises labels and annotations).
   */
  isParked(key: string, fingerprint: () => string): boolean {
    const parked = this.#parked.get(key);
    if (parked === undefined) return false;
    if (parked === fingerprint()) return true;
    this.#parked.delete(key);
    return false;
  }

  release(key: string): void {
    this.#parked.delete(key);
  }
}
