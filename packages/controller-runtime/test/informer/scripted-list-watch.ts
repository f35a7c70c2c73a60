/** A RestartingListWatch over scripted list answers and hand-driven watches, on a ManualClock. */
import type { KubeObject } from '@scoby/kube-objects';
import { ApiError } from '../../src/client/api-error.ts';
import type { WatchEvent, WatchHandlers } from '../../src/client/watch-request.ts';
import { type Restart, RestartingListWatch } from '../../src/informer/restarting-list-watch.ts';
import type { BackoffPolicy } from '../../src/queue/backoff.ts';
import { ManualClock } from '../../src/testing/manual-clock.ts';

export type ListAnswer = { items: KubeObject[]; metadata?: { resourceVersion: string } } | Error;

/** A list-watch over scripted answers; records when each list and watch was sent and each failure's delay. */
export function scripted(
  lists: ListAnswer[],
  backoff: BackoffPolicy = { baseMs: 100, capMs: 60_000 },
  random: () => number = Math.random,
  options: { silenceTimeoutMs?: number; withoutRecovered?: boolean } = {},
) {
  const clock = new ManualClock();
  const sent: string[] = [];
  const delays: number[] = [];
  const restarts: Restart[] = [];
  const watchedFrom: string[] = [];
  const watches: WatchHandlers[] = [];
  /** What reached the sink: `upserted <rv>`, `removed <rv>`, `listed <n>`. */
  const received: string[] = [];
  const errors: unknown[] = [];
  let closed = 0;
  let recovered = 0;
  const listWatch = new RestartingListWatch<KubeObject>({
    path: '/api/v1/configmaps',
    list: async () => {
      sent.push(`list at ${clock.now()}`);
      const answer = lists.shift() ?? { items: [], metadata: { resourceVersion: '1' } };
      if (answer instanceof Error) throw answer;
      return answer;
    },
    watch: (query, handlers) => {
      sent.push(`watch at ${clock.now()}`);
      watchedFrom.push(query.resourceVersion ?? '');
      watches.push(handlers);
      return { close: () => void (closed += 1) };
    },
    backoff,
    silenceTimeoutMs: options.silenceTimeoutMs ?? 3_600_000,
    clock,
    random,
    sink: {
      listed: (items) => void received.push(`listed ${items.length}`),
      upserted: (object) => void received.push(`upserted ${object.metadata.resourceVersion}`),
      removed: (object) => void received.push(`removed ${object.metadata.resourceVersion}`),
      failed: (error, retryInMs, restart) => {
        errors.push(error);
        delays.push(retryInMs);
        restarts.push(restart);
      },
      ...(options.withoutRecovered ? {} : { recovered: () => void (recovered += 1) }),
    },
  });
  return {
    clock,
    sent,
    delays,
    restarts,
    watchedFrom,
    watches,
    listWatch,
    received,
    errors,
    recovered: () => recovered,
    closed: () => closed,
  };
}

export function configMapEvent(resourceVersion: string): WatchEvent {
  return {
    type: 'MODIFIED',
    object: {
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: { name: 'a', namespace: 'shop', resourceVersion },
    },
  };
}

export const connectionReset = () => Object.assign(new Error('read ECONNRESET'), { code: 'ECONNRESET' });

export const tooManyRequests = (retryAfterSeconds?: number) =>
  new ApiError(429, 'TooManyRequests', 'too many requests, please try again later', retryAfterSeconds);
