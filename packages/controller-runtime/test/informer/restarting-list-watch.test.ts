/**
 * A list or watch the API server refused for load starts over no sooner than its Retry-After
 * (docs/spec/README.md), whether the refusal answered the list, the watch request, or came as a
 * watch's ERROR event; without one, or when the backoff is longer, the backoff decides. A watch lost
 * to the network resumes from its last resourceVersion; the backoff has jitter and a cap of 5 s, and
 * its count starts again once the API server has answered for a while.
 */
import type { KubeObject } from '@scoby/kube-objects';
import { describe, expect, it } from 'vitest';
import { ApiError } from '../../src/client/api-error.ts';
import type { WatchEvent } from '../../src/client/watch-request.ts';
import { DEFAULT_RESTART_BACKOFF } from '../../src/informer/shared-informer.ts';
import { configMapEvent, connectionReset, scripted, tooManyRequests } from './scripted-list-watch.ts';

describe('RestartingListWatch and Retry-After', () => {
  it('lists again only after the Retry-After of a list refused for load', async () => {
    const { clock, sent, delays, listWatch } = scripted([tooManyRequests(5), tooManyRequests(2)]);
    listWatch.start();
    await clock.advance(4_999);
    expect(sent).toEqual(['list at 0']);
    await clock.advance(1);
    expect(sent).toEqual(['list at 0', 'list at 5000']);
    await clock.advance(2_000);
    expect(sent).toEqual(['list at 0', 'list at 5000', 'list at 7000', 'watch at 7000']);
    expect(delays).toEqual([5_000, 2_000]);
    listWatch.stop();
  });

  it('starts over only after the Retry-After of a refused watch request and of a 429 ERROR event', async () => {
    const { clock, sent, delays, watches, listWatch } = scripted([]);
    listWatch.start();
    await clock.advance(0);
    watches.at(-1)?.ended(tooManyRequests(3));
    await clock.advance(2_999);
    expect(sent).toEqual(['list at 0', 'watch at 0']);
    await clock.advance(1);
    // A refusal for load says nothing about the state: the watch resumes, no list.
    expect(sent).toEqual(['list at 0', 'watch at 0', 'watch at 3000']);

    const refusal: WatchEvent = {
      type: 'ERROR',
      object: {
        kind: 'Status',
        apiVersion: 'v1',
        metadata: {},
        code: 429,
        reason: 'TooManyRequests',
        message: 'storage is overloaded',
        details: { retryAfterSeconds: 4 },
      } as unknown as KubeObject,
    };
    watches.at(-1)?.event(refusal);
    await clock.advance(3_999);
    expect(sent).toHaveLength(3);
    await clock.advance(1);
    expect(sent.slice(3)).toEqual(['watch at 7000']);
    expect(delays).toEqual([3_000, 4_000]);
    listWatch.stop();
  });

  it('keeps the backoff when the refusal names no Retry-After or a shorter one', async () => {
    const { clock, delays, listWatch } = scripted(
      [tooManyRequests(), tooManyRequests(1), new Error('connection reset')],
      { baseMs: 1_500, capMs: 60_000 },
    );
    listWatch.start();
    await clock.advance(10_000);
    expect(delays).toEqual([1_500, 3_000, 6_000]);
    listWatch.stop();
  });
});

