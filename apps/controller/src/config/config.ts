import {
  type ApiRateLimit,
  DEFAULT_API_RATE_LIMIT,
  DEFAULT_REQUEST_TIMEOUT_MS,
  DEFAULT_WATCH_SILENCE_MS,
  LOG_FORMATS,
  LOG_LEVELS,
  parseDuration,
  type KubeConfigSource,
  type LogFormat,
  type LogLevel,
} from '@scoby/controller-runtime';
import type { CommandLineOptions } from './command-line.ts';

/** What loadConfig needs to know of the process beyond flags and environment. */
export interface ProcessFacts {
  /** Standard output is a terminal: logs default to the console format. */
  stdoutIsTerminal?: boolean;
}

/**
 * `leader`: the holder of one Lease reconciles everything. `active-active`: each registration is owned
 * by one live replica through a Lease of its own (docs/spec/registration.md §9).
 */
export type LeaderElectionMode = 'leader' | 'active-active';

export const LEADER_ELECTION_MODES: readonly LeaderElectionMode[] = ['leader', 'active-active'];

export type LeaderElectionConfig =
  { enabled: false } | { enabled: true; mode: LeaderElectionMode; namespace: string; leaseName: string };

export interface ControllerConfig {
  kube: KubeConfigSource;
  scobyNamespace: string;
  /** Namespaces whose instances are managed; undefined means all namespaces. */
  workingNamespaces: string[] | undefined;
  /** CLUSTER_DOMAIN when set and non-empty; otherwise resolved at start-up (docs/spec/address.md §3). */
  clusterDomain: string | undefined;
  concurrency: number;
  formFactorPlugins: string[];
  /** Modules a registration's spec.hook.module may name (docs/spec/hooks-v1.md §10). */
  hookModules: string[];
  hookFormFactorFormat: 'string' | 'object';
  leaderElection: LeaderElectionConfig;
  opsAddress: { host: string; port: number };
  resyncMs: number;
  /** Re-resolution period of hook addresses given by ref. */
  hookAddressRefreshMs: number;
  /** How long one API request may go unanswered. */
  apiRequestTimeoutMs: number;
  /** The client-side rate limit of API requests (`--kube-api-qps`, `--kube-api-burst`); qps 0: none. */
  apiRateLimit: ApiRateLimit;
  /** How long one reconcile may run before its slot is freed. */
  reconcileTimeoutMs: number;
  /** How long a watch may deliver nothing, not even a bookmark, before it is restarted. */
  watchSilenceMs: number;
  logLevel: LogLevel;
  logFormat: LogFormat;
  /** After a termination signal, how long the graceful stop may take before the process exits anyway. */
  gracefulShutdownTimeoutMs: number;
}

/** A setting that cannot be used: `setting` is the flag or environment variable to fix. */
export interface ConfigError {
  setting: string;
  message: string;
}

export type ConfigResult = { ok: true; config: ControllerConfig } | { ok: false; errors: ConfigError[] };

export type Environment = Readonly<Record<string, string | undefined>>;

export const DEFAULT_CONCURRENCY = 8;
export const DEFAULT_LEASE_NAME = 'scoby-controller-leader';
export const DEFAULT_LEADER_ELECTION_MODE: LeaderElectionMode = 'leader';
export const DEFAULT_OPS_ADDRESS = { host: '0.0.0.0', port: 8080 };
export const DEFAULT_RESYNC_MS = 10 * 3_600_000;
export const DEFAULT_HOOK_ADDRESS_REFRESH_MS = 60_000;
/** Above any reasonable hook timeout plus the API requests of one reconcile. */
export const DEFAULT_RECONCILE_TIMEOUT_MS = 5 * 60_000;
/** controller-runtime's GracefulShutdownTimeout. */
export const DEFAULT_GRACEFUL_SHUTDOWN_TIMEOUT_MS = 30_000;

const DNS_LABEL = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/;
const DNS_SUBDOMAIN = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/;
const NAMESPACE_RULE =
  'lowercase letters, digits and "-", starting and ending with a letter or digit, at most 63 characters';
const LEASE_NAME_RULE =
  'lowercase letters, digits, "-" and ".", starting and ending with a letter or digit, at most 253 characters';

/**
 * Turns the command-line flags and the environment into the controller's settings. Flags win
 * over environment variables. Every problem is reported, each naming the flag or variable to fix.
 */
