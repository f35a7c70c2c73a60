import { afterEach, describe, expect, it } from 'vitest';
import { createMetrics } from '../../src/runtime/metrics.ts';
import { startOpsServer, type OpsServer } from '../../src/runtime/ops-server.ts';

function feedQueueEvents(metrics: ReturnType<typeof createMetrics>) {
  const mailer = metrics.queueObserver('mailer');
  const relay = metrics.queueObserver('relay');
  mailer.added?.('shop/a');
  mailer.added?.('shop/b');
  mailer.depth?.(2);
  mailer.started?.('shop/a', 3);
  mailer.depth?.(1);
  mailer.finished?.('shop/a', 'success', 40);
  mailer.started?.('shop/b', 200);
  mailer.depth?.(0);
  mailer.retried?.('shop/b', 5);
  mailer.finished?.('shop/b', 'error', 1500, new Error('x'));
  relay.finished?.('infra/c', 'requeue', 7);
}

describe('metrics', () => {
  it('exposes reconcile counters by registration and result; abandoned reconciles count as errors', async () => {
    const metrics = createMetrics();
    feedQueueEvents(metrics);
    metrics.queueObserver('relay').finished?.('infra/d', 'timeout', 300_000, new Error('deadline'));
    expect(await metrics.registry.getSingleMetricAsString('scoby_reconcile_total')).toBe(
      [
        '# HELP scoby_reconcile_total Reconciles finished, by registration and result (success, requeue, error, timeout).',
        '# TYPE scoby_reconcile_total counter',
        'scoby_reconcile_total{registration="mailer",result="success"} 1',
        'scoby_reconcile_total{registration="mailer",result="error"} 1',
        'scoby_reconcile_total{registration="relay",result="requeue"} 1',
        'scoby_reconcile_total{registration="relay",result="timeout"} 1',
      ].join('\n'),
    );
    expect(await metrics.registry.getSingleMetricAsString('scoby_reconcile_errors_total')).toBe(
      [
        '# HELP scoby_reconcile_errors_total Reconciles that ended in an error or were abandoned at their deadline, by registration.',
        '# TYPE scoby_reconcile_errors_total counter',
        'scoby_reconcile_errors_total{registration="mailer"} 1',
        'scoby_reconcile_errors_total{registration="relay"} 1',
      ].join('\n'),
    );
  });

  it('exposes queue depth, adds and retries', async () => {
    const metrics = createMetrics();
    feedQueueEvents(metrics);
    expect(await metrics.registry.getSingleMetricAsString('scoby_workqueue_depth')).toBe(
      [
        '# HELP scoby_workqueue_depth Keys waiting in the work queue of a registration.',
        '# TYPE scoby_workqueue_depth gauge',
        'scoby_workqueue_depth{name="mailer"} 0',
      ].join('\n'),
    );
    expect(await metrics.registry.getSingleMetricAsString('scoby_workqueue_adds_total')).toBe(
      [
        '# HELP scoby_workqueue_adds_total Keys added to the work queue of a registration.',
        '# TYPE scoby_workqueue_adds_total counter',
        'scoby_workqueue_adds_total{name="mailer"} 2',
      ].join('\n'),
    );
    expect(await metrics.registry.getSingleMetricAsString('scoby_workqueue_retries_total')).toBe(
      [
        '# HELP scoby_workqueue_retries_total Keys scheduled again after a failed reconcile.',
        '# TYPE scoby_workqueue_retries_total counter',
        'scoby_workqueue_retries_total{name="mailer"} 1',
      ].join('\n'),
    );
  });

  it('exposes the reconcile duration histogram in seconds', async () => {
    const metrics = createMetrics();
    feedQueueEvents(metrics);
    const text = await metrics.registry.getSingleMetricAsString('scoby_reconcile_duration_seconds');
    expect(text.split('\n').filter((line) => line.includes('registration="mailer"'))).toEqual([
      'scoby_reconcile_duration_seconds_bucket{le="0.005",registration="mailer"} 0',
      'scoby_reconcile_duration_seconds_bucket{le="0.01",registration="mailer"} 0',
      'scoby_reconcile_duration_seconds_bucket{le="0.025",registration="mailer"} 0',
      'scoby_reconcile_duration_seconds_bucket{le="0.05",registration="mailer"} 1',
      'scoby_reconcile_duration_seconds_bucket{le="0.1",registration="mailer"} 1',
      'scoby_reconcile_duration_seconds_bucket{le="0.25",registration="mailer"} 1',
      'scoby_reconcile_duration_seconds_bucket{le="0.5",registration="mailer"} 1',
      'scoby_reconcile_duration_seconds_bucket{le="1",registration="mailer"} 1',
      'scoby_reconcile_duration_seconds_bucket{le="2.5",registration="mailer"} 2',
      'scoby_reconcile_duration_seconds_bucket{le="5",registration="mailer"} 2',
      'scoby_reconcile_duration_seconds_bucket{le="10",registration="mailer"} 2',
      'scoby_reconcile_duration_seconds_bucket{le="30",registration="mailer"} 2',
      'scoby_reconcile_duration_seconds_bucket{le="60",registration="mailer"} 2',
      'scoby_reconcile_duration_seconds_bucket{le="+Inf",registration="mailer"} 2',
      'scoby_reconcile_duration_seconds_sum{registration="mailer"} 1.54',
      'scoby_reconcile_duration_seconds_count{registration="mailer"} 2',
    ]);
  });

  it('exposes queue latency in seconds', async () => {
    const metrics = createMetrics();
    feedQueueEvents(metrics);
    const text = await metrics.registry.getSingleMetricAsString('scoby_workqueue_queue_duration_seconds');
    expect(
      text.split('\n').filter((line) => /_(sum|count)\{/.test(line) || line.includes('le="0.005"')),
    ).toEqual([
      'scoby_workqueue_queue_duration_seconds_bucket{le="0.005",name="mailer"} 1',
      'scoby_workqueue_queue_duration_seconds_sum{name="mailer"} 0.203',
      'scoby_workqueue_queue_duration_seconds_count{name="mailer"} 2',
    ]);
  });

  it('counts hook calls, failures and latency per registration', async () => {
    const metrics = createMetrics();
    metrics.recordHookCall('mailer', 20, 'success');
    metrics.recordHookCall('mailer', 3000, 'failure');
    metrics.recordHookCall('relay', 10, 'success');
    expect(await metrics.registry.getSingleMetricAsString('scoby_hook_calls_total')).toBe(
      [
        '# HELP scoby_hook_calls_total Hook calls, by registration.',
        '# TYPE scoby_hook_calls_total counter',
        'scoby_hook_calls_total{registration="mailer"} 2',
        'scoby_hook_calls_total{registration="relay"} 1',
      ].join('\n'),
    );
    expect(await metrics.registry.getSingleMetricAsString('scoby_hook_failures_total')).toBe(
      [
        '# HELP scoby_hook_failures_total Hook calls that failed (transport error, timeout or error answer), by registration.',
        '# TYPE scoby_hook_failures_total counter',
        'scoby_hook_failures_total{registration="mailer"} 1',
      ].join('\n'),
    );
    const latency = await metrics.registry.getSingleMetricAsString('scoby_hook_duration_seconds');
    expect(latency.split('\n').filter((line) => /_(sum|count)\{/.test(line))).toEqual([
      'scoby_hook_duration_seconds_sum{registration="mailer"} 3.02',
      'scoby_hook_duration_seconds_count{registration="mailer"} 2',
      'scoby_hook_duration_seconds_sum{registration="relay"} 0.01',
      'scoby_hook_duration_seconds_count{registration="relay"} 1',
    ]);
  });

  it('uses its own registry, so two instances do not collide', async () => {
    const first = createMetrics();
    const second = createMetrics();
    first.recordHookCall('mailer', 1, 'success');
    expect(await second.registry.getSingleMetricAsString('scoby_hook_calls_total')).toBe(
      [
        '# HELP scoby_hook_calls_total Hook calls, by registration.',
        '# TYPE scoby_hook_calls_total counter',
      ].join('\n'),
    );
  });

  it('adds Node.js process metrics on request', async () => {
    const text = await createMetrics({ processMetrics: true }).registry.metrics();
    expect(text).toContain('# TYPE process_cpu_user_seconds_total counter');
    expect(await createMetrics().registry.metrics()).not.toContain('process_cpu_user_seconds_total');
  });
});

describe('ops server', () => {
  let server: OpsServer | undefined;
  afterEach(async () => {
    await server?.close();
    server = undefined;
  });

  async function get(path: string): Promise<{ status: number; type: string | null; body: string }> {
    const response = await fetch(`http://127.0.0.1:${server?.port}${path}`);
    return {
      status: response.status,
      type: response.headers.get('content-type'),
      body: await response.text(),
    };
  }

  it('serves /healthz, /readyz through the setter, /metrics and 404', async () => {
    const metrics = createMetrics();
    metrics.recordHookCall('mailer', 1, 'success');
    server = await startOpsServer({ port: 0, host: '127.0.0.1', registry: metrics.registry });
    expect(await get('/healthz')).toEqual({ status: 200, type: 'text/plain; charset=utf-8', body: 'ok\n' });
    expect(await get('/readyz')).toEqual({
      status: 503,
      type: 'text/plain; charset=utf-8',
      body: 'not ready\n',
    });
    server.setReady(true);
    expect(await get('/readyz')).toEqual({ status: 200, type: 'text/plain; charset=utf-8', body: 'ok\n' });
    server.setReady(false);
    expect((await get('/readyz')).status).toBe(503);
    const scraped = await get('/metrics?x=1');
    expect(scraped.status).toBe(200);
    expect(scraped.type).toBe('text/plain; version=0.0.4; charset=utf-8');
    expect(scraped.body).toBe(await metrics.registry.metrics());
    expect(scraped.body).toContain('scoby_hook_calls_total{registration="mailer"} 1\n');
    expect(await get('/other')).toEqual({
      status: 404,
      type: 'text/plain; charset=utf-8',
      body: 'not found\n',
    });
  });

  it('fails to start on a port in use', async () => {
    server = await startOpsServer({ port: 0, host: '127.0.0.1', registry: createMetrics().registry });
    await expect(
      startOpsServer({ port: server.port, host: '127.0.0.1', registry: createMetrics().registry }),
    ).rejects.toThrow('EADDRINUSE');
  });
});
