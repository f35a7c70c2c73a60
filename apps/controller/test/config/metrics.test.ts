import { describe, expect, it } from 'vitest';
import { createMetrics } from '../../src/config/metrics.ts';

/** The sample lines of one metric family. */
async function samples(metrics: ReturnType<typeof createMetrics>, name: string): Promise<string[]> {
  const text = await metrics.registry.getSingleMetricAsString(name);
  return text.split('\n').filter((line) => !line.startsWith('#'));
}

describe("Scoby's metrics", () => {
  it('report the build', async () => {
    expect(await samples(createMetrics(), 'scoby_build_info')).toEqual([
      `scoby_build_info{version="0.1.0",node_version="${process.version}"} 1`,
    ]);
  });

  it('counts hook calls, failures (from 0) and latency per controller', async () => {
    const metrics = createMetrics();
    metrics.recordHookCall('mailer', 20, 'success');
    metrics.recordHookCall('mailer', 3000, 'failure');
    metrics.recordHookCall('relay', 10, 'success');
    expect(await samples(metrics, 'scoby_hook_calls_total')).toEqual([
      'scoby_hook_calls_total{controller="mailer"} 2',
      'scoby_hook_calls_total{controller="relay"} 1',
    ]);
    expect(await samples(metrics, 'scoby_hook_failures_total')).toEqual([
      'scoby_hook_failures_total{controller="mailer"} 1',
      'scoby_hook_failures_total{controller="relay"} 0',
    ]);
    const latency = await samples(metrics, 'scoby_hook_duration_seconds');
    expect(latency.filter((line) => /_(sum|count)\{/.test(line))).toEqual([
      'scoby_hook_duration_seconds_sum{controller="mailer"} 3.02',
      'scoby_hook_duration_seconds_count{controller="mailer"} 2',
      'scoby_hook_duration_seconds_sum{controller="relay"} 0.01',
      'scoby_hook_duration_seconds_count{controller="relay"} 1',
    ]);
  });

  it('counts the pre-reconcile failures ignored under failurePolicy Ignore, per controller', async () => {
    const metrics = createMetrics();
    expect(await samples(metrics, 'scoby_hook_failures_ignored_total')).toEqual([]);
    metrics.recordHookFailureIgnored('mailer');
    metrics.recordHookFailureIgnored('mailer');
    metrics.recordHookFailureIgnored('relay');
    expect(await samples(metrics, 'scoby_hook_failures_ignored_total')).toEqual([
      'scoby_hook_failures_ignored_total{controller="mailer"} 2',
      'scoby_hook_failures_ignored_total{controller="relay"} 1',
    ]);
  });

  it("share one registry with controller-runtime's metrics, one per instance", async () => {
    const first = createMetrics();
    first.recordHookCall('mailer', 1, 'success');
    first.recordRequest('GET', '127.0.0.1:6443', 200, 1);
    const text = await first.registry.metrics();
    expect(text).toContain('scoby_hook_calls_total{controller="mailer"} 1\n');
    expect(text).toContain('rest_client_requests_total{code="200",method="GET",host="127.0.0.1:6443"} 1\n');
    expect(await samples(createMetrics(), 'scoby_hook_calls_total')).toEqual([]);
  });
});