export function loadConfig(
  flags: CommandLineOptions,
  env: Environment,
  facts: ProcessFacts = {},
): ConfigResult {
  const errors: ConfigError[] = [];
  const fail = (setting: string, message: string): undefined => {
    errors.push({ setting, message: `${setting}: ${message}` });
    return undefined;
  };

  const scobyNamespace = readScobyNamespace(env, errors);
  const workingNamespaces = readWorkingNamespaces(env.WORKING_NAMESPACES, fail);
  const concurrency = readConcurrency(flags.concurrency, fail);
  const formFactorPlugins = readModules(
    ['--form-factor-plugin', flags.formFactorPlugin],
    env.SCOBY_FORM_FACTOR_PLUGINS,
    fail,
  );
  const hookModules = readModules(['--hook-module', flags.hookModule], env.SCOBY_HOOK_MODULES, fail);
  const hookFormFactorFormat = readHookFormFactorFormat(env.SCOBY_HOOK_FORM_FACTOR_FORMAT, fail);
  const leaseName = readLeaseName(flags.leaderElectionLeaseName, fail);
  const mode = readLeaderElectionMode(flags.leaderElectionMode, flags.leaderElect, fail);
  const opsAddress = readAddress(flags.metricsBindAddress, fail);
  const resyncMs = readPositiveDuration(['--resync-period', flags.resyncPeriod], DEFAULT_RESYNC_MS, fail);
  const hookAddressRefreshMs = readPositiveDuration(
    flags.hookAddressRefresh !== undefined
      ? ['--hook-address-refresh', flags.hookAddressRefresh]
      : ['SCOBY_HOOK_ADDRESS_REFRESH', nonEmpty(env.SCOBY_HOOK_ADDRESS_REFRESH)],
    DEFAULT_HOOK_ADDRESS_REFRESH_MS,
    fail,
  );
  const apiRequestTimeoutMs = readPositiveDuration(
    ['--api-request-timeout', flags.apiRequestTimeout],
    DEFAULT_REQUEST_TIMEOUT_MS,
    fail,
  );
  const reconcileTimeoutMs = readPositiveDuration(
    ['--reconcile-timeout', flags.reconcileTimeout],
    DEFAULT_RECONCILE_TIMEOUT_MS,
    fail,
  );
  const watchSilenceMs = readPositiveDuration(
    ['--watch-silence-timeout', flags.watchSilenceTimeout],
    DEFAULT_WATCH_SILENCE_MS,
    fail,
  );
  const apiRateLimit = readApiRateLimit(flags.kubeApiQps, flags.kubeApiBurst, fail);
  const zapDevel = readZapDevel(flags.zapDevel, fail);
  const logLevel = readLogLevel(flags, env.LOG_LEVEL, zapDevel === true, fail);
  const logFormat = readLogFormat(flags, zapDevel === true, facts.stdoutIsTerminal === true, fail);
  const gracefulShutdownTimeoutMs = readPositiveDuration(
    ['--graceful-shutdown-timeout', flags.gracefulShutdownTimeout],
    DEFAULT_GRACEFUL_SHUTDOWN_TIMEOUT_MS,
    fail,
  );

  if (
    errors.length > 0 ||
    scobyNamespace === undefined ||
    concurrency === undefined ||
    formFactorPlugins === undefined ||
    hookModules === undefined ||
    hookFormFactorFormat === undefined ||
    leaseName === undefined ||
    mode === undefined ||
    opsAddress === undefined ||
    resyncMs === undefined ||
    hookAddressRefreshMs === undefined ||
    apiRequestTimeoutMs === undefined ||
    apiRateLimit === undefined ||
    reconcileTimeoutMs === undefined ||
    watchSilenceMs === undefined ||
    logLevel === undefined ||
    logFormat === undefined ||
    gracefulShutdownTimeoutMs === undefined
  ) {
    return { ok: false, errors };
  }
  const leaderElection: LeaderElectionConfig =
    flags.leaderElect === false
      ? { enabled: false }
      : { enabled: true, mode, namespace: scobyNamespace, leaseName };
  return {
    ok: true,
    config: {
      kube: kubeConfigSource(flags.kubeconfig, env),
      scobyNamespace,
      workingNamespaces,
      clusterDomain: nonEmpty(env.CLUSTER_DOMAIN),
      concurrency,
      formFactorPlugins,
      hookModules,
      hookFormFactorFormat,
      leaderElection,
      opsAddress,
      resyncMs,
      hookAddressRefreshMs,
      apiRequestTimeoutMs,
      apiRateLimit,
      reconcileTimeoutMs,
      watchSilenceMs,
      logLevel,
      logFormat,
      gracefulShutdownTimeoutMs,
    },
  };
}

type Fail = (setting: string, message: string) => undefined;

function nonEmpty(value: string | undefined): string | undefined {
  const trimmed = value?.trim();
  return trimmed === undefined || trimmed === '' ? undefined : trimmed;
}

function isNamespaceName(name: string): boolean {
  return name.length <= 63 && DNS_LABEL.test(name);
}

