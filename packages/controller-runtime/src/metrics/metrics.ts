/**
 * A controller's metrics under controller-runtime's and client-go's names and labels, so the
 * dashboards and alerts written for Go controllers and kubebuilder operators keep working. An app
 * adds its own metrics to the same registry. Every metric is listed in docs/operations/metrics.md.
 */
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import type { ReconcileMetricLabel, WorkQueueObserver } from '../queue/work-queue.ts';

/** controller-runtime's reconcile time buckets (up to a minute), with its finer start. */
const RECONCILE_BUCKETS = [
  0.005, 0.01, 0.025, 0.05, 0.1, 0.15, 0.2, 0.25, 0.3, 0.35, 0.4, 0.45, 0.5, 0.6, 0.7, 0.8, 0.9, 1, 1.25, 1.5,
  1.75, 2, 2.5, 3, 3.5, 4, 4.5, 5, 6, 7, 8, 9, 10, 15, 20, 25, 30, 40, 50, 60,
];

/** client-go's workqueue buckets: 10^-8 to 10^1 seconds. */
const WORKQUEUE_BUCKETS = Array.from({ length: 10 }, (_, index) => 10 ** (index - 8));

/** controller-runtime's `result` label values. */
const RESULTS = ['success', 'error', 'requeue', 'requeue_after'] as const;

export interface RuntimeMetrics {
  /** The registry behind /metrics; not prom-client's global one. */
  readonly registry: Registry;
  /**
   * Observer for the work queue of one controller: reconcile metrics under `controller`, queue
   * metrics under `name`, both this name.
   */
  queueObserver(controller: string, maxConcurrentReconciles: number): WorkQueueObserver;
  /** One API request: its status code, or `<error>` when no answer came. */
  recordRequest(method: string, host: string, code: number | undefined, durationMs: number): void;
  /** How long a request waited for the client-side rate limit. */
  recordRateLimiterWait(method: string, host: string, waitedMs: number): void;
  /** Whether this process holds the leader Lease `name`. */
  setLeader(name: string, leading: boolean): void;
}

export interface MetricsOptions {
  /** Also export Node.js process metrics (CPU, memory, event loop). Default false. */
  processMetrics?: boolean;
}

/** The reconcile's outcome as controller-runtime reports it; an abandoned reconcile is an error. */
function resultOf(outcome: ReconcileMetricLabel): (typeof RESULTS)[number] {
  switch (outcome) {
    case 'success':
      return 'success';
    case 'requeue':
      return 'requeue_after';
    case 'error':
    case 'timeout':
    case 'aborted':
      return 'error';
  }
}

/** client-go's rest_client latency buckets, for the request and the rate limiter histograms alike. */
const REST_CLIENT_BUCKETS = [0.005, 0.025, 0.1, 0.25, 0.5, 1, 2, 4, 8, 15, 30, 60];

