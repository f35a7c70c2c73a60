import { describe, expect, it } from 'vitest';
import { ApiError } from '../../src/client/api-error.ts';
import { ConcurrencyLimit } from '../../src/queue/concurrency-limit.ts';
import { LOW_PRIORITY, NORMAL_PRIORITY } from '../../src/queue/ready-keys.ts';
import {
  type Reconcile,
  type ReconcileResult,
  WorkQueue,
  type WorkQueueObserver,
} from '../../src/queue/work-queue.ts';
import { captureLogs } from '../../src/testing/log-capture.ts';
import { deferred, type Deferred } from '../../src/testing/deferred.ts';
import { ManualClock, settle } from '../../src/testing/manual-clock.ts';

/** A reconcile whose runs the test finishes one by one. */
function controllableReconcile() {
  const runs: Array<{ key: string; done: Deferred<ReconcileResult> }> = [];
  let running = 0;
  let maxRunning = 0;
  const reconcile: Reconcile = async (key) => {
    const done = deferred<ReconcileResult>();
    runs.push({ key, done });
    running += 1;
    maxRunning = Math.max(maxRunning, running);
    try {
      return await done.promise;
    } finally {
      running -= 1;
    }
  };
  return {
    reconcile,
    runs,
    keys: () => runs.map((run) => run.key),
    maxRunning: () => maxRunning,
    /** Finishes the `index`-th run and lets the queue react. */
    finish: async (index: number, result?: ReconcileResult) => {
      runs[index]?.done.resolve(result);
      await settle();
    },
  };
}

/** A reconcile that records the clock time of each run and answers from a script. */
function scriptedReconcile(clock: ManualClock, answer: (run: number, key: string) => ReconcileResult) {
  const calls: Array<{ key: string; at: number }> = [];
  const reconcile: Reconcile = (key) => {
    calls.push({ key, at: clock.now() });
    return answer(calls.length, key);
  };
  return { reconcile, calls };
}

function recordRetries(): { observer: WorkQueueObserver; delays: number[] } {
  const delays: number[] = [];
  return { observer: { retried: (_key, delayMs) => delays.push(delayMs) }, delays };
}

describe('WorkQueue: de-duplication and one run per key', () => {
  it('collapses repeated adds of a waiting key into one reconcile', async () => {
    const r = controllableReconcile();
    const queue = new WorkQueue({ reconcile: r.reconcile, concurrency: 1 });
    queue.add('a');
    queue.add('b');
    queue.add('b');
    queue.add('b');
    expect(queue.length).toBe(1);
    await settle();
    await r.finish(0);
    await r.finish(1);
    expect(r.keys()).toEqual(['a', 'b']);
    expect(queue.length).toBe(0);
  });

  it('never runs a key twice at once and collapses adds during a run into exactly one follow-up', async () => {
    const r = controllableReconcile();
    const queue = new WorkQueue({ reconcile: r.reconcile, concurrency: 4 });
    queue.add('a');
    await settle();
    expect(r.keys()).toEqual(['a']);
    queue.add('a');
    queue.add('a');
    queue.add('a');
    await settle();
    expect(r.keys()).toEqual(['a']);
    expect(queue.running).toBe(1);
    await r.finish(0);
    expect(r.keys()).toEqual(['a', 'a']);
    await r.finish(1);
    expect(r.keys()).toEqual(['a', 'a']);
    expect(queue.running).toBe(0);
    expect(r.maxRunning()).toBe(1);
  });

  it('runs keys in the order they were added', async () => {
    const clock = new ManualClock();
    const s = scriptedReconcile(clock, () => undefined);
    const queue = new WorkQueue({ reconcile: s.reconcile, concurrency: 1, clock });
    for (const key of ['c', 'a', 'b', 'a']) queue.add(key);
    await settle();
    expect(s.calls.map((call) => call.key)).toEqual(['c', 'a', 'b']);
  });

  it('does not call reconcile inside add()', async () => {
    const r = controllableReconcile();
    const queue = new WorkQueue({ reconcile: r.reconcile });
    queue.add('a');
    expect(r.keys()).toEqual([]);
    expect(queue.running).toBe(1);
    await settle();
    expect(r.keys()).toEqual(['a']);
  });
});