function readScobyNamespace(env: Environment, errors: ConfigError[]): string | undefined {
  const value = nonEmpty(env.SCOBY_NAMESPACE);
  if (value === undefined) {
    errors.push({
      setting: 'SCOBY_NAMESPACE',
      message:
        'SCOBY_NAMESPACE is required: set it to the namespace Scoby runs in (home of controller ConfigMaps and of the leader-election Lease)',
    });
    return undefined;
  }
  if (!isNamespaceName(value)) {
    errors.push({
      setting: 'SCOBY_NAMESPACE',
      message: `SCOBY_NAMESPACE: "${value}" is not a valid namespace name (${NAMESPACE_RULE})`,
    });
    return undefined;
  }
  return value;
}

function commaList(value: string | undefined): string[] {
  const entries = (value ?? '').split(',').map((entry) => entry.trim());
  return [...new Set(entries.filter((entry) => entry !== ''))];
}

function readWorkingNamespaces(value: string | undefined, fail: Fail): string[] | undefined {
  const namespaces = commaList(value);
  for (const namespace of namespaces) {
    if (!isNamespaceName(namespace)) {
      fail('WORKING_NAMESPACES', `"${namespace}" is not a valid namespace name (${NAMESPACE_RULE})`);
    }
  }
  return namespaces.length === 0 ? undefined : namespaces;
}

function readConcurrency(value: string | undefined, fail: Fail): number | undefined {
  if (value === undefined) return DEFAULT_CONCURRENCY;
  const parsed = /^\d+$/.test(value.trim()) ? Number(value.trim()) : NaN;
  if (!Number.isSafeInteger(parsed) || parsed < 1) {
    return fail('--concurrency', `must be a positive integer, got "${value}"`);
  }
  return parsed;
}

function readApiRateLimit(
  qpsValue: string | undefined,
  burstValue: string | undefined,
  fail: Fail,
): ApiRateLimit | undefined {
  const qps = qpsValue === undefined ? DEFAULT_API_RATE_LIMIT.qps : Number(qpsValue.trim());
  if (qpsValue !== undefined && (qpsValue.trim() === '' || !Number.isFinite(qps) || qps < 0)) {
    return fail(
      '--kube-api-qps',
      `must be a number of requests per second, 0 for no limit, got "${qpsValue}"`,
    );
  }
  if (burstValue === undefined) return { qps, burst: DEFAULT_API_RATE_LIMIT.burst };
  const burst = /^\d+$/.test(burstValue.trim()) ? Number(burstValue.trim()) : NaN;
  if (!Number.isSafeInteger(burst) || burst < 1) {
    return fail('--kube-api-burst', `must be a positive integer, got "${burstValue}"`);
  }
  return { qps, burst };
}

/** Module specifiers from a repeatable flag, else from a comma-separated variable. */
function readModules(
  [flag, flagValues]: [string, string[] | undefined],
  envValue: string | undefined,
  fail: Fail,
): string[] | undefined {
  if (flagValues === undefined) return commaList(envValue);
  if (flagValues.some((value) => value.trim() === '')) {
    return fail(flag, 'must name a module, got an empty value');
  }
  return [...new Set(flagValues.map((value) => value.trim()))];
}

function readHookFormFactorFormat(value: string | undefined, fail: Fail): 'string' | 'object' | undefined {
  const format = nonEmpty(value) ?? 'string';
  if (format === 'string' || format === 'object') return format;
  return fail('SCOBY_HOOK_FORM_FACTOR_FORMAT', `must be "string" or "object", got "${value}"`);
}

function readLeaseName(value: string | undefined, fail: Fail): string | undefined {
  if (value === undefined) return DEFAULT_LEASE_NAME;
  if (value.length <= 253 && DNS_SUBDOMAIN.test(value)) return value;
  return fail('--leader-election-lease-name', `"${value}" is not a valid Lease name (${LEASE_NAME_RULE})`);
}

/** Without leader election every replica reconciles everything: no mode but `leader` makes sense. */
function readLeaderElectionMode(
  value: string | undefined,
  leaderElect: boolean | undefined,
  fail: Fail,
): LeaderElectionMode | undefined {
  if (value === undefined) return DEFAULT_LEADER_ELECTION_MODE;
  const mode = LEADER_ELECTION_MODES.find((candidate) => candidate === value.trim());
  if (mode === undefined) {
    return fail('--leader-election-mode', `must be leader or active-active, got "${value}"`);
  }
  if (mode === 'active-active' && leaderElect === false) {
    return fail(
      '--leader-election-mode',
      'active-active needs leader election: drop --no-leader-elect (the replicas share the registrations through Leases)',
    );
  }
  return mode;
}

