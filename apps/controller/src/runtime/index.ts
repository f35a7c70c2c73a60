export { backoffDelay, KeyedBackoff, type BackoffPolicy } from './backoff.ts';
export { realClock, type Clock, type TimerHandle } from './clock.ts';
export { buildCommandLine, parseCommandLine, type CommandLineOptions } from './command-line.ts';
export { CappedShare } from './capped-share.ts';
export { ConcurrencyLimit, type Slots } from './concurrency-limit.ts';
export {
  DEFAULT_CONCURRENCY,
  DEFAULT_HOOK_ADDRESS_REFRESH_MS,
  DEFAULT_LEASE_NAME,
  DEFAULT_OPS_ADDRESS,
  DEFAULT_RECONCILE_TIMEOUT_MS,
  DEFAULT_RESYNC_MS,
  LOG_LEVELS,
  loadConfig,
  type ConfigError,
  type ConfigResult,
  type ControllerConfig,
  type Environment,
  type KubeConfigSource,
  type LeaderElectionConfig,
  type LogLevel,
} from './config.ts';
export { parseDuration } from './duration.ts';
export {
  eventTimestamp,
  involvedObject,
  newEvent,
  type EventSource,
  type EventType,
} from './event-object.ts';
export { EVENTS, EventRecorder, type EventRecorderOptions, type EventWriter } from './event-recorder.ts';
export {
  InformerFactory,
  informerKey,
  type InformerFactoryOptions,
  type InformerHandle,
  type InformerRequest,
} from './informer-factory.ts';
export { loadKubeConfig } from './kube-config.ts';
export {
  DEFAULT_LEASE_DURATION_MS,
  DEFAULT_RENEW_DEADLINE_MS,
  DEFAULT_RETRY_PERIOD_MS,
  defaultIdentity,
  LeaderElector,
  type LeaderElectorOptions,
  type LeaseClient,
} from './leader-elector.ts';
export { dynamicLeaseClient } from './lease-client.ts';
export {
  claimedRecord,
  judgeLease,
  observeLease,
  parseLeaseTime,
  releasedRecord,
  type LeaseObservation,
  type LeaseRecord,
  type LeaseVerdict,
} from './lease-record.ts';
export {
  createLogger,
  newReconcileId,
  withContext,
  type LogContext,
  type Logger,
  type LoggerOptions,
} from './logger.ts';
export {
  createMetrics,
  LATENCY_BUCKETS,
  type ControllerMetrics,
  type HookCallOutcome,
  type MetricsOptions,
} from './metrics.ts';
export { ObjectStore, objectKey, type StoreEvent } from './object-store.ts';
export { startOpsServer, type OpsServer, type OpsServerOptions } from './ops-server.ts';
export { QueueHealth, type QueueProgress } from './queue-health.ts';
export {
  RestartingListWatch,
  WatchSilentError,
  type ListWatchSink,
  type RestartingListWatchOptions,
} from './restarting-list-watch.ts';
export {
  DEFAULT_RESTART_BACKOFF,
  DEFAULT_WATCH_SILENCE_MS,
  SharedInformer,
  type InformerHandlers,
  type ObjectLister,
  type SharedInformerOptions,
} from './shared-informer.ts';
export {
  DEFAULT_BACKOFF,
  ReconcileTimeoutError,
  WorkQueue,
  type Reconcile,
  type ReconcileOutcome,
  type ReconcileResult,
  type WorkQueueObserver,
  type WorkQueueOptions,
} from './work-queue.ts';
