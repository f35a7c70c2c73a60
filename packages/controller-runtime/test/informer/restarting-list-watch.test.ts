/**
 * A list or watch the API server refused for load starts over no sooner than its Retry-After
 * (docs/spec/README.md), whether the refusal answered the list, the watch request, or came as a
 * watch's ERROR event; without one, or when the backoff is longer, the backoff decides.
 */
import type { KubeObject } from '@scoby/kube-objects';
import { describe, expect, it } from 'vitest';
import { ApiError } from '../../src/client/api-error.ts';
import type { WatchEvent, WatchHandlers } from '../../src/client/watch-request.ts';
import { RestartingListWatch } from '../../src/informer/restarting-list-watch.ts';
import { ManualClock } from '../../src/testing/manual-clock.ts';

type ListAnswer = { items: KubeObject[]; metadata: { resourceVersion: string } } | Error;

/** A list-watch over scripted answers; records when each list and watch was sent and each failure's delay. */
function scripted(lists: ListAnswer[], backoff = { baseMs: 100, capMs: 60_000 }) {
  const clock = new ManualClock();
  const sent: string[] = [];
  const delays: number[] = [];
  const watches: WatchHandlers[] = [];
  const listWatch = new RestartingListWatch<KubeObject>({
    path: '/api/v1/configmaps',
    list: async () => {
      sent.push(`list at ${clock.now()}`);
      const answer = lists.shift() ?? { items: [], metadata: { resourceVersion: '1' } };
      if (answer instanceof Error) throw answer;
      return answer;
    },
    watch: (_query, handlers) => {
      sent.push(`watch at ${clock.now()}`);
      watches.push(handlers);
      return { close: () => {} };
    },
    backoff,
    silenceTimeoutMs: 3_600_000,
    clock,
    sink: {
      listed: () => {},
      upserted: () => {},
      removed: () => {},
      failed: (_error, retryInMs) => delays.push(retryInMs),
    },
  });
  return { clock, sent, delays, watches, listWatch };
}

const tooManyRequests = (retryAfterSeconds?: number) =>
  new ApiError(429, 'TooManyRequests', 'too many requests, please try again later', retryAfterSeconds);

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
    expect(sent).toEqual(['list at 0', 'watch at 0', 'list at 3000', 'watch at 3000']);

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
    expect(sent).toHaveLength(4);
    await clock.advance(1);
    expect(sent.slice(4)).toEqual(['list at 7000', 'watch at 7000']);
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