describe('WorkQueue: priorities', () => {
  it('starts the keys a change added before the keys of the initial list added earlier', async () => {
    const r = controllableReconcile();
    const queue = new WorkQueue({ reconcile: r.reconcile, concurrency: 1 });
    queue.add('busy');
    for (const key of ['listed-1', 'listed-2', 'listed-3']) queue.add(key, LOW_PRIORITY);
    queue.add('changed-1');
    queue.add('changed-2', NORMAL_PRIORITY);
    expect(queue.length).toBe(5);
    await settle();
    for (let run = 0; run < 6; run++) await r.finish(run);
    expect(r.keys()).toEqual(['busy', 'changed-1', 'changed-2', 'listed-1', 'listed-2', 'listed-3']);
  });

  it('moves a key waiting at low priority behind the changes when a change adds it again', async () => {
    const r = controllableReconcile();
    const queue = new WorkQueue({ reconcile: r.reconcile, concurrency: 1 });
    queue.add('busy');
    queue.add('listed-1', LOW_PRIORITY);
    queue.add('listed-2', LOW_PRIORITY);
    queue.add('changed');
    queue.add('listed-2');
    queue.add('changed', LOW_PRIORITY);
    expect(queue.length).toBe(3);
    await settle();
    for (let run = 0; run < 4; run++) await r.finish(run);
    expect(r.keys()).toEqual(['busy', 'changed', 'listed-2', 'listed-1']);
  });

  it.each([
    ['a retry', { error: new Error('boom') }],
    ['a requeue', { requeueAfterMs: 5 }],
  ] as const)('%s keeps the priority of the run that asked for it', async (_, result) => {
    const clock = new ManualClock();
    const r = controllableReconcile();
    const queue = new WorkQueue({ reconcile: r.reconcile, concurrency: 1, clock });
    queue.add('again', LOW_PRIORITY);
    await settle();
    await r.finish(0, result);
    queue.add('busy');
    await settle();
    queue.add('listed', LOW_PRIORITY);
    // Due after 5 ms: at low priority, behind the key of the initial list that waited before it.
    await clock.advance(5);
    queue.add('changed');
    for (let run = 1; run < 5; run++) await r.finish(run);
    expect(r.keys()).toEqual(['again', 'busy', 'changed', 'listed', 'again']);
  });

  it('runs the follow-up of a key added while it ran at the highest priority it was added at', async () => {
    const order = async (adds: number[]) => {
      const r = controllableReconcile();
      const queue = new WorkQueue({ reconcile: r.reconcile, concurrency: 1 });
      queue.add('running', LOW_PRIORITY);
      await settle();
      queue.add('listed', LOW_PRIORITY);
      for (const priority of adds) queue.add('running', priority);
      for (let run = 0; run < 3; run++) await r.finish(run);
      return r.keys();
    };
    expect(await order([LOW_PRIORITY, NORMAL_PRIORITY, LOW_PRIORITY])).toEqual([
      'running',
      'running',
      'listed',
    ]);
    expect(await order([LOW_PRIORITY, LOW_PRIORITY])).toEqual(['running', 'listed', 'running']);
  });

  it('merges an add with a scheduled add of the same key: due at the sooner time, at the higher priority', async () => {
    const clock = new ManualClock();
    const r = controllableReconcile();
    const queue = new WorkQueue({ reconcile: r.reconcile, concurrency: 1, clock });
    queue.add('busy');
    await settle();
    queue.addAfter('scheduled-then-listed', 100);
    queue.add('listed', LOW_PRIORITY);
    queue.add('scheduled-then-listed', LOW_PRIORITY);
    queue.add('listed-then-scheduled', LOW_PRIORITY);
    queue.addAfter('listed-then-scheduled', 100);
    for (let run = 0; run < 4; run++) await r.finish(run);
    expect(r.keys()).toEqual(['busy', 'scheduled-then-listed', 'listed-then-scheduled', 'listed']);
    await clock.advance(1_000);
    expect(r.keys()).toHaveLength(4);
  });
});

