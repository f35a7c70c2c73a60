/**
 * `scoby render`: reads the files, sets up the lookups, the form factors and (with --hooks) the hook
 * client as the controller would, runs renderOffline, and prints the result (warnings on stderr) or
 * the failure.
 */
import { resolveDestination } from '@scoby/address';
import { createHookClient } from '@scoby/hooks-v1/client';
import { formatTime } from '../../status/conditions.ts';
import { readAllObjects, readSingleObject } from '../documents.ts';
import type { CliIo } from '../io.ts';
import { resolveHookTarget } from '../../hook-modules/hook-target.ts';
import { loadedHandlers, loadHookModules } from '../../hook-modules/load.ts';
import { instanceNamespace } from './instance-admission.ts';
import { objectReader } from './object-lookups.ts';
import { renderOffline } from './offline-render.ts';
import { formatFailure } from './render-failure.ts';
import { placed, readRenderInputs } from './render-inputs.ts';
import { formatOutput, formatWarning } from './render-output.ts';

export interface RenderOptions {
  registration: string;
  instance: string;
  objects?: string[];
  observed?: string[];
  namespace?: string;
  crd?: string;
  hooks?: boolean;
  output: string;
  scobyNamespace?: string;
  formFactorPlugin?: string[];
  hookModule?: string[];
  now?: string;
}

function parseNow(value: string | undefined): string | undefined {
  if (value === undefined) return formatTime(new Date());
  const parsed = Date.parse(value);
  return Number.isNaN(parsed) ? undefined : formatTime(new Date(parsed));
}

/** Returns the exit code: 0 with the result on stdout, 1 with the reason on stderr. */
export async function runRender(options: RenderOptions, io: CliIo): Promise<number> {
  const fail = (message: string) => {
    io.stderr(formatFailure({ reason: 'error', message }));
    return 1;
  };
  if (options.output !== 'yaml' && options.output !== 'json')
    return fail(`-o: must be yaml or json, got "${options.output}"`);
  const now = parseNow(options.now);
  if (now === undefined) return fail(`--now: "${options.now}" is not an RFC 3339 time`);
  const read = await readRenderInputs(options, io);
  if (!read.ok) return fail(read.message);
  const { inputs } = read;
  const { config, clusterDomain } = inputs;
  const instance = await readSingleObject(options.instance, io.cwd, 'instance');
  if (!instance.ok) return fail(instance.message);
  const namespace = instanceNamespace(instance.object, options.namespace);
  const observed = await readAllObjects(options.observed ?? [], io.cwd);
  if (!observed.ok) return fail(observed.message);
  const known = inputs.known(namespace);
  const hookModules = options.hooks ? await loadHookModules(config.hookModules, io.cwd) : new Map();
  const hookClient = options.hooks
    ? createHookClient({
        formFactorFormat: config.hookFormFactorFormat,
        modules: loadedHandlers(hookModules),
      })
    : undefined;
  try {
    const result = await renderOffline({
      registration: inputs.registration,
      instance: instance.object,
      namespace,
      ...(inputs.crd ? { crd: inputs.crd } : {}),
      observed: placed(observed.objects, namespace),
      namespaces: inputs.objects.filter((object) => object.kind === 'Namespace'),
      formFactors: inputs.formFactors,
      lookups: inputs.lookups(namespace),
      clusterDomain,
      now,
      ...(hookClient
        ? {
            hooks: {
              client: hookClient,
              resolveHook: (hook) =>
                resolveHookTarget(
                  hook,
                  (address) => resolveDestination(address, { clusterDomain, reader: objectReader(known) }),
                  hookModules,
                ),
            },
          }
        : {}),
    });
    if (!result.ok) {
      for (const warning of result.warnings ?? []) io.stderr(formatWarning(warning));
      io.stderr(formatFailure(result.failure));
      return 1;
    }
    for (const warning of result.output.warnings) io.stderr(formatWarning(warning));
    io.stdout(formatOutput(result.output, result.instance, options.output));
    return 0;
  } finally {
    hookClient?.close();
  }
}
