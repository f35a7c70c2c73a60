import { afterEach, describe, expect, it } from 'vitest';
import { createRuntimeMetrics } from '../../src/metrics/metrics.ts';
import { type OpsServer, startOpsServer } from '../../src/ops/ops-server.ts';

function feedQueueEvents(metrics: ReturnType<typeof createRuntimeMetrics>) {
  const mailer = metrics.queueObserver('mailer', 8);
  const relay = metrics.queueObserver('relay', 8);
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
  relay.started?.('infra/c', 1);
  relay.finished?.('infra/c', 'requeue', 7);
}

/** The sample lines of one metric family. */
async function samples(metrics: ReturnType<typeof createRuntimeMetrics>, name: string): Promise<string[]> {
  const text = await metrics.registry.getSingleMetricAsString(name);
  return text.split('\n').filter((line) => !line.startsWith('#'));
}

describe('metrics', () => {
  it("counts reconciles under controller-runtime's names, results and labels, error series from 0", async () => {
    const metrics = createRuntimeMetrics();
    feedQueueEvents(metrics);
    metrics.queueObserver('relay', 8).finished?.('infra/d', 'timeout', 300_000, new Error('deadline'));
    metrics.queueObserver('idle', 2);
    expect(await samples(metrics, 'controller_runtime_reconcile_total')).toEqual([
      'controller_runtime_reconcile_total{controller="mailer",result="success"} 1',
      'controller_runtime_reconcile_total{controller="mailer",result="error"} 1',
      'controller_runtime_reconcile_total{controller="mailer",result="requeue"} 0',
      'controller_runtime_reconcile_total{controller="mailer",result="requeue_after"} 0',
      'controller_runtime_reconcile_total{controller="relay",result="success"} 0',
      'controller_runtime_reconcile_total{controller="relay",result="error"} 1',
      'controller_runtime_reconcile_total{controller="relay",result="requeue"} 0',
      'controller_runtime_reconcile_total{controller="relay",result="requeue_after"} 1',
      'controller_runtime_reconcile_total{controller="idle",result="success"} 0',
      'controller_runtime_reconcile_total{controller="idle",result="error"} 0',
      'controller_runtime_reconcile_total{controller="idle",result="requeue"} 0',
      'controller_runtime_reconcile_total{controller="idle",result="requeue_after"} 0',
    ]);
    expect(await samples(metrics, 'controller_runtime_reconcile_errors_total')).toEqual([
      'controller_runtime_reconcile_errors_total{controller="mailer"} 1',
      'controller_runtime_reconcile_errors_total{controller="relay"} 1',
      'controller_runtime_reconcile_errors_total{controller="idle"} 0',
    ]);
    expect(await samples(metrics, 'controller_runtime_max_concurrent_reconciles')).toEqual([
      'controller_runtime_max_concurrent_reconciles{controller="mailer"} 8',
      'controller_runtime_max_concurrent_reconciles{controller="relay"} 8',
      'controller_runtime_max_concurrent_reconciles{controller="idle"} 2',
    ]);
  });

  it('counts active workers while reconciles run', async () => {
    const metrics = createRuntimeMetrics();
    const mailer = metrics.queueObserver('mailer', 8);
    mailer.started?.('shop/a', 0);
    mailer.started?.('shop/b', 0);
    expect(await samples(metrics, 'controller_runtime_active_workers')).toEqual([
      'controller_runtime_active_workers{controller="mailer"} 2',
    ]);
    const [unfinished] = await samples(metrics, 'workqueue_unfinished_work_seconds');
    expect(unfinished).toMatch(/^workqueue_unfinished_work_seconds\{name="mailer"\} \d/);
    mailer.finished?.('shop/a', 'success', 1);
    mailer.finished?.('shop/b', 'success', 1);
    expect(await samples(metrics, 'controller_runtime_active_workers')).toEqual([
      'controller_runtime_active_workers{controller="mailer"} 0',
    ]);
    expect(await samples(metrics, 'workqueue_unfinished_work_seconds')).toEqual([
      'workqueue_unfinished_work_seconds{name="mailer"} 0',
    ]);
    expect(await samples(metrics, 'workqueue_longest_running_processor_seconds')).toEqual([
      'workqueue_longest_running_processor_seconds{name="mailer"} 0',
    ]);
  });

  it("exposes client-go's work queue metrics under name", async () => {
    const metrics = createRuntimeMetrics();
    feedQueueEvents(metrics);
    expect(await samples(metrics, 'workqueue_depth')).toEqual([
      'workqueue_depth{name="mailer"} 0',
      'workqueue_depth{name="relay"} 0',
    ]);
    expect(await samples(metrics, 'workqueue_adds_total')).toEqual([
      'workqueue_adds_total{name="mailer"} 2',
      'workqueue_adds_total{name="relay"} 0',
    ]);
    expect(await samples(metrics, 'workqueue_retries_total')).toEqual([
      'workqueue_retries_total{name="mailer"} 1',
      'workqueue_retries_total{name="relay"} 0',
    ]);
    const queued = await samples(metrics, 'workqueue_queue_duration_seconds');
    expect(queued.filter((line) => /_(sum|count)\{/.test(line))).toEqual([
      'workqueue_queue_duration_seconds_sum{name="mailer"} 0.203',
      'workqueue_queue_duration_seconds_count{name="mailer"} 2',
      'workqueue_queue_duration_seconds_sum{name="relay"} 0.001',
      'workqueue_queue_duration_seconds_count{name="relay"} 1',
    ]);
    const work = await samples(metrics, 'workqueue_work_duration_seconds');
    expect(work.filter((line) => /_(sum|count)\{name="mailer"/.test(line))).toEqual([
      'workqueue_work_duration_seconds_sum{name="mailer"} 1.54',
      'workqueue_work_duration_seconds_count{name="mailer"} 2',
    ]);
  });

  it('exposes the reconcile time histogram in seconds', async () => {
    const metrics = createRuntimeMetrics();
    feedQueueEvents(metrics);
    const lines = await samples(metrics, 'controller_runtime_reconcile_time_seconds');
    expect(lines.filter((line) => line.includes('controller="mailer"') && !line.includes('_bucket'))).toEqual(
      [
        'controller_runtime_reconcile_time_seconds_sum{controller="mailer"} 1.54',
        'controller_runtime_reconcile_time_seconds_count{controller="mailer"} 2',
      ],
    );
    expect(lines).toContain(
      'controller_runtime_reconcile_time_seconds_bucket{le="0.05",controller="mailer"} 1',
    );
    expect(lines).toContain(
      'controller_runtime_reconcile_time_seconds_bucket{le="1.25",controller="mailer"} 1',
    );
    expect(lines).toContain(
      'controller_runtime_reconcile_time_seconds_bucket{le="1.5",controller="mailer"} 2',
    );
  });

  it('counts API requests by code, method and host; no answer is <error>', async () => {
    const metrics = createRuntimeMetrics();
    metrics.recordRequest('GET', '127.0.0.1:6443', 200, 12);
    metrics.recordRequest('GET', '127.0.0.1:6443', 200, 8);
    metrics.recordRequest('PATCH', '127.0.0.1:6443', 409, 5);
    metrics.recordRequest('POST', '127.0.0.1:6443', undefined, 30_000);
    expect(await samples(metrics, 'rest_client_requests_total')).toEqual([
      'rest_client_requests_total{code="200",method="GET",host="127.0.0.1:6443"} 2',
      'rest_client_requests_total{code="409",method="PATCH",host="127.0.0.1:6443"} 1',
      'rest_client_requests_total{code="<error>",method="POST",host="127.0.0.1:6443"} 1',
    ]);
    const durations = await samples(metrics, 'rest_client_request_duration_seconds');
    expect(durations.filter((line) => line.includes('_count'))).toEqual([
      'rest_client_request_duration_seconds_count{method="GET",host="127.0.0.1:6443"} 2',
      'rest_client_request_duration_seconds_count{method="PATCH",host="127.0.0.1:6443"} 1',
      'rest_client_request_duration_seconds_count{method="POST",host="127.0.0.1:6443"} 1',
    ]);
  });

  it('reports leadership', async () => {
    const metrics = createRuntimeMetrics();
    metrics.setLeader('controller-leader', false);
    expect(await samples(metrics, 'leader_election_master_status')).toEqual([
      'leader_election_master_status{name="controller-leader"} 0',
    ]);
    metrics.setLeader('controller-leader', true);
    expect(await samples(metrics, 'leader_election_master_status')).toEqual([
      'leader_election_master_status{name="controller-leader"} 1',
    ]);
  });

  it('uses its own registry, so two instances do not collide', async () => {
    const first = createRuntimeMetrics();
    const second = createRuntimeMetrics();
    first.recordRequest('GET', '127.0.0.1:6443', 200, 1);
    expect(await samples(second, 'rest_client_requests_total')).toEqual([]);
  });

  it('adds Node.js process metrics on request', async () => {
    const text = await createRuntimeMetrics({ processMetrics: true }).registry.metrics();
    expect(text).toContain('# TYPE process_cpu_user_seconds_total counter');
    expect(await createRuntimeMetrics().registry.metrics()).not.toContain('process_cpu_user_seconds_total');
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

  it('serves /healthz, /livez, /readyz through the setter, /metrics and 404', async () => {
    const metrics = createRuntimeMetrics();
    metrics.recordRequest('GET', '127.0.0.1:6443', 200, 1);
    server = await startOpsServer({ port: 0, host: '127.0.0.1', registry: metrics.registry });
    expect(await get('/healthz')).toEqual({ status: 200, type: 'text/plain; charset=utf-8', body: 'ok\n' });
    expect(await get('/livez')).toEqual({ status: 200, type: 'text/plain; charset=utf-8', body: 'ok\n' });
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
    expect(scraped.body).toContain(
      'rest_client_requests_total{code="200",method="GET",host="127.0.0.1:6443"} 1\n',
    );
    expect(await get('/other')).toEqual({
      status: 404,
      type: 'text/plain; charset=utf-8',
      body: 'not found\n',
    });
  });

  it('fails to start on a port in use', async () => {
    server = await startOpsServer({ port: 0, host: '127.0.0.1', registry: createRuntimeMetrics().registry });
    await expect(
      startOpsServer({ port: server.port, host: '127.0.0.1', registry: createRuntimeMetrics().registry }),
    ).rejects.toThrow('EADDRINUSE');
  });
});