describe('WorkQueue: concurrency', () => {
  it('runs at most `concurrency` reconciles at once and eventually all of them', async () => {
    const r = controllableReconcile();
    const queue = new WorkQueue({ reconcile: r.reconcile, concurrency: 2 });
    for (const key of ['a', 'b', 'c', 'd', 'e']) queue.add(key);
    await settle();
    expect(r.keys()).toEqual(['a', 'b']);
    expect(queue.length).toBe(3);
    await r.finish(1);
    expect(r.keys()).toEqual(['a', 'b', 'c']);
    await r.finish(0);
    await r.finish(2);
    await r.finish(3);
    await r.finish(4);
    expect(r.keys()).toEqual(['a', 'b', 'c', 'd', 'e']);
    expect(r.maxRunning()).toBe(2);
  });

  it('shares one limit between queues', async () => {
    const limit = new ConcurrencyLimit(1);
    const r = controllableReconcile();
    const first = new WorkQueue({ reconcile: r.reconcile, concurrency: limit });
    const second = new WorkQueue({ reconcile: r.reconcile, concurrency: limit });
    first.add('first/a');
    second.add('second/a');
    first.add('first/b');
    await settle();
    expect(r.keys()).toEqual(['first/a']);
    await r.finish(0);
    expect(r.keys()).toEqual(['first/a', 'second/a']);
    await r.finish(1);
    await r.finish(2);
    expect(r.keys()).toEqual(['first/a', 'second/a', 'first/b']);
    expect(r.maxRunning()).toBe(1);
    expect(limit.inUse).toBe(0);
  });

  it('rejects a limit that is not a positive integer', () => {
    expect(() => new ConcurrencyLimit(0)).toThrow('concurrency limit must be a positive integer, got 0');
    expect(() => new ConcurrencyLimit(1.5)).toThrow('concurrency limit must be a positive integer, got 1.5');
  });
});

