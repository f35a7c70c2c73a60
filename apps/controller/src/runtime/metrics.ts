import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import type { WorkQueueObserver } from './work-queue.ts';

/** Seconds; from a quick cache hit to a slow hook or API server. */
export const LATENCY_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60];

export type HookCallOutcome = 'success' | 'failure';

export interface ControllerMetrics {
  /** The registry behind /metrics; not prom-client's global one. */
  readonly registry: Registry;
  /** Observer for the work queue of one registration: queue and reconcile metrics under its name. */
  queueObserver(registration: string): WorkQueueObserver;
  /** One call of a registration's hook; failures count answers that were not a success too. */
  recordHookCall(registration: string, durationMs: number, outcome: HookCallOutcome): void;
}

export interface MetricsOptions {
  /** Also export Node.js process metrics (CPU, memory, event loop). Default false. */
  processMetrics?: boolean;
}

export function createMetrics(options: MetricsOptions = {}): ControllerMetrics {
  const registry = new Registry();
  const registers = [registry];
  if (options.processMetrics) collectDefaultMetrics({ register: registry });

  const reconciles = new Counter({
    name: 'scoby_reconcile_total',
    help: 'Reconciles finished, by registration and result (success, requeue, error, timeout).',
    labelNames: ['registration', 'result'] as const,
    registers,
  });
  const reconcileErrors = new Counter({
    name: 'scoby_reconcile_errors_total',
    help: 'Reconciles that ended in an error or were abandoned at their deadline, by registration.',
    labelNames: ['registration'] as const,
    registers,
  });
  const reconcileDuration = new Histogram({
    name: 'scoby_reconcile_duration_seconds',
    help: 'Time spent in one reconcile, by registration.',
    labelNames: ['registration'] as const,
    buckets: LATENCY_BUCKETS,
    registers,
  });
  const queueDepth = new Gauge({
    name: 'scoby_workqueue_depth',
    help: 'Keys waiting in the work queue of a registration.',
    labelNames: ['name'] as const,
    registers,
  });
  const queueAdds = new Counter({
    name: 'scoby_workqueue_adds_total',
    help: 'Keys added to the work queue of a registration.',
    labelNames: ['name'] as const,
    registers,
  });
  const queueLatency = new Histogram({
    name: 'scoby_workqueue_queue_duration_seconds',
    help: 'Time a key waits in the work queue before its reconcile starts.',
    labelNames: ['name'] as const,
    buckets: LATENCY_BUCKETS,
    registers,
  });
  const queueRetries = new Counter({
    name: 'scoby_workqueue_retries_total',
    help: 'Keys scheduled again after a failed reconcile.',
    labelNames: ['name'] as const,
    registers,
  });
  const hookCalls = new Counter({
    name: 'scoby_hook_calls_total',
    help: 'Hook calls, by registration.',
    labelNames: ['registration'] as const,
    registers,
  });
  const hookFailures = new Counter({
    name: 'scoby_hook_failures_total',
    help: 'Hook calls that failed (transport error, timeout or error answer), by registration.',
    labelNames: ['registration'] as const,
    registers,
  });
  const hookDuration = new Histogram({
    name: 'scoby_hook_duration_seconds',
    help: 'Hook call latency, by registration.',
    labelNames: ['registration'] as const,
    buckets: LATENCY_BUCKETS,
    registers,
  });

  return {
    registry,
    queueObserver: (registration) => ({
      depth: (depth) => queueDepth.set({ name: registration }, depth),
      added: () => queueAdds.inc({ name: registration }),
      started: (_key, latencyMs) => queueLatency.observe({ name: registration }, latencyMs / 1000),
      retried: () => queueRetries.inc({ name: registration }),
      finished: (_key, outcome, durationMs) => {
        reconciles.inc({ registration, result: outcome });
        if (outcome === 'error' || outcome === 'timeout') reconcileErrors.inc({ registration });
        reconcileDuration.observe({ registration }, durationMs / 1000);
      },
    }),
    recordHookCall: (registration, durationMs, outcome) => {
      hookCalls.inc({ registration });
      if (outcome === 'failure') hookFailures.inc({ registration });
      hookDuration.observe({ registration }, durationMs / 1000);
    },
  };
}
