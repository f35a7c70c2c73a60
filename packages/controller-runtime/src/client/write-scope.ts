/**
 * The write scope of the code running now: a plain string (the app names a registration) that the
 * DynamicClient hands to its write fence with every request and keeps with every write in flight, so
 * that one scope's writes can be refused and cut off while the others go on.
 *
 * An AsyncLocalStorage rather than a parameter: the scope follows a reconcile through every await,
 * timer and callback it starts, down to the status writer, the finalizer helpers and the Event
 * recorder, without a scoped client threaded through all of that code. Until the first `run` nothing
 * is tracked (Node 20 and 22 install their promise hooks only then; Node 24 keeps the context in a
 * frame and has none).
 */
import { AsyncLocalStorage } from 'node:async_hooks';

const storage = new AsyncLocalStorage<string>();

export interface WriteScopes {
  /** Runs `fn` in `scope`: it and every asynchronous operation it starts see `scope` as current. */
  run<T>(scope: string, fn: () => T): T;
  /**
   * Runs `fn` in exactly `scope`, or outside every scope when it is undefined: for work started on
   * behalf of someone else (a queued reconcile, a queued Event) that must not keep the scope of
   * whoever happened to start it.
   */
  within<T>(scope: string | undefined, fn: () => T): T;
  /** The scope of the code running now; undefined outside any. */
  current(): string | undefined;
}

export const writeScopes: WriteScopes = {
  run: (scope, fn) => storage.run(scope, fn),
  within: (scope, fn) => {
    if (scope !== undefined) return storage.run(scope, fn);
    return storage.getStore() === undefined ? fn() : storage.exit(fn);
  },
  current: () => storage.getStore(),
};
