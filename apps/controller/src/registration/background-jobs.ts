/**
 * Work a reconcile starts but does not wait for. Releasing instance finalizers waits on hooks for
 * as long as their timeout; run inside the reconcile it would hold a registration work slot all that
 * time. A job's `start` runs synchronously up to its first await, so what it does first has happened
 * when `poll` or `run` returns.
 */
type JobState = { kind: 'running' } | { kind: 'done' } | { kind: 'failed'; error: unknown };

export class BackgroundJobs {
  readonly #jobs = new Map<string, JobState>();
  /** Keys of running `run` jobs, apart from `poll`'s: nothing is kept of their outcome. */
  readonly #unwatched = new Set<string>();
  readonly #running = new Set<Promise<void>>();

  /**
   * For work whose outcome the reconcile waits for: `running` while the job under `key` runs,
   * starting it when none is known; `settled` is called when it ends, so the reconcile asks again.
   * The outcome is given once, then forgotten: `done`, or the job's error thrown.
   */
  poll(key: string, start: () => Promise<void>, settled: () => void): 'running' | 'done' {
    const state = this.#jobs.get(key);
    if (state?.kind === 'running') return 'running';
    if (state !== undefined) {
      this.#jobs.delete(key);
      if (state.kind === 'failed') throw state.error;
      return 'done';
    }
    this.#jobs.set(key, { kind: 'running' });
    this.#track(
      start().then(
        () => void this.#jobs.set(key, { kind: 'done' }),
        (error: unknown) => void this.#jobs.set(key, { kind: 'failed', error }),
      ),
      settled,
    );
    return 'running';
  }

  /** For work nobody waits for (it reports its own failures): starts it unless it runs already. */
  run(key: string, start: () => Promise<void>): void {
    if (this.#unwatched.has(key)) return;
    this.#unwatched.add(key);
    this.#track(
      start().catch(() => undefined),
      () => this.#unwatched.delete(key),
    );
  }

  /** Resolves once every job started so far has ended. */
  async drain(): Promise<void> {
    await Promise.all([...this.#running]);
  }

  #track(job: Promise<void>, settled: () => void): void {
    const tracked = job.then(() => {
      this.#running.delete(tracked);
      settled();
    });
    this.#running.add(tracked);
  }
}
