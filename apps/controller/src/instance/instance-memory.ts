/**
 * What one registration's reconciler remembers about each instance between its reconciles, kept by
 * the key of the memory (Run.slot) and forgotten all at once when the instance is gone
 * (docs/spec/children-and-status.md §1 step 1). A restart forgets everything: none of it is needed
 * for correctness, only to spare the API server and the hook repeated work.
 *
 * Own writes (own-writes.ts) are not here: they are kept by uid for the children as for the
 * instance, and forgotten with each object's delete event.
 */
import {
  DEFAULT_BACKOFF,
  type DynamicClient,
  formatObjectKey,
  KeyedBackoff,
  type ObjectKey,
  SupersededVersions,
} from '@scoby/controller-runtime';
import type { Logger } from 'pino';
import { ParkingLot } from './parking.ts';
import { RetryAfterGate } from './retry-after-gate.ts';
import { UnavailablePodReader } from './status/unavailable-pods.ts';

/** The Warning messages sent last per instance and reason: a steady state repeats none (no Event writes). */
export class SentWarnings {
  readonly #sent = new Map<string, Map<string, string>>();

  /** Records `messages` as sent; true when they differ from the last ones of `reason`. */
  changed(slot: string, reason: string, messages: readonly string[]): boolean {
    const fingerprint = messages.join('\n');
    const byReason = this.#sent.get(slot);
    if ((byReason?.get(reason) ?? '') === fingerprint) return false;
    if (fingerprint === '') byReason?.delete(reason);
    else if (byReason) byReason.set(reason, fingerprint);
    else this.#sent.set(slot, new Map([[reason, fingerprint]]));
    return true;
  }

  forget(slot: string): void {
    this.#sent.delete(slot);
  }
}

export class InstanceMemory {
  /** Instances left alone until something that un-parks them changes (docs/spec/hooks-v1.md §6.3). */
  readonly parking = new ParkingLot();
  /** A hook's or the API server's Retry-After (docs/spec/hooks-v1.md §6.4, children-and-status.md §1 step 12). */
  readonly retryAfter = new RetryAfterGate();
  /** Versions replaced by this reconciler's writes: a cache still showing one is stale. */
  readonly superseded = new SupersededVersions();
  /** Consecutive ignored pre-reconcile failures: the hook is called again with backoff (docs/spec/hooks-v1.md §6.6). */
  readonly ignoredHookBackoff = new KeyedBackoff(DEFAULT_BACKOFF);
  readonly warned = new SentWarnings();
  /** When the Pods of an unavailable Deployment were read last (§8.3). */
  readonly pods: UnavailablePodReader;

  constructor(client: DynamicClient, now: () => number, logger?: Logger) {
    this.pods = new UnavailablePodReader(client, now, logger);
  }

  forget(key: ObjectKey): void {
    const slot = formatObjectKey(key);
    this.parking.release(slot);
    this.retryAfter.release(slot);
    this.superseded.forget(slot);
    this.ignoredHookBackoff.reset(slot);
    this.warned.forget(slot);
    this.pods.forget(key);
  }
}
