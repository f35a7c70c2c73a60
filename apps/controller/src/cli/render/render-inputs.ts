/**
 * What `scoby render` and `scoby hook check` read before they render an instance: the controller's
 * settings (its ConfigMap namespace and plugins as the flags and environment give them), the
 * registration, the CRD, the objects served to lookups, the form factors and the cluster domain. One
 * reader, so that both commands build the requests the controller would from the same files alike.
 */
import { loadClusterDomain } from '@scoby/address';
import type { RenderLookups } from '@scoby/env';
import type { FormFactorRegistry } from '@scoby/formfactor';
import type { KubeObject } from '@scoby/kube-objects';
import { API_VERSION, KIND } from '@scoby/registration';
import { loadConfig, type ControllerConfig } from '../../config/index.ts';
import { DEFAULT_RENDER_NAMESPACE } from '../defaults.ts';
import { readAllObjects, readSingleObjectOf } from '../documents.ts';
import type { CliIo } from '../io.ts';
import { loadFormFactors } from '../plugins.ts';
import { objectLookups } from './object-lookups.ts';

export interface RenderInputOptions {
  registration: string;
  crd?: string;
  objects?: string[];
  scobyNamespace?: string;
  formFactorPlugin?: string[];
  hookModule?: string[];
}

export interface RenderInputs {
  config: ControllerConfig;
  registration: KubeObject;
  crd?: KubeObject;
  /** The objects of --objects as read (Namespaces among them judge a namespaceSelector). */
  objects: KubeObject[];
  formFactors: FormFactorRegistry;
  clusterDomain: string;
  /** The objects lookups see for an instance of `namespace`: --objects and the CRD, placed there. */
  known(namespace: string): KubeObject[];
  lookups(namespace: string): RenderLookups;
}

/** Kinds without a namespace; every other object of the files is namespaced. */
const CLUSTER_SCOPED = new Set([
  'CustomResourceDefinition',
  'Namespace',
  'ClusterRole',
  'ClusterRoleBinding',
]);

/** Objects without a namespace land in `namespace`, as `kubectl apply -f` would create them. */
export function placed(objects: readonly KubeObject[], namespace: string): KubeObject[] {
  return objects.map((object) =>
    object.metadata.namespace || CLUSTER_SCOPED.has(object.kind)
      ? object
      : { ...object, metadata: { ...object.metadata, namespace } },
  );
}

/** The inputs, or the message of the first that cannot be read. */
export async function readRenderInputs(
  options: RenderInputOptions,
  io: CliIo,
): Promise<{ ok: true; inputs: RenderInputs } | { ok: false; message: string }> {
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
  if (!settings.ok) return { ok: false, message: settings.errors.map((error) => error.message).join('; ') };
  const { config } = settings;
  const registration = await readSingleObjectOf(options.registration, io.cwd, {
    apiVersion: API_VERSION,
    kind: KIND,
  });
  if (!registration.ok) return registration;
  const crd =
    options.crd === undefined
      ? undefined
      : await readSingleObjectOf(options.crd, io.cwd, {
          apiVersion: 'apiextensions.k8s.io/v1',
          kind: 'CustomResourceDefinition',
        });
  if (crd && !crd.ok) return crd;
  const objects = await readAllObjects(options.objects ?? [], io.cwd);
  if (!objects.ok) return objects;
  const formFactors = await loadFormFactors(config.formFactorPlugins, io.cwd);
  if (!formFactors.ok) return formFactors;
  const clusterDomain = config.clusterDomain ?? (await loadClusterDomain({ environment: io.env }));
  const lookupObjects = crd ? [...objects.objects, crd.object] : objects.objects;
  const known = (namespace: string) => placed(lookupObjects, namespace);
  return {
    ok: true,
    inputs: {
      config,
      registration: registration.object,
      ...(crd ? { crd: crd.object } : {}),
      objects: objects.objects,
      formFactors: formFactors.registry,
      clusterDomain,
      known,
      lookups: (namespace) =>
        objectLookups(known(namespace), { scobyNamespace: config.scobyNamespace, clusterDomain }),
    },
  };
}
