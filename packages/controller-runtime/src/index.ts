/**
 * @scoby/controller-runtime: the generic machinery of a Kubernetes controller, as controller-runtime
 * and client-go are for Go controllers: an API client over HTTP with client-node's credentials,
 * informers (list-watch into a cache), controllers declared from their watches and reconcile (a work
 * queue with retries and backoff underneath), finalizers and the status write, leader election, an
 * Event recorder, controller-runtime's metrics, the ops server (/healthz, /readyz, /metrics) and the
 * logger. Nothing here knows what a controller is for; the app composes it. This entry exports what a
 * controller author uses; the pieces underneath (list-watch, lease records, backoff) stay internal.
 */

// client: API requests, watches, errors, kubeconfig, write scopes
export {
  ApiError,
  errorMessage,
  isAlreadyExists,
  isConflict,
  isNotFound,
  loadRefusal,
  serverRetryAfterMs,
} from './client/api-error.ts';
export { DEFAULT_API_RATE_LIMIT, type ApiRateLimit } from './client/rate-limiter.ts';
export {
  APPLY_PATCH,
  DEFAULT_REQUEST_TIMEOUT_MS,
  DynamicClient,
  JSON_PATCH,
  MERGE_PATCH,
  resourcePath,
  type CallOptions,
  type DeleteOptions,
  type DynamicClientOptions,
  type ObjectList,
  type RequestObserver,
  type RequestOptions,
  type ResourceRef,
  type WriteFence,
} from './client/dynamic-client.ts';
export { loadKubeConfig, type KubeConfigSource } from './client/kube-config.ts';
export { writeScopes, type WriteScopes } from './client/write-scope.ts';
export {
  isAbortError,
  RequestAbortedError,
  RequestTimeoutError,
  StaleConnectionError,
  WriteRefusedError,
} from './client/request-errors.ts';

// controllers: declared from their informers and reconcile, typed object keys
export {
  Controller,
  type ControllerEvent,
  type ControllerOptions,
  type EventFilter,
  eventPriority,
  DEFAULT_RESYNC_JITTER,
  resyncDelayMs,
  type ResyncPolicy,
  type Watch,
  type WatchSource,
} from './controller/controller.ts';
export {
  formatObjectKey,
  objectKeyOf,
  parseObjectKey,
  type GroupKind,
  type ObjectKey,
} from './controller/object-key.ts';

// work sharing between active replicas
export { assignOwners } from './sharding/assignment.ts';
export {
  dynamicShardLeaseClient,
  keyLeaseName,
  memberLeaseName,
  LEASE_KEY_ANNOTATION,
  LEASE_ROLE_LABEL,
  type ListedLease,
  type ShardLeaseClient,
} from './sharding/shard-leases.ts';
export { type HandOver, WorkSharing, type WorkSharingOptions } from './sharding/work-sharing.ts';

// finalizers and the status write
export { hasFinalizer, setFinalizer } from './finalizers/finalizers.ts';
export {
  statusMergePatch,
  withStatusPatch,
  writeStatus,
  type WriteStatusOptions,
} from './status/status-writer.ts';
export {
  updateBody,
  updateFromRead,
  UPDATE_ATTEMPTS,
  type RereadOptions,
  type WriteVerb,
} from './status/write-verb.ts';

// events
export { type EventType } from './events/event-object.ts';
export {
  EVENTS,
  EventRecorder,
  type EventRecorderOptions,
  type EventWriter,
} from './events/event-recorder.ts';

// informers
export {
  InformerFactory,
  type InformerFactoryOptions,
  type InformerHandle,
  type InformerRequest,
} from './informer/informer-factory.ts';
export {
  DEFAULT_WATCH_SILENCE_MS,
  SharedInformer,
  type InformerHandlers,
  type ObjectLister,
  type SharedInformerOptions,
} from './informer/shared-informer.ts';
export { stripManagedFields, type ObjectTransform } from './informer/transforms.ts';
export { sharedString, withSharedStrings, type SharingOptions } from './informer/shared-strings.ts';
export { ObjectStore, objectKey, type StoreEvent } from './informer/object-store.ts';

// leader election
export {
  DEFAULT_LEASE_DURATION_MS,
  DEFAULT_RENEW_DEADLINE_MS,
  DEFAULT_RETRY_PERIOD_MS,
  defaultIdentity,
  LeaderElector,
  type LeaderElectorOptions,
  type LeaseClient,
} from './leader-election/leader-elector.ts';
export { dynamicLeaseClient } from './leader-election/lease-client.ts';

// logs
export {
  createLogger,
  LOG_FORMATS,
  LOG_LEVELS,
  type LogFormat,
  type Logger,
  type LoggerOptions,
  type LogLevel,
} from './log/logger.ts';

// metrics and the ops server
export { createRuntimeMetrics, type MetricsOptions, type RuntimeMetrics } from './metrics/metrics.ts';
export { bindOpsPort, startOpsServer, type OpsServer, type OpsServerOptions } from './ops/ops-server.ts';

// reconciles: results, concurrency shared between controllers, queue health, stale-cache tracking
export { CappedShare } from './queue/capped-share.ts';
export { ConcurrencyLimit, type Slots } from './queue/concurrency-limit.ts';
export {
  QueueHealth,
  type QueueProgress,
  type StalledQueue,
  type WatchOptions,
} from './queue/queue-health.ts';
export { SupersededVersions } from './queue/superseded-versions.ts';
export { LOW_PRIORITY, NORMAL_PRIORITY } from './queue/ready-keys.ts';
export { KeyedBackoff, type BackoffPolicy } from './queue/backoff.ts';
export {
  DEFAULT_BACKOFF,
  ReconcileTimeoutError,
  type ReconcileContext,
  type ReconcileMetricLabel,
  type ReconcileResult,
  type WorkQueueObserver,
} from './queue/work-queue.ts';

// time
export { realClock, type Clock, type TimerHandle } from './time/clock.ts';
export { parseDuration } from './time/duration.ts';
