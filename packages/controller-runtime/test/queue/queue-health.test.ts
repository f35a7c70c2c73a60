/**
 * A wedged work queue fails /healthz (so a kubelet would restart the process) and the check recovers
 * once reconciles finish again; /readyz keeps its own meaning. An isolated queue (a registration's)
 * stalled while its runs wait is its own problem: named after /healthz's ok, liveness stays 200.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { createRuntimeMetrics } from '../../src/metrics/metrics.ts';
import { type OpsServer, startOpsServer } from '../../src/ops/ops-server.ts';
import { CappedShare } from '../../src/queue/capped-share.ts';
import { ConcurrencyLimit } from '../../src/queue/concurrency-limit.ts';
import { QueueHealth } from '../../src/queue/queue-health.ts';
import { type ReconcileResult, WorkQueue } from '../../src/queue/work-queue.ts';
import { deferred, type Deferred } from '../../src/testing/deferred.ts';
import { ManualClock } from '../../src/testing/manual-clock.ts';

let ops: OpsServer | undefined;
afterEach(async () => {
  await ops?.close();
  ops = undefined;
});

async function get(path: string): Promise<{ status: number; body: string }> {
  const response = await fetch(`http://127.0.0.1:${ops?.port}${path}`);
  return { status: response.status, body: await response.text() };
}

/** A reconcile whose runs hang until the test lets one finish. */
function hangingReconcile() {
  const runs: Array<Deferred<ReconcileResult>> = [];
  return {
    runs,
    reconcile: () => {
      const run = deferred<ReconcileResult>();
      runs.push(run);
      return run.promise;
    },
  };
}

describe('QueueHealth', () => {
  it('reports a queue with work and no finished reconcile past the bound, and forgets it once unwatched', async () => {
    const clock = new ManualClock();
    const r = hangingReconcile();
    const queue = new WorkQueue({ reconcile: r.reconcile, concurrency: 2, clock });
    const health = new QueueHealth(5000);
    const unwatch = health.watch('worker', queue);
    queue.add('a');
    queue.add('b');
    queue.add('c');
    await clock.advance(5000);
    expect(health.problems()).toEqual([]);
    await clock.advance(1);
    expect(health.problems()).toEqual([
      'work queue worker is stalled: no reconcile finished for 5 s (bound 5 s); waiting 1, running 2',
    ]);
    unwatch();
    expect(health.problems()).toEqual([]);
  });

  it('fails /healthz with the stalled queue while reconciles only hit their deadline, then recovers', async () => {
    const clock = new ManualClock();
    const r = hangingReconcile();
    const queue = new WorkQueue({ reconcile: r.reconcile, clock, reconcileTimeoutMs: 1000 });
    const health = new QueueHealth(3000);
    health.watch('crdregistrations', queue);
    ops = await startOpsServer({
      port: 0,
      host: '127.0.0.1',
      registry: createRuntimeMetrics().registry,
      healthProblems: () => health.problems(),
    });
    ops.setReady(true);
    queue.add('wedged');
    expect(await get('/healthz')).toEqual({ status: 200, body: 'ok\n' });

    // Every run hangs and is abandoned at its deadline, then retried: no progress at all.
    await clock.advance(4000);
    expect(r.runs.length).toBeGreaterThan(1);
    expect(await get('/healthz')).toEqual({
      status: 500,
      body: 'work queue crdregistrations is stalled: no reconcile finished for 4 s (bound 3 s); waiting 0, running 1\n',
    });
    expect(await get('/readyz')).toEqual({ status: 200, body: 'ok\n' });

    r.runs.at(-1)?.resolve(undefined);
    await clock.advance(0);
    expect(await get('/healthz')).toEqual({ status: 200, body: 'ok\n' });
    ops.setReady(false);
    expect(await get('/readyz')).toEqual({ status: 503, body: 'not ready\n' });
    expect(await get('/healthz')).toEqual({ status: 200, body: 'ok\n' });
  });

  it('reports an isolated queue stalled while its runs wait as its own, without failing /healthz', async () => {
    const clock = new ManualClock();
    const r = hangingReconcile();
    const shared = new ConcurrencyLimit(4);
    const queue = new WorkQueue({ reconcile: r.reconcile, concurrency: new CappedShare(shared, 2), clock });
    const health = new QueueHealth(3000);
    health.watch('pumps', queue, { isolated: true });
    // A queue without work of its own, not isolated: never among the isolated names.
    health.watch('valves', new WorkQueue({ reconcile: r.reconcile, clock }));
    ops = await startOpsServer({
      port: 0,
      host: '127.0.0.1',
      registry: createRuntimeMetrics().registry,
      healthProblems: () => health.problems(),
      healthNotes: () =>
        health.stalled().map(({ name, detail }) => `registration ${name} is stalled: ${detail}`),
    });
    for (const key of ['a', 'b', 'c']) queue.add(key);
    await clock.advance(4000);
    expect(health.problems()).toEqual([]);
    expect(health.stalled()).toEqual([
      { name: 'pumps', detail: 'no reconcile finished for 4 s (bound 3 s); waiting 1, running 2' },
    ]);
    expect(health.isolatedNames()).toEqual(['pumps']);
    expect(await get('/healthz')).toEqual({
      status: 200,
      body: 'ok\nregistration pumps is stalled: no reconcile finished for 4 s (bound 3 s); waiting 1, running 2\n',
    });

    r.runs[0]?.resolve(undefined);
    await clock.advance(0);
    expect(health.stalled()).toEqual([]);
    expect(await get('/healthz')).toEqual({ status: 200, body: 'ok\n' });
  });

  it('fails /healthz for an isolated queue whose keys wait with none of its runs running: its slots are not given back', async () => {
    const clock = new ManualClock();
    const shared = new ConcurrencyLimit(1);
    const hog = hangingReconcile();
    const hogging = new WorkQueue({ reconcile: hog.reconcile, concurrency: shared, clock });
    const starved = new WorkQueue({
      reconcile: hangingReconcile().reconcile,
      concurrency: new CappedShare(shared, 2),
      clock,
    });
    const health = new QueueHealth(3000);
    health.watch('pumps', starved, { isolated: true });
    hogging.add('held');
    starved.add('a');
    await clock.advance(4000);
    expect(health.stalled()).toEqual([]);
    expect(health.problems()).toEqual([
      'work queue pumps is stalled: no reconcile finished for 4 s (bound 3 s); waiting 1, running 0',
    ]);
  });
});
