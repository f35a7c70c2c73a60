/**
 * One installation manifest of Knative Serving from the YAML of its modules (serving's config/core,
 * networking's CRDs and config-network, caching's Image CRD), in the order kubectl can apply it, with
 * the edits this repository's cluster needs: `ko://` references become the locally built images, the
 * local image host skips tag resolution, and `kubernetes.podspec-fieldref` is enabled because Scoby
 * renders `valueFrom.fieldRef` env into the Service (docs/spec/env.md §6.6), and config-network names the
 * ingress class of the ingress installed beside it (Traefik's). Pure: reading the module cache is
 * scripts/knative-manifest.ts's job.
 */
import { parseAllDocuments } from 'yaml';
import { KNATIVE_BINARIES, type KnativeBinary } from './knative.ts';

/** One YAML file of a module: its path relative to the module root, and its text. */
export interface ModuleFile {
  path: string;
  text: string;
}

export interface KnativeSources {
  serving: ModuleFile[];
  networking: ModuleFile[];
  caching: ModuleFile[];
}

export type ManifestObject = Record<string, unknown> & {
  kind: string;
  metadata: { name: string; namespace?: string } & Record<string, unknown>;
};

/** Serving's defaults for `registries-skipping-tag-resolving` (pkg/deployment), kept beside ours. */
export const DEFAULT_SKIPPED_REGISTRIES = ['kind.local', 'ko.local', 'dev.local'];

const KO_REFERENCE = /^ko:\/\/knative\.dev\/serving\/cmd\/(.+)$/;

function objectsOf(file: ModuleFile): ManifestObject[] {
  const objects: ManifestObject[] = [];
  for (const document of parseAllDocuments(file.text)) {
    if (document.errors.length > 0) throw new Error(`${file.path}: ${document.errors[0]!.message}`);
    const value = document.toJS() as unknown;
    // A document of comments only (a licence header) holds no object.
    if (value !== null && value !== undefined) objects.push(value as ManifestObject);
  }
  return objects;
}

const yamlFiles = (files: ModuleFile[], under: string): ModuleFile[] =>
  files
    .filter((file) => file.path.startsWith(under) && /\.ya?ml$/.test(file.path))
    .sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));

/**
 * The objects in apply order: serving's namespace, every CRD (serving's, networking's, caching's),
 * networking's config-network, then the rest of serving's config/core in path order (as `ko resolve -R`
 * reads it).
 */
export function knativeObjects(sources: KnativeSources): ManifestObject[] {
  const serving = yamlFiles(sources.serving, 'config/core/').flatMap(objectsOf);
  const networking = yamlFiles(sources.networking, 'config/').flatMap(objectsOf);
  const caching = yamlFiles(sources.caching, 'config/').flatMap(objectsOf);
  const isCrd = (object: ManifestObject) => object.kind === 'CustomResourceDefinition';
  const namespaces = serving.filter((object) => object.kind === 'Namespace');
  const crds = [...serving, ...networking, ...caching].filter(isCrd);
  const rest = [
    ...networking.filter((object) => !isCrd(object)),
    ...serving.filter((o) => !isCrd(o) && o.kind !== 'Namespace'),
  ];
  const unexpected = caching.filter((object) => !isCrd(object));
  if (unexpected.length > 0)
    throw new Error(
      `caching's config/ holds more than its CRD: ${unexpected.map((o) => `${o.kind} ${o.metadata.name}`).join(', ')}`,
    );
  return [...namespaces, ...crds, ...rest];
}

/** Every `ko://knative.dev/serving/cmd/<program>` string in `value` replaced by `images[program]`. */
function withImages(value: unknown, images: Record<KnativeBinary, string>): unknown {
  if (typeof value === 'string') {
    const match = KO_REFERENCE.exec(value);
    if (match === null) {
      if (value.startsWith('ko://')) throw new Error(`${value} is not a program of knative.dev/serving`);
      return value;
    }
    const program = match[1]!;
    if (!(KNATIVE_BINARIES as readonly string[]).includes(program))
      throw new Error(`${value} names ${program}, which is not built (${KNATIVE_BINARIES.join(', ')})`);
    return images[program as KnativeBinary];
  }
  if (Array.isArray(value)) return value.map((item) => withImages(item, images));
  if (value !== null && typeof value === 'object')
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, withImages(item, images)]));
  return value;
}

