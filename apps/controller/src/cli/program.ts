/**
 * The `scoby` command line: `run` (the controller, optionally against an embedded API server),
 * `render` (one instance offline, through the controller's own render code), `validate`
 * (registrations offline), `hook check` (a hook against the hooks v1 contract) and `crds`. Commands
 * load their code when chosen, so `--help` and `crds` start quickly.
 */
import { Command, CommanderError, Option } from 'commander';
import { buildCommandLine, hookModuleOption } from '../config/command-line.ts';
import { buildInfo } from '../config/build-info.ts';
import { DEFAULT_KUBECONFIG_OUT, DEFAULT_RENDER_NAMESPACE, EMBEDDED_NAMESPACE } from './defaults.ts';
import type { CliIo } from './io.ts';
import type { RenderOptions } from './render/render-command.ts';
import type { HookCheckOptions } from './hook-check/hook-check-command.ts';
import type { RunOptions } from './run/run-command.ts';
import type { ValidateOptions } from './validate/validate-command.ts';

function collect(value: string, previous: string[] | undefined): string[] {
  return [...(previous ?? []), value];
}

/** What builds a request offline as the controller would: the controller ConfigMaps' namespace and the plugins. */
function withControllerSettings(command: Command): Command {
  return command
    .option(
      '--scoby-namespace <namespace>',
      `namespace of the controller ConfigMaps (default: SCOBY_NAMESPACE or ${DEFAULT_RENDER_NAMESPACE})`,
    )
    .addOption(
      new Option(
        '--form-factor-plugin <module>',
        'form-factor plugin module to load; repeatable (default: SCOBY_FORM_FACTOR_PLUGINS)',
      ).argParser(collect),
    );
}

function runCommand(program: Command, done: (code: Promise<number>) => void, io: CliIo): Command {
  return buildCommandLine()
    .name('run')
    .description(
      'run the controller against the cluster of the kubeconfig, in-cluster, or an embedded API server',
    )
    .copyInheritedSettings(program)
    .option(
      '--embedded',
      `start an in-memory API server and run against it (SCOBY_NAMESPACE defaults to ${EMBEDDED_NAMESPACE})`,
    )
    .option(
      '--kubeconfig-out <file>',
      `with --embedded: where to write its kubeconfig (default ${DEFAULT_KUBECONFIG_OUT})`,
    )
    .addOption(
      new Option(
        '--cluster <kind>',
        'with --embedded: the in-memory API server, or the real control plane (kube-apiserver, etcd and kwok of the pinned release, from KUBEBUILDER_ASSETS)',
      ).choices(['memory', 'kwok']),
    )
    .option(
      '--sample',
      'with --embedded: apply the Greeter sample from apps/controller/samples and log the outcome',
    )
    .action((options: RunOptions) =>
      done(import('./run/run-command.ts').then((command) => command.runController(options, io))),
    );
}

function renderCommand(done: (code: Promise<number>) => void, io: CliIo): Command {
  return withControllerSettings(new Command('render'))
    .description(
      'render the children and status the controller would write for one instance, without a cluster',
    )
    .requiredOption('--registration <file>', 'the CRDRegistration (YAML or JSON)')
    .requiredOption('--instance <file>', 'the instance of the registered CRD')
    .option(
      '--objects <files...>',
      'objects served to lookups: Services, ConfigMaps, addressables (several documents or a List per file)',
    )
    .option(
      '--crd <file>',
      "the registered CRD: its chosen version and status schema; the instance is pruned, defaulted and validated with it (default: the instance's apiVersion, every status feature on)",
    )
    .option(
      '--observed <files...>',
      'live children (kubectl get -o yaml): print the status the controller would write for them (default: just created)',
    )
    .option('-n, --namespace <namespace>', 'namespace of an instance without one (default: default)')
    .option('--hooks', "call the registration's pre-reconcile hook and apply its answer")
    .addOption(
      new Option(
        '-o, --output <format>',
        'yaml: the instance with its status, then each child (for kubectl apply -f -); json: {children, status, warnings}',
      )
        .choices(['yaml', 'json'])
        .default('yaml'),
    )
    .addOption(hookModuleOption())
    .option('--now <time>', 'the time written as lastTransitionTime (RFC 3339, default: now)')
    .action((options: RenderOptions) =>
      done(import('./render/render-command.ts').then((command) => command.runRender(options, io))),
    );
}