describe('WorkQueue: backoff', () => {
  it('retries a failing key after 5, 10, 20, 40 ms ... doubling', async () => {
    const clock = new ManualClock();
    const retries = recordRetries();
    const s = scriptedReconcile(clock, () => ({ error: new Error('boom') }));
    const queue = new WorkQueue({ reconcile: s.reconcile, clock, observer: retries.observer });
    queue.add('a');
    await clock.advance(5 + 10 + 20 + 40 + 80);
    expect(s.calls.map((call) => call.at)).toEqual([0, 5, 15, 35, 75, 155]);
    expect(retries.delays).toEqual([5, 10, 20, 40, 80, 160]);
    expect(queue.failures('a')).toBe(6);
  });

  it('caps the delay (base and cap configurable)', async () => {
    const clock = new ManualClock();
    const retries = recordRetries();
    const s = scriptedReconcile(clock, () => ({ error: 'no' }));
    const queue = new WorkQueue({
      reconcile: s.reconcile,
      clock,
      observer: retries.observer,
      backoff: { baseMs: 100, capMs: 500 },
    });
    queue.add('a');
    await clock.advance(100 + 200 + 400 + 500 + 500);
    expect(retries.delays).toEqual([100, 200, 400, 500, 500, 500]);
    expect(s.calls.map((call) => call.at)).toEqual([0, 100, 300, 700, 1200, 1700]);
  });

  it('treats a thrown error like a returned one', async () => {
    const clock = new ManualClock();
    const retries = recordRetries();
    const s = scriptedReconcile(clock, (run) => {
      if (run < 3) throw new Error('thrown');
      return undefined;
    });
    const queue = new WorkQueue({ reconcile: s.reconcile, clock, observer: retries.observer });
    queue.add('a');
    await clock.advance(1000);
    expect(s.calls.map((call) => call.at)).toEqual([0, 5, 15]);
    expect(retries.delays).toEqual([5, 10]);
    expect(queue.failures('a')).toBe(0);
  });

  it('resets the backoff after a success', async () => {
    const clock = new ManualClock();
    const retries = recordRetries();
    const answers: ReconcileResult[] = [{ error: 1 }, { error: 2 }, undefined, { error: 3 }, undefined];
    const s = scriptedReconcile(clock, (run) => answers[run - 1]);
    const queue = new WorkQueue({ reconcile: s.reconcile, clock, observer: retries.observer });
    queue.add('a');
    await clock.advance(15);
    expect(s.calls.map((call) => call.at)).toEqual([0, 5, 15]);
    queue.add('a');
    await clock.advance(100);
    expect(retries.delays).toEqual([5, 10, 5]);
    expect(s.calls.map((call) => call.at)).toEqual([0, 5, 15, 15, 20]);
  });

  it('keeps backoff per key', async () => {
    const clock = new ManualClock();
    const retries = recordRetries();
    const s = scriptedReconcile(clock, (_run, key) => (key === 'bad' ? { error: 'x' } : undefined));
    const queue = new WorkQueue({
      reconcile: s.reconcile,
      clock,
      observer: retries.observer,
      concurrency: 2,
    });
    queue.add('bad');
    await clock.advance(15);
    queue.add('good');
    await settle();
    expect(queue.failures('bad')).toBe(3);
    expect(queue.failures('good')).toBe(0);
    expect(retries.delays).toEqual([5, 10, 20]);
  });

  it('uses retryAfterMs of an error instead of the backoff delay, still counting the failure', async () => {
    const clock = new ManualClock();
    const retries = recordRetries();
    const answers: ReconcileResult[] = [{ error: 'busy', retryAfterMs: 300 }, { error: 'again' }, undefined];
    const s = scriptedReconcile(clock, (run) => answers[run - 1]);
    const queue = new WorkQueue({ reconcile: s.reconcile, clock, observer: retries.observer });
    queue.add('a');
    await clock.advance(1000);
    expect(retries.delays).toEqual([300, 10]);
    expect(s.calls.map((call) => call.at)).toEqual([0, 300, 310]);
  });

  it("waits the API server's Retry-After for a request it refused for load, wrapped or thrown", async () => {
    const clock = new ManualClock();
    const retries = recordRetries();
    const throttled = new ApiError(429, 'TooManyRequests', 'slow down', 5);
    const unavailable = new ApiError(503, 'ServiceUnavailable', 'overloaded', 2);
    const s = scriptedReconcile(clock, (run) => {
      if (run === 1) return { error: throttled };
      if (run === 2) return { error: new Error('writing failed', { cause: unavailable }) };
      if (run === 3) throw throttled;
      // 503 without Retry-After and 429 beyond the clamp.
      if (run === 4) return { error: new ApiError(503, 'ServiceUnavailable', 'down') };
      if (run === 5) return { error: new ApiError(429, 'TooManyRequests', 'later', 5_000) };
      return undefined;
    });
    const queue = new WorkQueue({ reconcile: s.reconcile, clock, observer: retries.observer });
    queue.add('a');
    await clock.advance(2_000_000);
    expect(retries.delays).toEqual([5_000, 2_000, 5_000, 40, 1_000_000]);
  });

  it('addRateLimited and forget drive the same backoff from outside', async () => {
    const clock = new ManualClock();
    const s = scriptedReconcile(clock, () => undefined);
    const queue = new WorkQueue({ reconcile: s.reconcile, clock });
    queue.addRateLimited('a');
    queue.addRateLimited('b');
    queue.addRateLimited('b');
    expect(queue.failures('b')).toBe(2);
    queue.forget('b');
    expect(queue.failures('b')).toBe(0);
    await clock.advance(4);
    expect(s.calls).toEqual([]);
    await clock.advance(1);
    expect(s.calls).toEqual([
      { key: 'a', at: 5 },
      { key: 'b', at: 5 },
    ]);
  });
});

