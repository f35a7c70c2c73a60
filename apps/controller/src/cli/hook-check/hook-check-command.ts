/**
 * `scoby hook check`: reads the registration and instances, builds each request as the controller
 * would (the offline render up to the hook call), sends the checks of docs/spec/hooks-v1.md §11 to the
 * hook and prints the report. Exit 0 when the hook passes, 1 when it fails, 2 when the command
 * cannot run (usage, files, a registration without a hook).
 */
import { writeFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import {
  createModuleTransport,
  createUrlTransport,
  moduleHookUrl,
  type FormFactorFormat,
  type HookTransport,
} from '@scoby/hooks-v1/client';
import { loadHookModules } from '../../hook-modules/load.ts';
import { hookDestination } from '../../instance/hook-request.ts';
import { declaredPhases } from '../../instance/declared-phases.ts';
import { formatTime } from '../../status/conditions.ts';
import { readAllObjects } from '../documents.ts';
import type { CliIo } from '../io.ts';
import { instanceNamespace } from '../render/instance-admission.ts';
import { prepareRender, type PreparedRender } from '../render/offline-render.ts';
import { readRenderInputs } from '../render/render-inputs.ts';
import { instanceUnderCheck } from './instance-requests.ts';
import { buildReport, exitCode, formatJson, formatTable } from './report.ts';
import { runChecks } from './run-checks.ts';

export interface HookCheckOptions {
  url?: string;
  module?: string;
  registration: string;
  instance: string[];
  crd?: string;
  objects?: string[];
  namespace?: string;
  output: string;
  report?: string;
  strict?: boolean;
  scobyNamespace?: string;
  formFactorPlugin?: string[];
}

export const USAGE_ERROR = 2;

interface Target {
  name: string;
  send: HookTransport;
  close(): void;
}

/** The usage problem of --url / --module, or undefined. */
function hookOptionProblem(options: HookCheckOptions): string | undefined {
  if ((options.url === undefined) === (options.module === undefined))
    return 'give the hook to check: exactly one of --url or --module';
  if (options.module !== undefined) return undefined;
  const url = options.url!;
  if (!URL.canParse(url) || !['http:', 'https:'].includes(new URL(url).protocol))
    return `--url: ${JSON.stringify(url)} is not an http or https URL`;
  return undefined;
}

/**
 * The hook under check: a URL, or a module loaded as the controller loads an allowed one (the check
 * needs no allow-list: the author names the module they are testing).
 */
async function transportFor(
  options: HookCheckOptions,
  formFactorFormat: FormFactorFormat,
  cwd: string,
): Promise<Target | { problem: string }> {
  if (options.module !== undefined) {
    const load = (await loadHookModules([options.module], cwd)).get(options.module)!;
    if (!load.ok) return { problem: `--module: ${load.message}` };
    return {
      name: moduleHookUrl(options.module),
      send: createModuleTransport(load.handlers, formFactorFormat),
      close: () => {},
    };
  }
  const transport = createUrlTransport(options.url!);
  return { name: options.url!, send: transport.send, close: transport.close };
}

export async function runHookCheck(options: HookCheckOptions, io: CliIo): Promise<number> {
  const usage = (message: string) => {
    io.stderr(`error: ${message}\n`);
    return USAGE_ERROR;
  };
  if (options.output !== 'table' && options.output !== 'json')
    return usage(`-o: must be table or json, got "${options.output}"`);
  const hookProblem = hookOptionProblem(options);
  if (hookProblem !== undefined) return usage(hookProblem);
  const read = await readRenderInputs(options, io);
  if (!read.ok) return usage(read.message);
  const { inputs } = read;
  const { config, clusterDomain } = inputs;
  const instances = await readAllObjects(options.instance, io.cwd);
  if (!instances.ok) return usage(instances.message);
  if (instances.objects.length === 0)
    return usage(`--instance: no instance in ${options.instance.join(', ')}`);
  const now = formatTime(new Date());
  const registrationName = inputs.registration.metadata.name ?? '';

  const noHook = `CRDRegistration "${registrationName}" declares no hook (spec.hook)`;
  if ((inputs.registration.spec as { hook?: unknown } | undefined)?.hook == null) return usage(noHook);

  const prepared: { name: string; prepared: PreparedRender }[] = [];
  for (const instance of instances.objects) {
    const namespace = instanceNamespace(instance, options.namespace);
    const name = `${namespace}/${instance.metadata.name ?? ''}`;
    const preparation = await prepareRender({
      registration: inputs.registration,
      instance,
      namespace,
      ...(inputs.crd ? { crd: inputs.crd } : {}),
      namespaces: inputs.objects.filter((object) => object.kind === 'Namespace'),
      formFactors: inputs.formFactors,
      lookups: inputs.lookups(namespace),
      clusterDomain,
      now,
    });
    if (!preparation.ok)
      return usage(`instance ${name}: ${preparation.failure.reason}: ${preparation.failure.message}`);
    prepared.push({ name, prepared: preparation.prepared });
  }
  const { target: registrationTarget } = prepared[0]!.prepared.plan;
  const hook = registrationTarget.spec.hook;
  if (hook === undefined) return usage(noHook);

  const target = await transportFor(options, config.hookFormFactorFormat, io.cwd);
  if ('problem' in target) return usage(target.problem);
  try {
    const destination = hookDestination(registrationTarget.plugin, {
      url: target.name,
      timeoutMs: hook.timeoutMs,
    });
    const declared = declaredPhases(hook);
    const underCheck = prepared.map(({ name, prepared: state }) =>
      instanceUnderCheck(name, state, destination, declared, { now }),
    );
    const checks = await runChecks({
      send: target.send,
      formFactorFormat: config.hookFormFactorFormat,
      formFactor: destination.formFactor,
      timeoutMs: hook.timeoutMs,
      instances: underCheck,
      now: Date.now,
      elapsed: () => performance.now(),
    });
    const report = buildReport(
      {
        hook: target.name,
        registration: registrationName,
        timeoutMs: hook.timeoutMs,
        strict: options.strict === true,
      },
      checks,
    );
    if (options.report !== undefined) {
      try {
        await writeFile(resolve(io.cwd, options.report), formatJson(report));
      } catch (error) {
        return usage(`--report: cannot write ${options.report}: ${(error as Error).message}`);
      }
    }
    io.stdout(options.output === 'json' ? formatJson(report) : formatTable(report));
    return exitCode(report);
  } finally {
    target.close();
  }
}
