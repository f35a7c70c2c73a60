/**
 * `scoby render`: reads the files, sets up the lookups, the form factors and (with --hooks) the hook
 * client as the controller would, runs renderOffline, and prints the result (warnings on stderr) or
 * the failure.
 */
import { loadClusterDomain, resolveDestination } from '@scoby/address';
import { createHookClient } from '@scoby/hooks-v1/client';
import type { KubeObject } from '@scoby/kube-objects';
import { formatTime } from '../../status/conditions.ts';
import { loadConfig } from '../../config/index.ts';
import { readAllObjects, readSingleObject } from '../documents.ts';
import { DEFAULT_RENDER_NAMESPACE } from '../defaults.ts';
import type { CliIo } from '../io.ts';
import { loadFormFactors } from '../plugins.ts';
import { resolveHookTarget } from '../../hook-modules/hook-target.ts';
import { loadedHandlers, loadHookModules } from '../../hook-modules/load.ts';
import { instanceNamespace } from './instance-admission.ts';
import { objectLookups, objectReader } from './object-lookups.ts';
import { renderOffline } from './offline-render.ts';
import { formatFailure } from './render-failure.ts';
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

/** Kinds without a namespace; every other object of the files is namespaced. */
const CLUSTER_SCOPED = new Set([
  'CustomResourceDefinition',
  'Namespace',
  'ClusterRole',
  'ClusterRoleBinding',
]);

/** Objects without a namespace land in `namespace`, as `kubectl apply -f` would create them. */
function placed(objects: readonly KubeObject[], namespace: string): KubeObject[] {
  return objects.map((object) =>
    object.metadata.namespace || CLUSTER_SCOPED.has(object.kind)
      ? object
      : { ...object, metadata: { ...object.metadata, namespace } },
  );
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
  const settings = loadConfig(
    {
      ...(options.formFactorPlugin ? { formFactorPlugin: options.formFactorPlugin } : {}),
      ...(options.hookModule ? { hookModule: options.hookModule } : {}),
    },
    {
      ...io.env,
      SCOBY_NAMESPACE: options.scobyNamespace ?? io.env.SCOBY_NAMESPACE ?? DEFAULT_RENDER_NAMESPACE,
    },
  );
  if (!settings.ok) return fail(settings.errors.map((error) => error.message).join('; '));
  const config = settings.config;

  const registration = await readSingleObject(options.registration, io.cwd, 'CRDRegistration');
  if (!registration.ok) return fail(registration.message);
  const instance = await readSingleObject(options.instance, io.cwd, 'instance');
  if (!instance.ok) return fail(instance.message);
  const crd =
    options.crd === undefined
      ? undefined
      : await readSingleObject(options.crd, io.cwd, 'CustomResourceDefinition');
  if (crd && !crd.ok) return fail(crd.message);
  const namespace = instanceNamespace(instance.object, options.namespace);
  const objects = await readAllObjects(options.objects ?? [], io.cwd);
  if (!objects.ok) return fail(objects.message);
  const observed = await readAllObjects(options.observed ?? [], io.cwd);
  if (!observed.ok) return fail(observed.message);
  const formFactors = await loadFormFactors(config.formFactorPlugins, io.cwd);
  if (!formFactors.ok) return fail(formFactors.message);

  const clusterDomain = config.clusterDomain ?? (await loadClusterDomain({ environment: io.env }));
  const known = placed(crd?.ok ? [...objects.objects, crd.object] : objects.objects, namespace);
  const hookModules = options.hooks ? await loadHookModules(config.hookModules, io.cwd) : new Map();
  const hookClient = options.hooks
    ? createHookClient({
        formFactorFormat: config.hookFormFactorFormat,
        modules: loadedHandlers(hookModules),
      })
    : undefined;
  try {
    const result = await renderOffline({
      registration: registration.object,
      instance: instance.object,
      namespace,
      ...(crd?.ok ? { crd: crd.object } : {}),
      observed: placed(observed.objects, namespace),
      namespaces: objects.objects.filter((object) => object.kind === 'Namespace'),
      formFactors: formFactors.registry,
      lookups: objectLookups(known, { scobyNamespace: config.scobyNamespace, clusterDomain }),
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