describe('WorkQueue: delayed adds', () => {
  it('requeues after requeueAfterMs and not before', async () => {
    const clock = new ManualClock();
    const s = scriptedReconcile(clock, (run) => (run === 1 ? { requeueAfterMs: 250 } : undefined));
    const queue = new WorkQueue({ reconcile: s.reconcile, clock });
    queue.add('a');
    await clock.advance(249);
    expect(s.calls).toEqual([{ key: 'a', at: 0 }]);
    await clock.advance(1);
    expect(s.calls).toEqual([
      { key: 'a', at: 0 },
      { key: 'a', at: 250 },
    ]);
    await clock.advance(10_000);
    expect(s.calls).toHaveLength(2);
  });

  it('a requeue counts as success for the backoff', async () => {
    const clock = new ManualClock();
    const answers: ReconcileResult[] = [{ error: 'x' }, { requeueAfterMs: 1000 }];
    const s = scriptedReconcile(clock, (run) => answers[run - 1]);
    const queue = new WorkQueue({ reconcile: s.reconcile, clock });
    queue.add('a');
    await clock.advance(5);
    expect(queue.failures('a')).toBe(0);
  });

  it('keeps the earlier of two scheduled adds', async () => {
    const clock = new ManualClock();
    const s = scriptedReconcile(clock, () => undefined);
    const queue = new WorkQueue({ reconcile: s.reconcile, clock });
    queue.addAfter('late-then-early', 100);
    queue.addAfter('late-then-early', 50);
    queue.addAfter('early-then-late', 50);
    queue.addAfter('early-then-late', 100);
    await clock.advance(1000);
    expect(s.calls).toEqual([
      { key: 'late-then-early', at: 50 },
      { key: 'early-then-late', at: 50 },
    ]);
  });

  it('a direct add replaces a scheduled one', async () => {
    const clock = new ManualClock();
    const s = scriptedReconcile(clock, () => undefined);
    const queue = new WorkQueue({ reconcile: s.reconcile, clock });
    queue.addAfter('a', 100);
    await clock.advance(10);
    queue.add('a');
    await clock.advance(1000);
    expect(s.calls).toEqual([{ key: 'a', at: 10 }]);
    expect(clock.pendingTimers).toBe(0);
  });

  it('ignores a scheduled add for a key that is already waiting', async () => {
    const clock = new ManualClock();
    const r = controllableReconcile();
    const queue = new WorkQueue({ reconcile: r.reconcile, clock });
    queue.add('busy');
    queue.add('a');
    queue.addAfter('a', 100);
    expect(clock.pendingTimers).toBe(0);
  });

  it('addAfter with no delay adds at once', async () => {
    const clock = new ManualClock();
    const s = scriptedReconcile(clock, () => undefined);
    const queue = new WorkQueue({ reconcile: s.reconcile, clock });
    queue.addAfter('a', 0);
    await settle();
    expect(s.calls).toEqual([{ key: 'a', at: 0 }]);
  });
});

describe('WorkQueue: shutdown', () => {
  it('waits for running reconciles, drops waiting and scheduled keys, ignores new adds', async () => {
    const clock = new ManualClock();
    const r = controllableReconcile();
    const queue = new WorkQueue({ reconcile: r.reconcile, clock });
    queue.add('running');
    queue.add('waiting');
    queue.addAfter('scheduled', 10);
    await settle();
    let drained = false;
    const shutdown = queue.shutdown({ drain: true }).then(() => {
      drained = true;
    });
    queue.add('late');
    queue.addAfter('late', 1);
    queue.addRateLimited('late');
    await clock.advance(100);
    expect(drained).toBe(false);
    expect(queue.shuttingDown).toBe(true);
    await r.finish(0, { error: 'failed during shutdown' });
    await shutdown;
    expect(drained).toBe(true);
    expect(r.keys()).toEqual(['running']);
    expect(queue.length).toBe(0);
    expect(clock.pendingTimers).toBe(0);
  });

  it('without drain resolves at once', async () => {
    const r = controllableReconcile();
    const queue = new WorkQueue({ reconcile: r.reconcile });
    queue.add('running');
    await settle();
    await queue.shutdown({ drain: false });
    expect(queue.running).toBe(1);
    await r.finish(0);
    expect(queue.running).toBe(0);
  });

  it('does not start the follow-up of a key that was running at shutdown', async () => {
    const r = controllableReconcile();
    const queue = new WorkQueue({ reconcile: r.reconcile });
    queue.add('a');
    await settle();
    queue.add('a');
    const shutdown = queue.shutdown();
    await r.finish(0);
    await shutdown;
    expect(r.keys()).toEqual(['a']);
  });
});

