export { buildInfo, COMPONENT, FIELD_MANAGER, userAgent } from './build-info.ts';
export { buildCommandLine, parseCommandLine, type CommandLineOptions } from './command-line.ts';
export {
  DEFAULT_CONCURRENCY,
  DEFAULT_HOOK_ADDRESS_REFRESH_MS,
  DEFAULT_LEADER_ELECTION_MODE,
  DEFAULT_LEASE_NAME,
  DEFAULT_OPS_ADDRESS,
  DEFAULT_RECONCILE_TIMEOUT_MS,
  DEFAULT_RESYNC_MS,
  LEADER_ELECTION_MODES,
  loadConfig,
  type ConfigError,
  type ConfigResult,
  type ControllerConfig,
  type Environment,
  type LeaderElectionConfig,
  type LeaderElectionMode,
} from './config.ts';
export { createMetrics, LATENCY_BUCKETS, type ControllerMetrics, type HookCallOutcome } from './metrics.ts';
