/**
 * Resource versions a controller has replaced by its own writes. An informer cache can still hold
 * such a version when the next reconcile starts (the watch event of the write is on its way); a
 * reconcile of that stale object would repeat the write against outdated state, moving timestamps
 * such as lastTransitionTime. The watch event of the write enqueues the key again, so the stale
 * reconcile can simply be skipped.
 */
export class SupersededVersions {
  readonly #byKey = new Map<string, Set<string>>();

  /**
   * This controller's write turned version `before` into `after`. A write the server found to be a
   * no-op keeps the version and sends no watch event, so it supersedes nothing.
   */
  wrote(key: string, before: string | undefined, after: string | undefined): void {
    if (after === undefined || before === after) return;
    this.#supersede(key, before);
  }

  /**
   * This controller's write found the object gone (404): the version it had read is stale, and no
   * newer one will come but the deletion.
   */
  wroteGone(key: string, before: string | undefined): void {
    this.#supersede(key, before);
  }

  #supersede(key: string, version: string | undefined): void {
    if (version === undefined) return;
    const versions = this.#byKey.get(key) ?? new Set<string>();
    versions.add(version);
    this.#byKey.set(key, versions);
  }

  /**
   * Whether a cached object is older than this controller's last write. A current version ends the
   * tracking for the key: a cache never goes back to older versions.
   */
  isStale(key: string, resourceVersion: string | undefined): boolean {
    const versions = this.#byKey.get(key);
    if (versions === undefined || resourceVersion === undefined) return false;
    if (versions.has(resourceVersion)) return true;
    this.#byKey.delete(key);
    return false;
  }

  forget(key: string): void {
    this.#byKey.delete(key);
  }
}