function readAddress(value: string | undefined, fail: Fail): { host: string; port: number } | undefined {
  if (value === undefined) return DEFAULT_OPS_ADDRESS;
  const match = /^(.*):(\d{1,5})$/.exec(value);
  const port = Number(match?.[2]);
  if (match === null || port > 65535) {
    return fail(
      '--metrics-bind-address',
      `must be host:port or :port with a port from 0 to 65535, got "${value}"`,
    );
  }
  const host = (match[1] as string).replace(/^\[(.*)\]$/, '$1');
  return { host: host === '' ? DEFAULT_OPS_ADDRESS.host : host, port };
}

/** Reads the setting that was given (flag or variable, named in errors); an unset value takes the default. */
function readPositiveDuration(
  [setting, value]: [string, string | undefined],
  defaultMs: number,
  fail: Fail,
): number | undefined {
  if (value === undefined) return defaultMs;
  const parsed = parseDuration(value.trim());
  if (parsed === undefined)
    return fail(setting, `"${value}" is not a duration (examples: 10h, 30m, 1h30m, 90s)`);
  if (parsed <= 0) return fail(setting, `must be greater than zero, got "${value}"`);
  return parsed;
}

/** Go Scoby's `--zap-devel` is a Go boolean flag: bare, or `=true`/`=false`. */
function readZapDevel(value: string | boolean | undefined, fail: Fail): boolean | undefined {
  if (value === undefined || typeof value === 'boolean') return value ?? false;
  const normalized = value.trim().toLowerCase();
  if (['true', '1', 't'].includes(normalized)) return true;
  if (['false', '0', 'f'].includes(normalized)) return false;
  return fail('--zap-devel', `must be true or false, got "${value}"`);
}

/** One setting given by at most one of two flags that mean the same. */
function oneOf(
  [flag, value]: [string, string | undefined],
  [alias, aliasValue]: [string, string | undefined],
  fail: Fail,
): [string, string | undefined] | undefined {
  if (value !== undefined && aliasValue !== undefined) {
    return fail(alias, `means the same as ${flag}: give only one of them`);
  }
  return value !== undefined ? [flag, value] : [alias, aliasValue];
}

/**
 * `--zap-log-level` takes zap's levels or a verbosity: 1 is debug, more is trace (controller-runtime
 * logs V(1) as debug).
 */
function zapLevel(value: string): LogLevel | undefined {
  const normalized = value.trim().toLowerCase();
  if (/^\d+$/.test(normalized)) {
    const verbosity = Number(normalized);
    if (verbosity === 0) return undefined;
    return verbosity === 1 ? 'debug' : 'trace';
  }
  const zapNames: Record<string, LogLevel> = {
    debug: 'debug',
    info: 'info',
    warn: 'warn',
    error: 'error',
    dpanic: 'fatal',
    panic: 'fatal',
    fatal: 'fatal',
  };
  return zapNames[normalized];
}

function readLogLevel(
  flags: CommandLineOptions,
  envValue: string | undefined,
  zapDevel: boolean,
  fail: Fail,
): LogLevel | undefined {
  const flag = oneOf(['--log-level', flags.logLevel], ['--zap-log-level', flags.zapLogLevel], fail);
  if (flag === undefined) return undefined;
  const [setting, value] = flag[1] !== undefined ? flag : ['LOG_LEVEL', nonEmpty(envValue)];
  if (value === undefined) return zapDevel ? 'debug' : 'info';
  if (setting === '--zap-log-level') {
    return (
      zapLevel(value) ??
      fail(setting, `must be debug, info, warn, error, panic, fatal or an integer above 0, got "${value}"`)
    );
  }
  const level = LOG_LEVELS.find((candidate) => candidate === value.trim().toLowerCase());
  return level ?? fail(setting, `must be one of ${LOG_LEVELS.join(', ')}, got "${value}"`);
}

/** console on a terminal and with --zap-devel (zap's development mode), JSON otherwise. */
function readLogFormat(
  flags: CommandLineOptions,
  zapDevel: boolean,
  terminal: boolean,
  fail: Fail,
): LogFormat | undefined {
  const flag = oneOf(['--log-format', flags.logFormat], ['--zap-encoder', flags.zapEncoder], fail);
  if (flag === undefined) return undefined;
  const [setting, value] = flag;
  if (value === undefined) return zapDevel || terminal ? 'console' : 'json';
  const format = LOG_FORMATS.find((candidate) => candidate === value.trim().toLowerCase());
  return format ?? fail(setting, `must be console or json, got "${value}"`);
}

function kubeConfigSource(flagPath: string | undefined, env: Environment): KubeConfigSource {
  if (flagPath !== undefined && flagPath !== '') return { source: 'file', path: flagPath };
  if (nonEmpty(env.KUBECONFIG) === undefined && nonEmpty(env.KUBERNETES_SERVICE_HOST) !== undefined) {
    return { source: 'in-cluster' };
  }
  return { source: 'default' };
}
