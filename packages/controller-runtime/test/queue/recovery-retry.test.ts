/**
 * When the API server answers again after an outage, keys that failed meanwhile do not wait out
 * their backoff (which grew as long as the outage): they are retried within a window, each at a
 * random moment of it, their failure count kept; keys held by a Retry-After, and requeues, keep their
 * time (docs/spec/children-and-status.md §1 step 12).
 */
import { describe, expect, it } from 'vitest';
import { ApiError } from '../../src/client/api-error.ts';
import { ManualClock } from '../../src/testing/manual-clock.ts';
import { type ReconcileResult, WorkQueue } from '../../src/queue/work-queue.ts';

/** A queue whose reconcile answers `answer(key)` and records when each key ran. */
function recordingQueue(clock: ManualClock, answer: (key: string) => ReconcileResult) {
  const runs: string[] = [];
  const queue = new WorkQueue({
    clock,
    concurrency: 4,
    reconcile: (key) => {
      runs.push(`${key} at ${clock.now()}`);
      return answer(key);
    },
  });
  return { queue, runs };
}

describe('WorkQueue.retryBackedOffWithin', () => {
  it('retries a key backing off after failures within the window, its failure count kept', async () => {
    const clock = new ManualClock();
    let failing = true;
    const { queue, runs } = recordingQueue(clock, () =>
      failing ? { error: new Error('ECONNREFUSED') } : undefined,
    );
    queue.add('a');
    // Twelve failures: the next delay is 5 ms · 2^11 = 10.24 s.
    await clock.advance(5 * (2 ** 11 - 1));
    expect(queue.failures('a')).toBe(12);
    failing = false;
    runs.length = 0;
    queue.retryBackedOffWithin(1_000, () => 0.25);
    await clock.advance(249);
    expect(runs).toEqual([]);
    await clock.advance(1);
    expect(runs).toEqual([`a at ${clock.now()}`]);
    expect(queue.failures('a')).toBe(0);
  });

  it('spreads the keys over the window', async () => {
    const clock = new ManualClock();
    let failing = true;
    const { queue, runs } = recordingQueue(clock, (key) => (failing ? { error: key } : undefined));
    for (const key of ['a', 'b', 'c']) queue.add(key);
    // Ten failures each: the next retries are 5.12 s away.
    await clock.advance(5 * (2 ** 9 - 1));
    failing = false;
    runs.length = 0;
    const draws = [0.9, 0.1, 0.5];
    queue.retryBackedOffWithin(1_000, () => draws.shift() ?? 0);
    const now = clock.now();
    await clock.advance(1_000);
    expect(runs).toEqual([`b at ${now + 100}`, `c at ${now + 500}`, `a at ${now + 900}`]);
  });

  it('leaves a key held by a Retry-After and a requeue where they are', async () => {
    const clock = new ManualClock();
    const refused = new ApiError(429, 'TooManyRequests', 'slow down', 30);
    const answers: Record<string, ReconcileResult[]> = {
      held: [{ error: refused }, undefined],
      asked: [{ error: new Error('hook busy'), retryAfterMs: 20_000 }, undefined],
      later: [{ requeueAfterMs: 60_000 }, undefined],
    };
    const { queue, runs } = recordingQueue(clock, (key) => answers[key]?.shift());
    for (const key of Object.keys(answers)) queue.add(key);
    await clock.advance(0);
    runs.length = 0;
    queue.retryBackedOffWithin(1_000, () => 0);
    await clock.advance(1_000);
    expect(runs).toEqual([]);
    await clock.advance(60_000);
    expect(runs).toEqual(['asked at 20000', 'held at 30000', 'later at 60000']);
  });
});