describe('WorkQueue: observer', () => {
  it('reports adds, depth, queue latency, outcome, duration and retries', async () => {
    const clock = new ManualClock(1000);
    const events: unknown[] = [];
    const observer: WorkQueueObserver = {
      added: (key) => events.push(['added', key]),
      depth: (depth) => events.push(['depth', depth]),
      started: (key, latency) => events.push(['started', key, latency]),
      finished: (key, outcome, duration, error) => events.push(['finished', key, outcome, duration, error]),
      retried: (key, delay) => events.push(['retried', key, delay]),
    };
    const failure = new Error('boom');
    const r = controllableReconcile();
    const queue = new WorkQueue({ reconcile: r.reconcile, clock, observer });
    queue.add('busy');
    queue.add('a');
    queue.add('a');
    await clock.advance(30);
    await r.finish(0);
    await clock.advance(7);
    await r.finish(1, { error: failure });
    await clock.advance(5);
    await r.finish(2, { requeueAfterMs: 60_000 });
    expect(events).toEqual([
      ['added', 'busy'],
      ['depth', 1],
      ['depth', 0],
      ['started', 'busy', 0],
      ['added', 'a'],
      ['depth', 1],
      ['finished', 'busy', 'success', 30, undefined],
      ['depth', 0],
      ['started', 'a', 30],
      ['retried', 'a', 5],
      ['finished', 'a', 'error', 7, failure],
      ['added', 'a'],
      ['depth', 1],
      ['depth', 0],
      ['started', 'a', 0],
      ['finished', 'a', 'requeue', 0, undefined],
    ]);
  });
});

describe('WorkQueue: reconcile deadline', () => {
  it('frees the slot of a reconcile that never finishes, retries its key with backoff, ignores its late result', async () => {
    const clock = new ManualClock();
    const logs = captureLogs('info');
    const outcomes: string[] = [];
    const r = controllableReconcile();
    const queue = new WorkQueue({
      reconcile: r.reconcile,
      concurrency: 1,
      clock,
      reconcileTimeoutMs: 1000,
      logger: logs.logger,
      observer: {
        finished: (key, outcome, durationMs) => outcomes.push(`${key} ${outcome} ${durationMs}`),
        retried: (key, delayMs) => outcomes.push(`${key} retry in ${delayMs}`),
      },
    });
    queue.add('stuck');
    queue.add('next');
    await clock.advance(999);
    expect(r.keys()).toEqual(['stuck']);
    await clock.advance(1);
    expect(r.keys()).toEqual(['stuck', 'next']);
    expect(queue.running).toBe(1);
    await r.finish(1);
    expect(outcomes).toEqual(['stuck retry in 5', 'stuck timeout 1000', 'next success 0']);
    await clock.advance(5);
    expect(r.keys()).toEqual(['stuck', 'next', 'stuck']);

    await r.finish(2);
    expect(queue.failures('stuck')).toBe(0);

    // The abandoned run answers at last: nothing happens, neither a retry nor a recorded failure.
    await r.finish(0, { error: new Error('too late') });
    await clock.advance(10_000);
    expect(r.keys()).toEqual(['stuck', 'next', 'stuck']);
    expect(queue.failures('stuck')).toBe(0);
    expect(outcomes).toEqual(['stuck retry in 5', 'stuck timeout 1000', 'next success 0', 'stuck success 0']);
    expect(logs.lines().map(({ level, msg, key, err }) => ({ level, msg, key, err }))).toEqual([
      {
        level: 'error',
        msg: 'reconcile abandoned at its deadline',
        key: 'stuck',
        err: expect.objectContaining({
          type: 'ReconcileTimeoutError',
          message: 'the reconcile of stuck did not finish within 1000 ms; it is retried with backoff',
        }),
      },
    ]);
  });

  it('logs a reconcile that throws at error level, with the error; returned errors are for the caller to log', async () => {
    const clock = new ManualClock();
    const logs = captureLogs('info');
    const queue = new WorkQueue({
      reconcile: (key) => {
        if (key === 'throws') throw new Error('GET /api/v1/things timed out');
        return { error: new Error('said so') };
      },
      clock,
      logger: logs.logger,
    });
    queue.add('throws');
    queue.add('returns');
    await clock.advance(0);
    expect(logs.lines().map(({ level, msg, key, err }) => ({ level, msg, key, err }))).toEqual([
      {
        level: 'error',
        msg: 'reconcile failed',
        key: 'throws',
        err: expect.objectContaining({ message: 'GET /api/v1/things timed out' }),
      },
    ]);
  });
});

