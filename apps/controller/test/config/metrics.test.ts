import { describe, expect, it } from 'vitest';
import { registerHookPhase } from '@scoby/hooks-v1/client';
import { THROW_AWAY_PHASE } from '../support/throw-away-phase.ts';
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

  it('counts hook calls by controller, phase and outcome, every series from 0 at the first call, and latency by phase', async () => {
    const metrics = createMetrics();
    expect(await samples(metrics, 'scoby_hook_calls_total')).toEqual([]);
    metrics.recordHookCall('mailer', 'pre-reconcile', 20, 'success');
    metrics.recordHookCall('mailer', 'pre-reconcile', 3000, 'timeout');
    metrics.recordHookCall('mailer', 'finalize', 5, 'error-answer');
    const mailer = (phase: string, outcome: string, value: number) =>
      `scoby_hook_calls_total{controller="mailer",phase="${phase}",outcome="${outcome}"} ${value}`;
    expect(await samples(metrics, 'scoby_hook_calls_total')).toEqual([
      mailer('pre-reconcile', 'success', 1),
      mailer('pre-reconcile', 'error-answer', 0),
      mailer('pre-reconcile', 'invalid-answer', 0),
      mailer('pre-reconcile', 'timeout', 1),
      mailer('pre-reconcile', 'transport-error', 0),
      mailer('finalize', 'success', 0),
      mailer('finalize', 'error-answer', 1),
      mailer('finalize', 'invalid-answer', 0),
      mailer('finalize', 'timeout', 0),
      mailer('finalize', 'transport-error', 0),
    ]);
    const latency = await samples(metrics, 'scoby_hook_duration_seconds');
    expect(latency.filter((line) => /_(sum|count)\{/.test(line))).toEqual([
      'scoby_hook_duration_seconds_sum{controller="mailer",phase="pre-reconcile"} 3.02',
      'scoby_hook_duration_seconds_count{controller="mailer",phase="pre-reconcile"} 2',
      'scoby_hook_duration_seconds_sum{controller="mailer",phase="finalize"} 0.005',
      'scoby_hook_duration_seconds_count{controller="mailer",phase="finalize"} 1',
    ]);
  });

  it('has a calls series for every phase of the phase table', async () => {
    const unregister = registerHookPhase(THROW_AWAY_PHASE);
    try {
      const metrics = createMetrics();
      metrics.recordHookCall('relay', 'pre-reconcile', 1, 'success');
      const phases = new Set(
        (await samples(metrics, 'scoby_hook_calls_total')).map((line) => /phase="([^"]+)"/.exec(line)?.[1]),
      );
      expect([...phases]).toEqual(['pre-reconcile', 'finalize', 'archive']);
    } finally {
      unregister();
    }
  });

  it('reports the not-Ready instances of each running registration, read at each scrape', async () => {
    const metrics = createMetrics();
    expect(await samples(metrics, 'scoby_instances_not_ready')).toEqual([]);
    let counts = new Map([
      ['mailer', 2],
      ['relay', 0],
    ]);
    metrics.reportNotReadyInstances(() => counts);
    expect(await samples(metrics, 'scoby_instances_not_ready')).toEqual([
      'scoby_instances_not_ready{registration="mailer"} 2',
      'scoby_instances_not_ready{registration="relay"} 0',
    ]);
    counts = new Map([['relay', 1]]);
    expect(await samples(metrics, 'scoby_instances_not_ready')).toEqual([
      'scoby_instances_not_ready{registration="relay"} 1',
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
    first.recordHookCall('mailer', 'pre-reconcile', 1, 'success');
    first.recordRequest('GET', '127.0.0.1:6443', 200, 1);
    const text = await first.registry.metrics();
    expect(text).toContain(
      'scoby_hook_calls_total{controller="mailer",phase="pre-reconcile",outcome="success"} 1\n',
    );
    expect(text).toContain('rest_client_requests_total{code="200",method="GET",host="127.0.0.1:6443"} 1\n');
    expect(await samples(createMetrics(), 'scoby_hook_calls_total')).toEqual([]);
  });
});
