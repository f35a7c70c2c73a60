import { describe, expect, it } from 'vitest';
import { CappedShare } from '../../src/queue/capped-share.ts';
import { ConcurrencyLimit } from '../../src/queue/concurrency-limit.ts';
import { type Reconcile, WorkQueue } from '../../src/queue/work-queue.ts';
import { deferred, type Deferred } from '../../src/testing/deferred.ts';
import { settle } from '../../src/testing/manual-clock.ts';

/** Reconciles that run until the test finishes them by key. */
function hangingReconciles() {
  const running = new Map<string, Deferred<void>>();
  const started: string[] = [];
  const reconcile: Reconcile = async (key) => {
    const done = deferred();
    running.set(key, done);
    started.push(key);
    await done.promise;
    running.delete(key);
  };
  return {
    reconcile,
    started,
    finish: async (key: string) => {
      running.get(key)?.resolve();
      await settle();
    },
  };
}

describe('CappedShare: one queue part of a shared limit', () => {
  it('wakes a waiter its cap held back when a run ends or gives back its lent part, while under the cap', () => {
    const share = new CappedShare(new ConcurrencyLimit(10), 1);
    expect(share.tryAcquire()).toBe(true);
    expect(share.tryAcquire()).toBe(false);
    const woken: string[] = [];
    // Each waiter takes the place it was woken for.
    share.whenAvailable(() => woken.push(`first ${share.tryAcquire()}`));
    share.whenAvailable(() => woken.push(`second ${share.tryAcquire()}`));
    share.release();
    expect(woken).toEqual(['first true']);
    share.lend();
    share.releaseLent();
    expect(woken).toEqual(['first true', 'second true']);
    expect(share.inUse).toBe(1);
  });

  it("leaves the shared slots beyond one queue's cap to the other queues", async () => {
    const shared = new ConcurrencyLimit(4);
    const r = hangingReconciles();
    const hanging = new WorkQueue({ reconcile: r.reconcile, concurrency: new CappedShare(shared, 2) });
    const other = new WorkQueue({ reconcile: r.reconcile, concurrency: new CappedShare(shared, 2) });
    for (const name of ['a', 'b', 'c', 'd', 'e']) hanging.add(`hanging/${name}`);
    await settle();
    other.add('other/a');
    await settle();
    expect(r.started).toEqual(['hanging/a', 'hanging/b', 'other/a']);
    expect(shared.inUse).toBe(3);
    expect(hanging.length).toBe(3);
  });

  it('starts the next key of a capped queue when one of its own runs finishes', async () => {
    const shared = new ConcurrencyLimit(4);
    const share = new CappedShare(shared, 2);
    const r = hangingReconciles();
    const queue = new WorkQueue({ reconcile: r.reconcile, concurrency: share });
    for (const name of ['a', 'b', 'c']) queue.add(name);
    await settle();
    expect(r.started).toEqual(['a', 'b']);
    await r.finish('a');
    expect(r.started).toEqual(['a', 'b', 'c']);
    expect([share.inUse, shared.inUse]).toEqual([2, 2]);
    await r.finish('b');
    await r.finish('c');
    expect([share.inUse, shared.inUse]).toEqual([0, 0]);
  });

  it('waits for the shared limit below its cap, in arrival order with the other queues', async () => {
    const shared = new ConcurrencyLimit(2);
    const r = hangingReconciles();
    const first = new WorkQueue({ reconcile: r.reconcile, concurrency: new CappedShare(shared, 2) });
    const second = new WorkQueue({ reconcile: r.reconcile, concurrency: new CappedShare(shared, 2) });
    first.add('first/a');
    first.add('first/b');
    await settle();
    second.add('second/a');
    first.add('first/c');
    await settle();
    expect(r.started).toEqual(['first/a', 'first/b']);
    await r.finish('first/a');
    expect(r.started).toEqual(['first/a', 'first/b', 'second/a']);
    await r.finish('first/b');
    expect(r.started).toEqual(['first/a', 'first/b', 'second/a', 'first/c']);
  });

  it('rejects a cap that is not a positive integer', () => {
    const shared = new ConcurrencyLimit(2);
    expect(() => new CappedShare(shared, 0)).toThrow('concurrency cap must be a positive integer, got 0');
  });
});
