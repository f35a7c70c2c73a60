import { Command, Option } from 'commander';
// The subpath, not the package's index: `scoby --help` would load the whole runtime and client-node.
import { DEFAULT_API_RATE_LIMIT } from '@scoby/controller-runtime/rate-limit';

/** The command-line flags, as commander hands them over (before validation by loadConfig). */
export interface CommandLineOptions {
  kubeconfig?: string;
  concurrency?: string;
  formFactorPlugin?: string[];
  hookModule?: string[];
  leaderElect?: boolean;
  leaderElectionLeaseName?: string;
  leaderElectionMode?: string;
  metricsBindAddress?: string;
  resyncPeriod?: string;
  hookAddressRefresh?: string;
  apiRequestTimeout?: string;
  kubeApiQps?: string;
  kubeApiBurst?: string;
  reconcileTimeout?: string;
  watchSilenceTimeout?: string;
  logLevel?: string;
  logFormat?: string;
  /** Go Scoby's zap flags, aliases of --log-level and --log-format. */
  zapLogLevel?: string;
  zapDevel?: string | boolean;
  zapEncoder?: string;
  gracefulShutdownTimeout?: string;
}

function collect(value: string, previous: string[] | undefined): string[] {
  return [...(previous ?? []), value];
}

/** `--hook-module`, shared by the controller and `scoby render`. */
export function hookModuleOption(): Option {
  return new Option(
    '--hook-module <module>',
    'in-process hook module that spec.hook.module may name; repeatable (default: SCOBY_HOOK_MODULES)',
  ).argParser(collect);
}

/** The controller's command line. Values are checked by loadConfig, so errors name the flag there. */
export function buildCommandLine(): Command {
  return new Command('scoby-controller')
    .description('Scoby: declarative controllers for registered CRDs')
    .option('--kubeconfig <path>', 'kubeconfig file (default: KUBECONFIG, ~/.kube/config or in-cluster)')
    .option(
      '--concurrency <n>',
      'reconciles running at once per registration; the whole process runs at most 4 x n (default 8)',
    )
    .addOption(
      new Option(
        '--form-factor-plugin <module>',
        'form-factor plugin module to load; repeatable (default: SCOBY_FORM_FACTOR_PLUGINS)',
      ).argParser(collect),
    )
    .addOption(hookModuleOption())
    .option('--leader-elect', 'elect a leader through a Lease before reconciling (default)')
    .option('--no-leader-elect', 'reconcile without leader election')
    .option(
      '--leader-election-lease-name <name>',
      'name of the Lease in SCOBY_NAMESPACE (default scoby-controller-leader)',
    )
    .option(
      '--leader-election-mode <mode>',
      'leader: one replica reconciles, the others stand by; active-active: the replicas share the registrations through Leases (default leader)',
    )
    .option('--metrics-bind-address <host:port>', 'address of /metrics, /healthz and /readyz (default :8080)')
    .option('--resync-period <duration>', 'period of the full resync, e.g. 10h, 30m (default 10h)')
    .option(
      '--hook-address-refresh <duration>',
      're-resolution period of hook addresses given by ref (default: SCOBY_HOOK_ADDRESS_REFRESH or 1m)',
    )
    .option(
      '--api-request-timeout <duration>',
      'abandon an API request not answered within this (default 30s)',
    )
    .option(
      '--kube-api-qps <n>',
      `client-side limit of API requests per second (watches excepted), 0 for none (default ${DEFAULT_API_RATE_LIMIT.qps})`,
    )
    .option(
      '--kube-api-burst <n>',
      `API requests allowed at once above --kube-api-qps after a quiet spell (default ${DEFAULT_API_RATE_LIMIT.burst})`,
    )
    .option(
      '--reconcile-timeout <duration>',
      'free the slot of a reconcile still running after this and retry it; keep it above the longest hook timeout (default 5m)',
    )
    .option(
      '--watch-silence-timeout <duration>',
      'restart a watch that delivers no event and no bookmark for this long (default 3m)',
    )
    .option(
      '--log-level <level>',
      'trace, debug, info, warn, error, fatal or silent (default: LOG_LEVEL or info)',
    )
    .option(
      '--log-format <format>',
      'console (one line per record for people) or json (default: console on a terminal, json otherwise)',
    )
    .option('--zap-log-level <level>', "Go Scoby's flag: debug, info, error, ... or a verbosity (1 = debug)")
    .option('--zap-devel [bool]', "Go Scoby's flag: console format and debug level")
    .option('--zap-encoder <encoder>', "Go Scoby's flag: console or json, as --log-format")
    .option(
      '--graceful-shutdown-timeout <duration>',
      'after SIGTERM or SIGINT, exit after this even if in-flight work has not finished (default 30s); a second signal exits at once',
    );
}

/** Parses user arguments (without the node and script entries). Commander reports unknown flags itself. */
export function parseCommandLine(args: readonly string[], command = buildCommandLine()): CommandLineOptions {
  return command.parse([...args], { from: 'user' }).opts<CommandLineOptions>();
}
