/**
 * A run waiting outside the process (a hook) lends its part of the shared slots
 * (ReconcileContext.withoutSharedSlot): other queues use it meanwhile, the run keeps its own
 * queue's place, takes a part back in line before it goes on, and never takes one once it ended.
 */
import { describe, expect, it } from 'vitest';
import { CappedShare } from '../../src/queue/capped-share.ts';
import { ConcurrencyLimit } from '../../src/queue/concurrency-limit.ts';
import { type Reconcile, WorkQueue } from '../../src/queue/work-queue.ts';
import { deferred, type Deferred } from '../../src/testing/deferred.ts';
import { ManualClock, settle } from '../../src/testing/manual-clock.ts';

/** Promises by key that the test settles: `at(key)` waits, `open(key)` lets it go on. */
function gates() {
  const pending = new Map<string, Deferred<void>>();
  return {
    at: (key: string) => {
      const gate = deferred();
      pending.set(key, gate);
      return gate.promise;
    },
    open: async (key: string) => {
      pending.get(key)?.resolve();
      await settle();
    },
  };
}

/** Reconciles that wait outside (lending their shared part) until the test answers, then hold until finished. */
function outsideWaits() {
  const answers = gates();
  const finishes = gates();
  const log: string[] = [];
  const errors: unknown[] = [];
  const reconcile: Reconcile = async (key, context) => {
    log.push(`start ${key}`);
    try {
      await context.withoutSharedSlot(() => answers.at(key));
    } catch (error) {
      errors.push(error);
      throw error;
    }
    log.push(`back ${key}`);
    await finishes.at(key);
    log.push(`done ${key}`);
  };
  return { reconcile, log, errors, answer: answers.open, finish: finishes.open };
}

/** Reconciles that run until the test finishes them, never waiting outside. */
function busyReconciles(log: string[]) {
  const finishes = gates();
  const reconcile: Reconcile = async (key) => {
    log.push(`start ${key}`);
    await finishes.at(key);
    log.push(`done ${key}`);
  };
  return { reconcile, finish: finishes.open };
}

describe('lending the shared slots while waiting outside', () => {
  it("leaves the shared slots to other queues while a queue's runs wait, and keeps that queue at its cap", async () => {
    const shared = new ConcurrencyLimit(2);
    const waiting = outsideWaits();
    const share = new CappedShare(shared, 2);
    const hooked = new WorkQueue({ reconcile: waiting.reconcile, concurrency: share });
    const other = busyReconciles(waiting.log);
    const busy = new WorkQueue({ reconcile: other.reconcile, concurrency: new CappedShare(shared, 2) });
    for (const name of ['a', 'b', 'c']) hooked.add(`hooked/${name}`);
    await settle();
    expect([share.inUse, shared.inUse]).toEqual([2, 0]);
    busy.add('busy/a');
    busy.add('busy/b');
    await settle();
    expect(waiting.log).toEqual(['start hooked/a', 'start hooked/b', 'start busy/a', 'start busy/b']);
    // The third key of the waiting queue stays behind its own cap, not behind the shared slots.
    expect([hooked.length, share.inUse, shared.inUse]).toEqual([1, 2, 2]);
  });

  it('takes a shared part back in line once the wait ends, before the run goes on', async () => {
    const shared = new ConcurrencyLimit(1);
    const waiting = outsideWaits();
    const hooked = new WorkQueue({ reconcile: waiting.reconcile, concurrency: new CappedShare(shared, 1) });
    const other = busyReconciles(waiting.log);
    const busy = new WorkQueue({ reconcile: other.reconcile, concurrency: new CappedShare(shared, 2) });
    hooked.add('hooked/a');
    await settle();
    busy.add('busy/a');
    busy.add('busy/b');
    await settle();
    await waiting.answer('hooked/a');
    // busy/b queued for the slot before hooked/a's wait ended: it goes first.
    expect(waiting.log).toEqual(['start hooked/a', 'start busy/a']);
    await other.finish('busy/a');
    expect(waiting.log).toEqual(['start hooked/a', 'start busy/a', 'done busy/a', 'start busy/b']);
    await other.finish('busy/b');
    expect(waiting.log.slice(-2)).toEqual(['done busy/b', 'back hooked/a']);
    expect(shared.inUse).toBe(1);
    await waiting.finish('hooked/a');
    expect(shared.inUse).toBe(0);
  });

  it('gives back only its own place when abandoned while waiting, and takes nothing when the wait ends later', async () => {
    const clock = new ManualClock();
    const shared = new ConcurrencyLimit(2);
    const share = new CappedShare(shared, 1);
    const waiting = outsideWaits();
    const hooked = new WorkQueue({
      reconcile: waiting.reconcile,
      concurrency: share,
      clock,
      reconcileTimeoutMs: 1000,
      backoff: { baseMs: 60_000 },
    });
    hooked.add('hooked/a');
    await settle();
    expect([share.inUse, shared.inUse]).toEqual([1, 0]);
    await clock.advance(1000);
    expect([share.inUse, shared.inUse]).toEqual([0, 0]);
    await waiting.answer('hooked/a');
    expect(waiting.log).toEqual(['start hooked/a']);
    expect(waiting.errors).toEqual([expect.objectContaining({ name: 'AbortError' })]);
    expect([share.inUse, shared.inUse]).toEqual([0, 0]);
  });

  it('stops waiting for a shared part when the queue shuts down aborting', async () => {
    const shared = new ConcurrencyLimit(1);
    const waiting = outsideWaits();
    const share = new CappedShare(shared, 1);
    const hooked = new WorkQueue({ reconcile: waiting.reconcile, concurrency: share });
    const other = busyReconciles(waiting.log);
    const busy = new WorkQueue({ reconcile: other.reconcile, concurrency: new CappedShare(shared, 1) });
    hooked.add('hooked/a');
    await settle();
    busy.add('busy/a');
    await settle();
    await waiting.answer('hooked/a');
    await hooked.shutdown({ abort: 'lost leadership' });
    expect(waiting.errors).toEqual([expect.objectContaining({ name: 'AbortError' })]);
    expect([share.inUse, shared.inUse]).toEqual([0, 1]);
    await other.finish('busy/a');
    expect(shared.inUse).toBe(0);
  });

  it('keeps the slot of a queue that shares none', async () => {
    const waiting = outsideWaits();
    const queue = new WorkQueue({ reconcile: waiting.reconcile, concurrency: 1 });
    queue.add('a');
    queue.add('b');
    await settle();
    expect(waiting.log).toEqual(['start a']);
    await waiting.answer('a');
    await waiting.finish('a');
    expect(waiting.log).toEqual(['start a', 'back a', 'done a', 'start b']);
  });
});