describe('WorkQueue: each outcome at debug level', () => {
  it('logs how each reconcile ended and when its key is tried again', async () => {
    const clock = new ManualClock();
    const logs = captureLogs('debug');
    const queue = new WorkQueue({
      reconcile: (key) => {
        if (key === 'fails') return { error: new Error('said so') };
        if (key === 'later') return { requeueAfterMs: 2_000 };
        return undefined;
      },
      clock,
      logger: logs.logger,
    });
    queue.add('fails');
    queue.add('later');
    queue.add('done');
    await clock.advance(0);
    expect(
      logs
        .lines()
        .filter(({ level }) => level === 'debug')
        .map(({ msg, key, outcome, retryInMs }) => ({ msg, key, outcome, retryInMs })),
    ).toEqual([
      { msg: 'reconcile finished', key: 'fails', outcome: 'error', retryInMs: 5 },
      { msg: 'reconcile finished', key: 'later', outcome: 'requeue', retryInMs: 2_000 },
      { msg: 'reconcile finished', key: 'done', outcome: 'success', retryInMs: undefined },
    ]);
  });
});

describe('WorkQueue: progress', () => {
  it('reports 0 while idle, else how long work has waited with no reconcile finishing', async () => {
    const clock = new ManualClock();
    const r = controllableReconcile();
    const queue = new WorkQueue({ reconcile: r.reconcile, concurrency: 1, clock });
    await clock.advance(60_000);
    expect(queue.stalledForMs()).toBe(0);
    queue.add('a');
    queue.add('b');
    expect(queue.stalledForMs()).toBe(0);
    await clock.advance(3000);
    expect(queue.stalledForMs()).toBe(3000);
    await r.finish(0);
    expect(queue.stalledForMs()).toBe(0);
    await clock.advance(100);
    expect(queue.stalledForMs()).toBe(100);
    await r.finish(1);
    expect(queue.stalledForMs()).toBe(0);
    await clock.advance(100);
    expect(queue.stalledForMs()).toBe(0);
  });

  it('counts an abandoned reconcile as no progress, even across the idle backoff after it', async () => {
    const clock = new ManualClock();
    const r = controllableReconcile();
    const queue = new WorkQueue({ reconcile: r.reconcile, clock, reconcileTimeoutMs: 1000 });
    queue.add('hangs');
    await clock.advance(1000);
    expect(queue.stalledForMs()).toBe(0);
    await clock.advance(5);
    expect(r.keys()).toEqual(['hangs', 'hangs']);
    expect(queue.stalledForMs()).toBe(1005);
    await r.finish(1);
    expect(queue.stalledForMs()).toBe(0);
  });
});