function validateCommand(done: (code: Promise<number>) => void, io: CliIo): Command {
  return (
    new Command('validate')
      .description(
        'check CRDRegistrations before applying them, with the checks and messages of the controller; exit 1 with one line per problem',
      )
      .argument('<files...>', 'YAML or JSON files holding CRDRegistrations')
      // Repeatable rather than variadic: a variadic option swallows the registration files after it.
      .addOption(
        new Option(
          '--crd <file>',
          'a registered CRD: check the registrations against its schema too; repeatable',
        ).argParser(collect),
      )
      .addOption(
        new Option(
          '--form-factor-plugin <module>',
          'form-factor plugin module to load; repeatable (default: SCOBY_FORM_FACTOR_PLUGINS)',
        ).argParser(collect),
      )
      .action((files: string[], options: ValidateOptions) =>
        done(
          import('./validate/validate-command.ts').then((command) => command.runValidate(files, options, io)),
        ),
      )
  );
}

/** Usage errors of `scoby hook check` exit 2, so that a hook author's CI tells them from a failing hook. */
const HOOK_CHECK_USAGE_ERROR = 2;

function hookCommand(program: Command, done: (code: Promise<number>) => void, io: CliIo): Command {
  const check = withControllerSettings(new Command('check'))
    .description(
      'send every phase and edge of the hooks v1 contract to a hook and judge each answer against docs/spec/hooks-v1.md; exit 0 when it passes, 1 when it fails, 2 on a usage error',
    )
    .copyInheritedSettings(program)
    .exitOverride((error) => {
      if (error.exitCode === 0) throw error;
      throw new CommanderError(HOOK_CHECK_USAGE_ERROR, error.code, error.message);
    })
    .option('--url <url>', 'the hook URL (http or https)')
    .option(
      '--module <name>',
      'an in-process hook module (spec.hook.module): a package name or file path exporting the SDK handlers',
    )
    .requiredOption('--registration <file>', 'the CRDRegistration whose spec.hook the hook serves')
    .requiredOption(
      '--instance <files...>',
      'instances of the registered CRD (several documents or a List per file): one request each',
    )
    .option('--crd <file>', 'the registered CRD: the instances are pruned, defaulted and validated with it')
    .option('--objects <files...>', 'objects served to lookups while the requests are built, as for render')
    .option('-n, --namespace <namespace>', 'namespace of instances without one (default: default)')
    .addOption(
      new Option('-o, --output <format>', 'table: one line per check; json: the report document')
        .choices(['table', 'json'])
        .default('table'),
    )
    .option('--report <file>', 'also write the JSON report to this file')
    .option('--strict', 'warnings fail the check too')
    .action((options: HookCheckOptions) =>
      done(import('./hook-check/hook-check-command.ts').then((command) => command.runHookCheck(options, io))),
    );
  return new Command('hook')
    .description('tools for hook authors')
    .copyInheritedSettings(program)
    .addCommand(check);
}

/** Runs the command line `args` (without node and script); resolves with the process exit code. */
export async function runCli(args: readonly string[], io: CliIo): Promise<number> {
  let outcome: Promise<number> = Promise.resolve(0);
  const done = (code: Promise<number>) => {
    outcome = code;
  };
  const program = new Command('scoby')
    .description('Scoby: declarative controllers for registered CRDs')
    .exitOverride()
    .configureOutput({ writeOut: io.stdout, writeErr: io.stderr })
    .version(buildInfo().version, '--version', 'print the version of scoby');
  program.addCommand(runCommand(program, done, io));
  program.addCommand(renderCommand(done, io).copyInheritedSettings(program));
  program.addCommand(validateCommand(done, io).copyInheritedSettings(program));
  program.addCommand(hookCommand(program, done, io));
  program.addCommand(
    new Command('crds')
      .description('print the CRD manifests Scoby needs (pipe into kubectl apply -f -)')
      .copyInheritedSettings(program)
      .action(() => done(import('./crds-command.ts').then((command) => command.runCrds(io)))),
  );
  try {
    await program.parseAsync([...args], { from: 'user' });
  } catch (error) {
    if (error instanceof CommanderError) return error.exitCode;
    throw error;
  }
  return outcome;
}
