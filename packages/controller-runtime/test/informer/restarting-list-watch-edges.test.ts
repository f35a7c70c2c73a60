/**
 * RestartingListWatch at its edges: events of a watch it already gave up, a clean end of a watch,
 * a 410 ERROR event, bookmarks and events without a resourceVersion, a list without metadata,
 * stop and start twice, the silence timer of a watch given up.
 */
import type { KubeObject } from '@scoby/kube-objects';
import { describe, expect, it } from 'vitest';
import { ApiError } from '../../src/client/api-error.ts';
import type { WatchEvent } from '../../src/client/watch-request.ts';
import { WatchSilentError } from '../../src/informer/restarting-list-watch.ts';
import { configMapEvent, connectionReset, scripted } from './scripted-list-watch.ts';

const BACKOFF = { baseMs: 100, capMs: 5_000 };

function errorEvent(status: Record<string, unknown>): WatchEvent {
  return {
    type: 'ERROR',
    object: { kind: 'Status', apiVersion: 'v1', metadata: {}, ...status } as unknown as KubeObject,
  };
}

describe('RestartingListWatch edges', () => {
  it('ignores every callback of a watch it has given up', async () => {
    const { clock, sent, watches, received, errors, recovered, listWatch } = scripted([], BACKOFF);
    listWatch.start();
    await clock.advance(0);
    const first = watches.at(-1)!;
    first.opened?.();
    first.ended(connectionReset());
    await clock.advance(100);
    expect(sent).toEqual(['list at 0', 'watch at 0', 'watch at 100']);
    // The first watch speaks again: nothing of it counts.
    first.opened?.();
    first.event(configMapEvent('7'));
    first.event(errorEvent({ code: 500, message: 'late' }));
    first.ended(connectionReset());
    first.ended(undefined);
    await clock.advance(10_000);
    expect(sent).toEqual(['list at 0', 'watch at 0', 'watch at 100']);
    expect(received).toEqual(['listed 0']);
    expect(errors).toHaveLength(1);
    // Its opening says nothing about the API server answering the new one.
    expect(recovered()).toBe(0);
    listWatch.stop();
  });

  it('watches again at once from its resourceVersion when a watch ends cleanly, with no failure', async () => {
    const { clock, sent, watchedFrom, watches, errors, listWatch } = scripted(
      [{ items: [], metadata: { resourceVersion: '10' } }],
      BACKOFF,
    );
    listWatch.start();
    await clock.advance(0);
    watches.at(-1)?.event(configMapEvent('11'));
    watches.at(-1)?.ended(undefined);
    expect(sent).toEqual(['list at 0', 'watch at 0', 'watch at 0']);
    expect(watchedFrom).toEqual(['10', '11']);
    expect(errors).toEqual([]);
    listWatch.stop();
  });

  it('lists again at once on a 410 ERROR event, closing the watch, with no failure', async () => {
    const { clock, sent, watches, errors, closed, listWatch } = scripted([], BACKOFF);
    listWatch.start();
    await clock.advance(0);
    watches.at(-1)?.event(errorEvent({ code: 410, reason: 'Expired', message: 'too old resource version' }));
    await clock.advance(0);
    expect(sent).toEqual(['list at 0', 'watch at 0', 'list at 0', 'watch at 0']);
    expect(errors).toEqual([]);
    expect(closed()).toBe(1);
    listWatch.stop();
  });

  it('lists again, not watches from the expired resourceVersion, when the list after a 410 fails', async () => {
    const { clock, sent, watches, restarts, listWatch } = scripted(
      [{ items: [], metadata: { resourceVersion: '10' } }, connectionReset()],
      BACKOFF,
    );
    listWatch.start();
    await clock.advance(0);
    watches.at(-1)?.event(errorEvent({ code: 410, reason: 'Expired', message: 'too old resource version' }));
    await clock.advance(100);
    expect(restarts).toEqual(['list']);
    expect(sent).toEqual(['list at 0', 'watch at 0', 'list at 0', 'list at 100', 'watch at 100']);
    listWatch.stop();
  });

  it('takes an ERROR event without reason or details as an API error of its code, and lists again', async () => {
    const { clock, sent, watches, errors, restarts, listWatch } = scripted([], BACKOFF);
    listWatch.start();
    await clock.advance(0);
    watches.at(-1)?.event(errorEvent({ code: 500, message: 'etcd is away' }));
    expect(errors).toHaveLength(1);
    const error = errors[0] as ApiError;
    expect(error).toBeInstanceOf(ApiError);
    expect([error.code, error.reason, error.message]).toEqual([500, '', 'watch error 500: etcd is away']);
    expect(restarts).toEqual(['list']);
    await clock.advance(100);
    expect(sent).toEqual(['list at 0', 'watch at 0', 'list at 100', 'watch at 100']);
    listWatch.stop();
  });

  it('reports a watch refused for load as restarting with a watch', async () => {
    const { clock, restarts, watches, listWatch } = scripted([], BACKOFF);
    listWatch.start();
    await clock.advance(0);
    watches.at(-1)?.ended(new ApiError(429, 'TooManyRequests', 'too many requests', 1));
    expect(restarts).toEqual(['watch']);
    listWatch.stop();
  });

  it('hands a bookmark to nobody, and a DELETED event to removed', async () => {
    const { clock, watches, received, listWatch } = scripted([], BACKOFF);
    listWatch.start();
    await clock.advance(0);
    const object = configMapEvent('5').object;
    watches.at(-1)?.event({ type: 'BOOKMARK', object: { ...object, metadata: { resourceVersion: '6' } } });
    watches.at(-1)?.event({
      type: 'DELETED',
      object: { ...object, metadata: { ...object.metadata, resourceVersion: '7' } },
    });
    expect(received).toEqual(['listed 0', 'removed 7']);
    listWatch.stop();
  });

  it('keeps its resourceVersion through an event without one, and resumes from it', async () => {
    const { clock, watchedFrom, watches, listWatch } = scripted(
      [{ items: [], metadata: { resourceVersion: '10' } }],
      BACKOFF,
    );
    listWatch.start();
    await clock.advance(0);
    const object = configMapEvent('5').object;
    watches
      .at(-1)
      ?.event({ type: 'MODIFIED', object: { ...object, metadata: { name: 'a', namespace: 'shop' } } });
    watches.at(-1)?.ended(connectionReset());
    await clock.advance(100);
    expect(watchedFrom).toEqual(['10', '10']);
    listWatch.stop();
  });

  it('lists again, not watches, when it lost a watch it opened without a resourceVersion', async () => {
    const { clock, sent, watchedFrom, watches, restarts, listWatch } = scripted([{ items: [] }], BACKOFF);
    listWatch.start();
    await clock.advance(0);
    expect(watchedFrom).toEqual(['']);
    watches.at(-1)?.ended(connectionReset());
    await clock.advance(100);
    expect(restarts).toEqual(['list']);
    expect(sent).toEqual(['list at 0', 'watch at 0', 'list at 100', 'watch at 100']);
    listWatch.stop();
  });

  it('says nothing of recovery at a first answer, and needs no recovered handler', async () => {
    const quiet = scripted([], BACKOFF);
    quiet.listWatch.start();
    await quiet.clock.advance(0);
    quiet.watches.at(-1)?.opened?.();
    expect(quiet.recovered()).toBe(0);
    quiet.listWatch.stop();

    const without = scripted([connectionReset()], BACKOFF, Math.random, { withoutRecovered: true });
    without.listWatch.start();
    await without.clock.advance(100);
    expect(without.sent).toEqual(['list at 0', 'list at 100', 'watch at 100']);
    without.listWatch.stop();
  });

  it('after stop, never starts again, even when a restart was due', async () => {
    const { clock, sent, listWatch } = scripted([connectionReset()], BACKOFF);
    listWatch.start();
    listWatch.start();
    await clock.advance(0);
    expect(sent).toEqual(['list at 0']);
    listWatch.stop();
    expect(clock.pendingTimers).toBe(0);
    await clock.advance(10_000);
    expect(sent).toEqual(['list at 0']);
    // Started again, it lists again.
    listWatch.start();
    await clock.advance(0);
    expect(sent).toEqual(['list at 0', 'list at 10000', 'watch at 10000']);
    listWatch.stop();
  });

  it('gives up a watch that stayed silent for its timeout, and only then, naming the silence', async () => {
    const { clock, sent, watches, errors, closed, listWatch } = scripted([], BACKOFF, Math.random, {
      silenceTimeoutMs: 1_000,
    });
    listWatch.start();
    await clock.advance(0);
    watches.at(-1)?.opened?.();
    await clock.advance(400);
    watches.at(-1)?.event(configMapEvent('3'));
    // Silent from 400: given up at 1400, not at 1000.
    await clock.advance(999);
    expect(errors).toEqual([]);
    await clock.advance(1);
    expect(errors).toHaveLength(1);
    expect(errors[0]).toBeInstanceOf(WatchSilentError);
    expect((errors[0] as Error).name).toBe('WatchSilentError');
    expect((errors[0] as Error).message).toBe(
      'the watch of /api/v1/configmaps delivered no event or bookmark for 1000 ms',
    );
    expect(closed()).toBe(1);
    await clock.advance(100);
    expect(sent).toEqual(['list at 0', 'watch at 0', 'watch at 1500']);
    // The given-up watch's silence timer is gone: only the new watch's runs.
    watches.at(-1)?.opened?.();
    await clock.advance(999);
    expect(errors).toHaveLength(1);
    listWatch.stop();
  });
});