describe('WorkQueue with real timers', () => {
  it('retries with backoff and stops after a success', async () => {
    const attempts: number[] = [];
    const succeeded = deferred();
    const queue = new WorkQueue({
      reconcile: () => {
        attempts.push(performance.now());
        if (attempts.length < 4) return { error: new Error('not yet') };
        succeeded.resolve();
        return undefined;
      },
    });
    queue.add('a');
    await succeeded.promise;
    await settle();
    const gaps = attempts.slice(1).map((at, i) => at - (attempts[i] as number));
    expect(gaps).toHaveLength(3);
    // Timers never fire early (allowing 1 ms of timer rounding).
    expect(gaps[0]).toBeGreaterThanOrEqual(4);
    expect(gaps[1]).toBeGreaterThanOrEqual(9);
    expect(gaps[2]).toBeGreaterThanOrEqual(19);
    expect(queue.failures('a')).toBe(0);
    await queue.shutdown();
  });

  it('drains a running reconcile on shutdown', async () => {
    let finished = false;
    const started = deferred();
    const queue = new WorkQueue({
      reconcile: async () => {
        started.resolve();
        await new Promise((resolve) => setTimeout(resolve, 50));
        finished = true;
      },
    });
    queue.add('a');
    await started.promise;
    await queue.shutdown({ drain: true });
    expect(finished).toBe(true);
  });
});

describe('the context of a reconcile', () => {
  it('gives each run its own reconcile id, and a logger that names it and the key', async () => {
    const logs = captureLogs();
    const contexts: { key: string; id: string }[] = [];
    const queue = new WorkQueue({
      reconcile: (key, context) => {
        contexts.push({ key, id: context.reconcileId });
        context.logger?.info('reconciling');
      },
      logger: logs.logger,
    });
    queue.add('a');
    await settle();
    queue.add('a');
    await settle();
    expect(contexts.map((context) => context.key)).toEqual(['a', 'a']);
    expect(new Set(contexts.map((context) => context.id)).size).toBe(2);
    expect(
      logs
        .lines()
        .filter((line) => line.msg === 'reconciling')
        .map((line) => [line.key, line.reconcileID]),
    ).toEqual(contexts.map((context) => ['a', context.id]));
  });

  it('aborts the signal of a reconcile at its deadline', async () => {
    const clock = new ManualClock();
    const signals: AbortSignal[] = [];
    const queue = new WorkQueue({
      reconcile: (_key, context) => {
        signals.push(context.signal);
        return new Promise<ReconcileResult>(() => {});
      },
      clock,
      reconcileTimeoutMs: 1000,
    });
    queue.add('stuck');
    await clock.advance(999);
    expect(signals.map((signal) => signal.aborted)).toEqual([false]);
    await clock.advance(1);
    expect(signals[0]?.aborted).toBe(true);
    expect(String(signals[0]?.reason)).toMatch(/did not finish within 1000 ms/);
    await queue.shutdown({ drain: false });
  });

  it('aborts the signals of the running reconciles when the queue shuts down aborting', async () => {
    const r = controllableReconcile();
    const signals: AbortSignal[] = [];
    const queue = new WorkQueue({
      reconcile: (key, context) => {
        signals.push(context.signal);
        return r.reconcile(key, context);
      },
      concurrency: 2,
    });
    queue.add('a');
    queue.add('b');
    await settle();
    const stopped = queue.shutdown({ abort: 'this process stopped leading' });
    expect(signals.map((signal) => signal.aborted)).toEqual([true, true]);
    expect(String(signals[0]?.reason)).toBe('Error: this process stopped leading');
    await r.finish(0);
    await r.finish(1);
    await stopped;
  });
});

describe('a terminal error', () => {
  it('counts as an error and is never retried: only a new add brings the key back', async () => {
    const clock = new ManualClock();
    const outcomes: string[] = [];
    let runs = 0;
    const queue = new WorkQueue({
      reconcile: () => {
        runs++;
        return { terminal: new Error('the hook said permanent') };
      },
      clock,
      observer: {
        finished: (key, outcome) => outcomes.push(`${key} ${outcome}`),
        retried: (key, delayMs) => outcomes.push(`${key} retry in ${delayMs}`),
      },
    });
    queue.add('parked');
    await settle();
    await clock.advance(100_000);
    expect(outcomes).toEqual(['parked error']);
    expect(runs).toBe(1);
    queue.add('parked');
    await settle();
    expect(runs).toBe(2);
  });
});