describe('RestartingListWatch after an outage', () => {
  it('resumes a watch the network lost from the last resourceVersion it saw, without a list', async () => {
    const { clock, sent, watchedFrom, watches, restarts, listWatch } = scripted(
      [{ items: [], metadata: { resourceVersion: '10' } }],
      { baseMs: 100, capMs: 5_000 },
    );
    listWatch.start();
    await clock.advance(0);
    watches.at(-1)?.opened?.();
    watches.at(-1)?.event(configMapEvent('12'));
    watches.at(-1)?.ended(connectionReset());
    await clock.advance(100);
    watches.at(-1)?.ended(new Error('the watch connection was lost'));
    await clock.advance(200);
    expect(sent).toEqual(['list at 0', 'watch at 0', 'watch at 100', 'watch at 300']);
    expect(watchedFrom).toEqual(['10', '12', '12']);
    expect(restarts).toEqual(['watch', 'watch']);
    listWatch.stop();
  });

  it('lists again when the API server answers the watch with an error that is not a refusal for load', async () => {
    const { clock, sent, restarts, watches, listWatch } = scripted([], { baseMs: 100, capMs: 5_000 });
    listWatch.start();
    await clock.advance(0);
    watches.at(-1)?.ended(new ApiError(500, 'InternalError', 'etcdserver: request timed out'));
    await clock.advance(100);
    expect(sent).toEqual(['list at 0', 'watch at 0', 'list at 100', 'watch at 100']);
    expect(restarts).toEqual(['list']);
    listWatch.stop();
  });

  it('waits at most 5 s between attempts by default, each delay drawn from the upper half of its step', async () => {
    const failures = Array.from({ length: 12 }, () => connectionReset());
    const low = scripted([...failures], DEFAULT_RESTART_BACKOFF, () => 0.999_999);
    low.listWatch.start();
    await low.clock.advance(120_000);
    low.listWatch.stop();
    const high = scripted([...failures], DEFAULT_RESTART_BACKOFF, () => 0);
    high.listWatch.start();
    await high.clock.advance(120_000);
    high.listWatch.stop();
    expect(high.delays).toEqual([
      200, 400, 800, 1_600, 3_200, 5_000, 5_000, 5_000, 5_000, 5_000, 5_000, 5_000,
    ]);
    expect(low.delays.map((delay) => Math.round(delay))).toEqual([
      100, 200, 400, 800, 1_600, 2_500, 2_500, 2_500, 2_500, 2_500, 2_500, 2_500,
    ]);
  });

  it('gives informers that failed together different delays', async () => {
    const runs = Array.from({ length: 5 }, () => scripted([connectionReset()], DEFAULT_RESTART_BACKOFF));
    for (const run of runs) run.listWatch.start();
    for (const run of runs) await run.clock.advance(0);
    const delays = runs.map((run) => run.delays[0] ?? 0);
    for (const run of runs) run.listWatch.stop();
    expect(new Set(delays).size).toBe(5);
    for (const delay of delays) {
      expect(delay).toBeGreaterThanOrEqual(100);
      expect(delay).toBeLessThanOrEqual(200);
    }
  });

  it('keeps counting failures of watches that break soon after they open, and starts again after one that served for the cap', async () => {
    const { clock, delays, watches, listWatch } = scripted([], { baseMs: 100, capMs: 1_000 });
    listWatch.start();
    await clock.advance(0);
    // Answered, then cut: a proxy that truncates every answer. No storm of watches at the base delay.
    for (let round = 0; round < 5; round++) {
      watches.at(-1)?.opened?.();
      await clock.advance(10);
      watches.at(-1)?.ended(connectionReset());
      await clock.advance(1_000);
    }
    watches.at(-1)?.opened?.();
    await clock.advance(1_000);
    watches.at(-1)?.ended(connectionReset());
    expect(delays).toEqual([100, 200, 400, 800, 1_000, 100]);
    listWatch.stop();
  });

  it('says once that the API server answers again, when a request is answered after failures', async () => {
    const { clock, watches, listWatch, recovered } = scripted([connectionReset(), connectionReset()], {
      baseMs: 100,
      capMs: 1_000,
    });
    listWatch.start();
    await clock.advance(300);
    expect(recovered()).toBe(1);
    watches.at(-1)?.opened?.();
    expect(recovered()).toBe(1);
    watches.at(-1)?.ended(connectionReset());
    await clock.advance(1_000);
    expect(recovered()).toBe(1);
    watches.at(-1)?.opened?.();
    expect(recovered()).toBe(2);
    listWatch.stop();
  });
});
