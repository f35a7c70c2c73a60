import { compareResourceVersions } from '@scoby/kube-objects';

/** What is known of one key's versions since this controller last wrote it. */
interface Written {
  /** The versions its writes replaced. */
  replaced: Set<string>;
  /** The newest version its writes returned, when it has one. */
  newest: string | undefined;
}

/**
 * Resource versions a controller's own writes have made stale. An informer cache can still hold such
 * a version when the next reconcile starts (the watch event of the write is on its way); a reconcile
 * of that stale object would act on outdated state: repeat the write, moving timestamps such as
 * lastTransitionTime, or find nothing to write where the write it missed changed what it compares
 * with. The watch event of the write enqueues the key again, so the stale reconcile can simply be
 * skipped (docs/spec/children-and-status.md §9).
 */
export class SupersededVersions {
  readonly #byKey = new Map<string, Written>();

  /**
   * This controller's write turned version `before` into `after`. A write the server found to be a
   * no-op keeps the version and sends no watch event, so it supersedes nothing.
   */
  wrote(key: string, before: string | undefined, after: string | undefined): void {
    if (after === undefined || before === after) return;
    const written = this.#written(key, before);
    const newest = written.newest;
    if (newest === undefined || (compareResourceVersions(after, newest) ?? 1) > 0) written.newest = after;
  }

  /**
   * This controller's write found the object gone (404): the version it had read is stale, and no
   * newer one will come but the deletion.
   */
  wroteGone(key: string, before: string | undefined): void {
    this.#written(key, before);
  }

  #written(key: string, replaced: string | undefined): Written {
    const written = this.#byKey.get(key) ?? { replaced: new Set<string>(), newest: undefined };
    if (replaced !== undefined) written.replaced.add(replaced);
    this.#byKey.set(key, written);
    return written;
  }

  /**
   * Whether a cached object is older than this controller's last write: a version that write
   * replaced, or one that compares lower than the version it returned (a version the cache holds
   * because an earlier write's answer was lost). A current version ends the tracking for the key: a
   * cache never goes back to older versions.
   */
  isStale(key: string, resourceVersion: string | undefined): boolean {
    const written = this.#byKey.get(key);
    if (written === undefined || resourceVersion === undefined) return false;
    if (written.replaced.has(resourceVersion)) return true;
    const newest = written.newest;
    if (newest !== undefined && (compareResourceVersions(resourceVersion, newest) ?? 0) < 0) return true;
    this.#byKey.delete(key);
    return false;
  }

  forget(key: string): void {
    this.#byKey.delete(key);
  }
}