export function createRuntimeMetrics(options: MetricsOptions = {}): RuntimeMetrics {
  const registry = new Registry();
  const registers = [registry];
  if (options.processMetrics) collectDefaultMetrics({ register: registry });

  const reconciles = new Counter({
    name: 'controller_runtime_reconcile_total',
    help: 'Total number of reconciliations per controller',
    labelNames: ['controller', 'result'] as const,
    registers,
  });
  const reconcileErrors = new Counter({
    name: 'controller_runtime_reconcile_errors_total',
    help: 'Total number of reconciliation errors per controller',
    labelNames: ['controller'] as const,
    registers,
  });
  const reconcileTime = new Histogram({
    name: 'controller_runtime_reconcile_time_seconds',
    help: 'Length of time per reconciliation per controller',
    labelNames: ['controller'] as const,
    buckets: RECONCILE_BUCKETS,
    registers,
  });
  const maxConcurrent = new Gauge({
    name: 'controller_runtime_max_concurrent_reconciles',
    help: 'Maximum number of concurrent reconciles per controller',
    labelNames: ['controller'] as const,
    registers,
  });
  const activeWorkers = new Gauge({
    name: 'controller_runtime_active_workers',
    help: 'Number of currently used workers per controller',
    labelNames: ['controller'] as const,
    registers,
  });

  const queueDepth = new Gauge({
    name: 'workqueue_depth',
    help: 'Current depth of workqueue',
    labelNames: ['name'] as const,
    registers,
  });
  const queueAdds = new Counter({
    name: 'workqueue_adds_total',
    help: 'Total number of adds handled by workqueue',
    labelNames: ['name'] as const,
    registers,
  });
  const queueLatency = new Histogram({
    name: 'workqueue_queue_duration_seconds',
    help: 'How long in seconds an item stays in workqueue before being requested',
    labelNames: ['name'] as const,
    buckets: WORKQUEUE_BUCKETS,
    registers,
  });
  const workDuration = new Histogram({
    name: 'workqueue_work_duration_seconds',
    help: 'How long in seconds processing an item from workqueue takes',
    labelNames: ['name'] as const,
    buckets: WORKQUEUE_BUCKETS,
    registers,
  });
  const queueRetries = new Counter({
    name: 'workqueue_retries_total',
    help: 'Total number of retries handled by workqueue',
    labelNames: ['name'] as const,
    registers,
  });
  /** Start times of the reconciles running now, per queue: the two gauges below are read from them. */
  const running = new Map<string, Map<string, number>>();
  const runningSeconds = (name: string): number[] => {
    const now = performance.now();
    return [...(running.get(name)?.values() ?? [])].map((startedAt) => (now - startedAt) / 1000);
  };
  new Gauge({
    name: 'workqueue_unfinished_work_seconds',
    help: "How many seconds of work has been done that is in progress and hasn't been observed by work_duration. Large values indicate stuck threads. One can deduce the number of stuck threads by observing the rate at which this increases.",
    labelNames: ['name'] as const,
    registers,
    collect() {
      for (const name of running.keys()) {
        this.set(
          { name },
          runningSeconds(name).reduce((sum, seconds) => sum + seconds, 0),
        );
      }
    },
  });
  new Gauge({
    name: 'workqueue_longest_running_processor_seconds',
    help: 'How many seconds has the longest running processor for workqueue been running.',
    labelNames: ['name'] as const,
    registers,
    collect() {
      for (const name of running.keys()) this.set({ name }, Math.max(0, ...runningSeconds(name)));
    },
  });

  const requests = new Counter({
    name: 'rest_client_requests_total',
    help: 'Number of HTTP requests, partitioned by status code, method, and host.',
    labelNames: ['code', 'method', 'host'] as const,
    registers,
  });
  const requestDuration = new Histogram({
    name: 'rest_client_request_duration_seconds',
    help: 'Request latency in seconds. Broken down by method and host.',
    labelNames: ['method', 'host'] as const,
    buckets: REST_CLIENT_BUCKETS,
    registers,
  });
  const throttled = new Counter({
    name: 'rest_client_throttled_requests_total',
    help: 'Requests the API server refused for load (429, or 503 with Retry-After), by status code, method, and host.',
    labelNames: ['code', 'method', 'host'] as const,
    registers,
  });
  const rateLimiterWait = new Histogram({
    name: 'rest_client_rate_limiter_duration_seconds',
    help: 'Client side rate limiter latency in seconds. Broken down by method, and host.',
    labelNames: ['method', 'host'] as const,
    buckets: REST_CLIENT_BUCKETS,
    registers,
  });
  const leader = new Gauge({
    name: 'leader_election_master_status',
    help: "Gauge of if the reporting system is master of the relevant lease, 0 indicates backup, 1 indicates master. 'name' is the string used to identify the lease.",
    labelNames: ['name'] as const,
    registers,
  });

  return {
    registry,
    queueObserver: (controller, maxConcurrentReconciles) => {
      // Error series exist from the start, so `rate(...)` and alerts see 0 rather than nothing.
      for (const result of RESULTS) reconciles.inc({ controller, result }, 0);
      reconcileErrors.inc({ controller }, 0);
      queueRetries.inc({ name: controller }, 0);
      queueAdds.inc({ name: controller }, 0);
      queueDepth.set({ name: controller }, 0);
      maxConcurrent.set({ controller }, maxConcurrentReconciles);
      activeWorkers.set({ controller }, 0);
      const inFlight = new Map<string, number>();
      running.set(controller, inFlight);
      return {
        depth: (depth) => queueDepth.set({ name: controller }, depth),
        added: () => queueAdds.inc({ name: controller }),
        started: (key, latencyMs) => {
          queueLatency.observe({ name: controller }, latencyMs / 1000);
          activeWorkers.inc({ controller });
          inFlight.set(key, performance.now());
        },
        retried: () => queueRetries.inc({ name: controller }),
        finished: (key, outcome, durationMs) => {
          inFlight.delete(key);
          activeWorkers.dec({ controller });
          const result = resultOf(outcome);
          reconciles.inc({ controller, result });
          if (result === 'error') reconcileErrors.inc({ controller });
          reconcileTime.observe({ controller }, durationMs / 1000);
          workDuration.observe({ name: controller }, durationMs / 1000);
        },
      };
    },
    recordRequest: (method, host, code, durationMs) => {
      requests.inc({ code: code === undefined ? '<error>' : String(code), method, host });
      requestDuration.observe({ method, host }, durationMs / 1000);
      // A 503 without Retry-After counts too: the answer alone does not say why it was refused.
      if (code === 429 || code === 503) throttled.inc({ code: String(code), method, host });
    },
    recordRateLimiterWait: (method, host, waitedMs) =>
      rateLimiterWait.observe({ method, host }, waitedMs / 1000),
    setLeader: (name, leading) => leader.set({ name }, leading ? 1 : 0),
  };
}