function withData(object: ManifestObject, data: Record<string, string>): ManifestObject {
  return { ...object, data: { ...(object.data as Record<string, string> | undefined), ...data } };
}

/** The class Traefik's Knative provider (experimental since v3.6) serves KIngresses of. */
export const TRAEFIK_INGRESS_CLASS = 'traefik.ingress.networking.knative.dev';

/**
 * How long a Revision's pods may take to become ready before Knative reports the Revision, and so the
 * Service, `Ready=False` (config-deployment's `progress-deadline`): Knative's default, 600 s, leaves a
 * Revision whose container keeps crashing `Ready=Unknown` for ten minutes, longer than a test waits.
 */
export const TEST_PROGRESS_DEADLINE = '120s';

/**
 * The edits of the objects for this repository's cluster: images, `registries-skipping-tag-resolving`
 * in config-deployment (the given host after serving's defaults, or every Revision of an image there
 * fails resolving its tag against a registry that does not exist) and its `progress-deadline`
 * (`options.progressDeadline`, when given), `kubernetes.podspec-fieldref:
 * enabled` in config-features (or Knative's webhook rejects a Service whose env uses fieldRef), and
 * `ingress-class` in config-network (networking's default names Istio, which is not installed: no
 * KIngress would ever be served and no Route would become Ready).
 */
export function editKnativeObjects(
  objects: ManifestObject[],
  options: {
    images: Record<KnativeBinary, string>;
    localImageHost: string;
    ingressClass: string;
    progressDeadline?: string;
  },
): ManifestObject[] {
  const isConfigMap = (object: ManifestObject, name: string) =>
    object.kind === 'ConfigMap' &&
    object.metadata.name === name &&
    object.metadata.namespace === 'knative-serving';
  for (const name of ['config-deployment', 'config-features', 'config-network'])
    if (!objects.some((object) => isConfigMap(object, name)))
      throw new Error(`there is no ConfigMap ${name}`);
  return objects.map((original) => {
    const object = withImages(original, options.images) as ManifestObject;
    if (isConfigMap(object, 'config-deployment')) {
      const current = (object.data as Record<string, string> | undefined)?.[
        'registries-skipping-tag-resolving'
      ];
      const registries =
        current === undefined ? DEFAULT_SKIPPED_REGISTRIES : current.split(',').map((r) => r.trim());
      return withData(object, {
        'registries-skipping-tag-resolving': [...new Set([...registries, options.localImageHost])].join(','),
        ...(options.progressDeadline === undefined ? {} : { 'progress-deadline': options.progressDeadline }),
      });
    }
    if (isConfigMap(object, 'config-features'))
      return withData(object, { 'kubernetes.podspec-fieldref': 'enabled' });
    if (isConfigMap(object, 'config-network'))
      return withData(object, { 'ingress-class': options.ingressClass });
    return object;
  });
}

/** The manifest in the three applies an installation needs, each after the previous one took effect. */
export interface KnativeInstallStages {
  /** Every CRD: the rest names their kinds (the queue-proxy's Image, the webhook's Certificate). */
  crds: ManifestObject[];
  /** Everything else but the webhook configurations. */
  components: ManifestObject[];
  /**
   * The admission webhook configurations, applied once the webhook answers: in place earlier, they
   * make kube-apiserver call a webhook that is not running yet for the ConfigMaps the rest writes.
   */
  webhooks: ManifestObject[];
}

const WEBHOOK_CONFIGURATIONS = ['MutatingWebhookConfiguration', 'ValidatingWebhookConfiguration'];

export function knativeInstallStages(objects: ManifestObject[]): KnativeInstallStages {
  const isCrd = (object: ManifestObject) => object.kind === 'CustomResourceDefinition';
  const isWebhook = (object: ManifestObject) => WEBHOOK_CONFIGURATIONS.includes(object.kind);
  return {
    crds: objects.filter(isCrd),
    components: objects.filter((object) => !isCrd(object) && !isWebhook(object)),
    webhooks: objects.filter(isWebhook),
  };
}
