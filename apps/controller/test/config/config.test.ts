import { describe, expect, it } from 'vitest';
import { parseCommandLine } from '../../src/config/command-line.ts';
import { loadConfig, type ControllerConfig } from '../../src/config/config.ts';

const BASE_ENV = { SCOBY_NAMESPACE: 'scoby' };

function configOf(args: string[], env: Record<string, string>): ControllerConfig {
  const result = loadConfig(parseCommandLine(args), env);
  if (!result.ok) throw new Error(`unexpected errors: ${JSON.stringify(result.errors)}`);
  return result.config;
}

function errorsOf(args: string[], env: Record<string, string>): string[] {
  const result = loadConfig(parseCommandLine(args), env);
  return result.ok ? [] : result.errors.map((error) => error.message);
}

describe('loadConfig', () => {
  it('applies the defaults', () => {
    expect(configOf([], BASE_ENV)).toEqual({
      kube: { source: 'default' },
      scobyNamespace: 'scoby',
      workingNamespaces: undefined,
      clusterDomain: undefined,
      concurrency: 8,
      formFactorPlugins: [],
      hookModules: [],
      hookFormFactorFormat: 'string',
      leaderElection: {
        enabled: true,
        mode: 'leader',
        namespace: 'scoby',
        leaseName: 'scoby-controller-leader',
      },
      opsAddress: { host: '0.0.0.0', port: 8080 },
      resyncMs: 36_000_000,
      hookAddressRefreshMs: 60_000,
      apiRequestTimeoutMs: 30_000,
      apiRateLimit: { qps: 5_000, burst: 10_000 },
      reconcileTimeoutMs: 300_000,
      watchSilenceMs: 180_000,
      logLevel: 'info',
      logFormat: 'json',
      gracefulShutdownTimeoutMs: 30_000,
    });
  });

  it('reads every setting from flags and environment', () => {
    const config = configOf(
      [
        '--kubeconfig',
        '/etc/kube/config',
        '--concurrency',
        '3',
        '--form-factor-plugin',
        '@acme/lambda',
        '--hook-module',
        '@acme/mailer-hook',
        '--hook-module',
        './hooks/quota.mjs',
        '--form-factor-plugin',
        './plugins/job.js',
        '--no-leader-elect',
        '--metrics-bind-address',
        '127.0.0.1:9090',
        '--resync-period',
        '1h30m',
        '--hook-address-refresh',
        '45s',
        '--api-request-timeout',
        '10s',
        '--kube-api-qps',
        '2.5',
        '--kube-api-burst',
        '7',
        '--reconcile-timeout',
        '2m',
        '--watch-silence-timeout',
        '3m',
        '--log-level',
        'debug',
        '--log-format',
        'console',
        '--graceful-shutdown-timeout',
        '5s',
      ],
      {
        SCOBY_NAMESPACE: 'triggermesh',
        WORKING_NAMESPACES: 'shop, infra,,shop',
        CLUSTER_DOMAIN: 'corp.internal',
        SCOBY_HOOK_FORM_FACTOR_FORMAT: 'object',
        SCOBY_FORM_FACTOR_PLUGINS: 'ignored-when-the-flag-is-given',
        SCOBY_HOOK_MODULES: 'ignored-when-the-flag-is-given',
        SCOBY_HOOK_ADDRESS_REFRESH: '5m',
        LOG_LEVEL: 'error',
      },
    );
    expect(config).toEqual({
      kube: { source: 'file', path: '/etc/kube/config' },
      scobyNamespace: 'triggermesh',
      workingNamespaces: ['shop', 'infra'],
      clusterDomain: 'corp.internal',
      concurrency: 3,
      formFactorPlugins: ['@acme/lambda', './plugins/job.js'],
      hookModules: ['@acme/mailer-hook', './hooks/quota.mjs'],
      hookFormFactorFormat: 'object',
      leaderElection: { enabled: false },
      opsAddress: { host: '127.0.0.1', port: 9090 },
      resyncMs: 5_400_000,
      hookAddressRefreshMs: 45_000,
      apiRequestTimeoutMs: 10_000,
      apiRateLimit: { qps: 2.5, burst: 7 },
      reconcileTimeoutMs: 120_000,
      watchSilenceMs: 180_000,
      logLevel: 'debug',
      logFormat: 'console',
      gracefulShutdownTimeoutMs: 5_000,
    });
  });

  it('logs in the console format on a terminal and JSON otherwise, unless told', () => {
    const load = (args: string[], stdoutIsTerminal: boolean) => {
      const result = loadConfig(parseCommandLine(args), BASE_ENV, { stdoutIsTerminal });
      return result.ok ? result.config.logFormat : result.errors.map((error) => error.message);
    };
    expect(load([], true)).toBe('console');
    expect(load([], false)).toBe('json');
    expect(load(['--log-format', 'json'], true)).toBe('json');
    expect(load(['--log-format', 'console'], false)).toBe('console');
    expect(load(['--log-format', 'text'], false)).toEqual([
      '--log-format: must be console or json, got "text"',
    ]);
  });

  it("takes Go Scoby's zap flags: --zap-log-level, --zap-encoder, --zap-devel", () => {
    const settings = (args: string[]) => {
      const { logLevel, logFormat } = configOf(args, BASE_ENV);
      return { logLevel, logFormat };
    };
    expect(settings(['--zap-log-level', 'error'])).toEqual({ logLevel: 'error', logFormat: 'json' });
    expect(settings(['--zap-log-level=debug', '--zap-encoder=console'])).toEqual({
      logLevel: 'debug',
      logFormat: 'console',
    });
    expect(settings(['--zap-log-level', '1'])).toEqual({ logLevel: 'debug', logFormat: 'json' });
    expect(settings(['--zap-log-level', '5'])).toEqual({ logLevel: 'trace', logFormat: 'json' });
    expect(settings(['--zap-log-level', 'panic'])).toEqual({ logLevel: 'fatal', logFormat: 'json' });
    // Development mode: console and debug, as zap's development config.
    expect(settings(['--zap-devel'])).toEqual({ logLevel: 'debug', logFormat: 'console' });
    expect(settings(['--zap-devel=true', '--zap-log-level=info'])).toEqual({
      logLevel: 'info',
      logFormat: 'console',
    });
    expect(settings(['--zap-devel=false'])).toEqual({ logLevel: 'info', logFormat: 'json' });
    expect(errorsOf(['--zap-log-level', 'loud'], BASE_ENV)).toEqual([
      '--zap-log-level: must be debug, info, warn, error, panic, fatal or an integer above 0, got "loud"',
    ]);
    expect(errorsOf(['--zap-devel=maybe', '--zap-encoder', 'xml'], BASE_ENV)).toEqual([
      '--zap-devel: must be true or false, got "maybe"',
      '--zap-encoder: must be console or json, got "xml"',
    ]);
    expect(errorsOf(['--log-level', 'info', '--zap-log-level', 'debug'], BASE_ENV)).toEqual([
      '--zap-log-level: means the same as --log-level: give only one of them',
    ]);
  });

  it('takes form-factor plugins and the log level from the environment when no flag is given', () => {
    const config = configOf([], {
      ...BASE_ENV,
      SCOBY_FORM_FACTOR_PLUGINS: ' @acme/lambda ,, ./job.js',
      LOG_LEVEL: 'WARN',
    });
    expect(config.formFactorPlugins).toEqual(['@acme/lambda', './job.js']);
    expect(config.logLevel).toBe('warn');
  });

  it('takes hook modules from SCOBY_HOOK_MODULES when no flag is given, and refuses an empty flag', () => {
    expect(
      configOf([], { ...BASE_ENV, SCOBY_HOOK_MODULES: ' @acme/mailer-hook ,, ./quota.mjs,@acme/mailer-hook' })
        .hookModules,
    ).toEqual(['@acme/mailer-hook', './quota.mjs']);
    expect(errorsOf(['--hook-module', ' '], BASE_ENV)).toEqual([
      '--hook-module: must name a module, got an empty value',
    ]);
  });

  it('takes the hook address refresh from the environment when no flag is given', () => {
    expect(configOf([], { ...BASE_ENV, SCOBY_HOOK_ADDRESS_REFRESH: ' 2m30s ' }).hookAddressRefreshMs).toBe(
      150_000,
    );
    expect(configOf([], { ...BASE_ENV, SCOBY_HOOK_ADDRESS_REFRESH: ' ' }).hookAddressRefreshMs).toBe(60_000);
  });

  it('names the lease and the bind address', () => {
    const config = configOf(
      ['--leader-election-lease-name', 'scoby.leader', '--metrics-bind-address', ':8443'],
      BASE_ENV,
    );
    expect(config.leaderElection).toEqual({
      enabled: true,
      mode: 'leader',
      namespace: 'scoby',
      leaseName: 'scoby.leader',
    });
    expect(config.opsAddress).toEqual({ host: '0.0.0.0', port: 8443 });
    expect(configOf(['--metrics-bind-address', '[::1]:8080'], BASE_ENV).opsAddress).toEqual({
      host: '::1',
      port: 8080,
    });
  });

  it('chooses in-cluster configuration inside a pod without KUBECONFIG', () => {
    expect(configOf([], { ...BASE_ENV, KUBERNETES_SERVICE_HOST: '10.0.0.1' }).kube).toEqual({
      source: 'in-cluster',
    });
    expect(configOf([], { ...BASE_ENV, KUBERNETES_SERVICE_HOST: '10.0.0.1', KUBECONFIG: '/k' }).kube).toEqual(
      {
        source: 'default',
      },
    );
  });

  it('treats empty WORKING_NAMESPACES and CLUSTER_DOMAIN as unset', () => {
    const config = configOf([], { ...BASE_ENV, WORKING_NAMESPACES: ' , ', CLUSTER_DOMAIN: ' ' });
    expect(config.workingNamespaces).toBeUndefined();
    expect(config.clusterDomain).toBeUndefined();
  });

  it('requires SCOBY_NAMESPACE', () => {
    expect(loadConfig({}, {})).toEqual({
      ok: false,
      errors: [
        {
          setting: 'SCOBY_NAMESPACE',
          message:
            'SCOBY_NAMESPACE is required: set it to the namespace Scoby runs in (home of controller ConfigMaps and of the leader-election Lease)',
        },
      ],
    });
    expect(errorsOf([], { SCOBY_NAMESPACE: '  ' })).toHaveLength(1);
  });

  it('reports every invalid setting with the flag or variable to fix', () => {
    const errors = errorsOf(
      [
        '--concurrency',
        '0',
        '--form-factor-plugin',
        ' ',
        '--leader-election-lease-name',
        'Leader!',
        '--leader-election-mode',
        'sharded',
        '--metrics-bind-address',
        'localhost',
        '--resync-period',
        'soon',
        '--hook-address-refresh',
        'often',
        '--log-level',
        'loud',
      ],
      {
        SCOBY_NAMESPACE: 'Scoby_NS',
        WORKING_NAMESPACES: 'shop,Infra',
        SCOBY_HOOK_FORM_FACTOR_FORMAT: 'xml',
      },
    );
    expect(errors).toEqual([
      'SCOBY_NAMESPACE: "Scoby_NS" is not a valid namespace name (lowercase letters, digits and "-", starting and ending with a letter or digit, at most 63 characters)',
      'WORKING_NAMESPACES: "Infra" is not a valid namespace name (lowercase letters, digits and "-", starting and ending with a letter or digit, at most 63 characters)',
      '--concurrency: must be a positive integer, got "0"',
      '--form-factor-plugin: must name a module, got an empty value',
      'SCOBY_HOOK_FORM_FACTOR_FORMAT: must be "string" or "object", got "xml"',
      '--leader-election-lease-name: "Leader!" is not a valid Lease name (lowercase letters, digits, "-" and ".", starting and ending with a letter or digit, at most 253 characters)',
      '--leader-election-mode: must be leader or active-active, got "sharded"',
      '--metrics-bind-address: must be host:port or :port with a port from 0 to 65535, got "localhost"',
      '--resync-period: "soon" is not a duration (examples: 10h, 30m, 1h30m, 90s)',
      '--hook-address-refresh: "often" is not a duration (examples: 10h, 30m, 1h30m, 90s)',
      '--log-level: must be one of trace, debug, info, warn, error, fatal, silent, got "loud"',
    ]);
  });

  it('rejects more edge values', () => {
    expect(errorsOf(['--concurrency', '2.5'], BASE_ENV)).toEqual([
      '--concurrency: must be a positive integer, got "2.5"',
    ]);
    expect(errorsOf(['--concurrency', '-1'], BASE_ENV)).toEqual([
      '--concurrency: must be a positive integer, got "-1"',
    ]);
    expect(errorsOf(['--metrics-bind-address', ':70000'], BASE_ENV)).toEqual([
      '--metrics-bind-address: must be host:port or :port with a port from 0 to 65535, got ":70000"',
    ]);
    expect(errorsOf(['--resync-period', '0s'], BASE_ENV)).toEqual([
      '--resync-period: must be greater than zero, got "0s"',
    ]);
    expect(errorsOf(['--hook-address-refresh', '0'], BASE_ENV)).toEqual([
      '--hook-address-refresh: must be greater than zero, got "0"',
    ]);
    expect(
      errorsOf(
        ['--api-request-timeout', '0s', '--reconcile-timeout', 'forever', '--watch-silence-timeout', '-1m'],
        BASE_ENV,
      ),
    ).toEqual([
      '--api-request-timeout: must be greater than zero, got "0s"',
      '--reconcile-timeout: "forever" is not a duration (examples: 10h, 30m, 1h30m, 90s)',
      '--watch-silence-timeout: "-1m" is not a duration (examples: 10h, 30m, 1h30m, 90s)',
    ]);
    expect(errorsOf(['--kube-api-qps', '-1', '--kube-api-burst', '0'], BASE_ENV)).toEqual([
      '--kube-api-qps: must be a number of requests per second, 0 for no limit, got "-1"',
    ]);
    expect(errorsOf(['--kube-api-qps', '0', '--kube-api-burst', 'many'], BASE_ENV)).toEqual([
      '--kube-api-burst: must be a positive integer, got "many"',
    ]);
    expect(errorsOf([], { ...BASE_ENV, SCOBY_HOOK_ADDRESS_REFRESH: '60' })).toEqual([
      'SCOBY_HOOK_ADDRESS_REFRESH: "60" is not a duration (examples: 10h, 30m, 1h30m, 90s)',
    ]);
    expect(errorsOf([], { ...BASE_ENV, SCOBY_HOOK_ADDRESS_REFRESH: '0ms' })).toEqual([
      'SCOBY_HOOK_ADDRESS_REFRESH: must be greater than zero, got "0ms"',
    ]);
    expect(errorsOf([], { ...BASE_ENV, LOG_LEVEL: 'verbose' })).toEqual([
      'LOG_LEVEL: must be one of trace, debug, info, warn, error, fatal, silent, got "verbose"',
    ]);
    expect(errorsOf([], { SCOBY_NAMESPACE: 'a'.repeat(64) })).toHaveLength(1);
  });

  it('accepts leader election explicitly on', () => {
    expect(configOf(['--leader-elect'], BASE_ENV).leaderElection.enabled).toBe(true);
  });

  it('takes the leader-election mode: leader by default, or active-active', () => {
    expect(configOf(['--leader-election-mode', 'leader'], BASE_ENV).leaderElection).toEqual({
      enabled: true,
      mode: 'leader',
      namespace: 'scoby',
      leaseName: 'scoby-controller-leader',
    });
    expect(
      configOf(
        ['--leader-elect', '--leader-election-mode=active-active', '--leader-election-lease-name', 'old'],
        BASE_ENV,
      ).leaderElection,
    ).toEqual({ enabled: true, mode: 'active-active', namespace: 'scoby', leaseName: 'old' });
    expect(errorsOf(['--leader-election-mode', 'Active-Active'], BASE_ENV)).toEqual([
      '--leader-election-mode: must be leader or active-active, got "Active-Active"',
    ]);
    expect(errorsOf(['--leader-election-mode', ''], BASE_ENV)).toEqual([
      '--leader-election-mode: must be leader or active-active, got ""',
    ]);
  });

  it('refuses active-active without leader election, and takes leader with it off', () => {
    expect(errorsOf(['--no-leader-elect', '--leader-election-mode', 'active-active'], BASE_ENV)).toEqual([
      '--leader-election-mode: active-active needs leader election: drop --no-leader-elect (the replicas share the registrations through Leases)',
    ]);
    expect(
      configOf(['--no-leader-elect', '--leader-election-mode', 'leader'], BASE_ENV).leaderElection,
    ).toEqual({ enabled: false });
  });
});
