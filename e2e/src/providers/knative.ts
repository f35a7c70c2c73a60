/**
 * Knative Serving and its ingress installed on the node container (E2E_KNATIVE=1): the manifest of
 * `npm run knative-manifest` applied in three stages, each once the previous one took effect (CRDs
 * Established, then the components, then the webhook configurations once the webhook runs), and
 * Traefik beside it for the Routes. kubectl runs inside the node as its admin, as for the node's own
 * set-up; every step's time is logged.
 */
import { readFile } from 'node:fs/promises';
import { parseAllDocuments, stringify } from 'yaml';
import {
  KNATIVE_BINARIES,
  KNATIVE_RELEASE,
  knativeCacheFolder,
  knativeImage,
  knativeInstallStages,
  traefikImage,
  type ManifestObject,
} from '@scoby/kube-control-plane';

/** What the installer needs of the node: a command run in it, and a file written into it. */
export interface NodeShell {
  run(command: string[], what: string): Promise<string>;
  write(content: string, path: string): Promise<void>;
  kubectl(...args: string[]): string[];
}

/** The images the node must hold before the install: Serving's programs and Traefik. */
export function knativeImages(): string[] {
  return [...KNATIVE_BINARIES.map((program) => knativeImage(program)), traefikImage()];
}

const TRAEFIK_FIXTURE = new URL('../../fixtures/knative-ingress-traefik.yaml', import.meta.url);
/** The Deployments of Serving's core that must be Available before a Service can be served. */
const SERVING_DEPLOYMENTS = ['controller', 'webhook', 'autoscaler', 'activator'];

async function manifestObjects(): Promise<ManifestObject[]> {
  const path = `${knativeCacheFolder()}.yaml`;
  const text = await readFile(path, 'utf8').catch((error: unknown) => {
    throw new Error(`${path} cannot be read (run \`npm run knative-manifest\`): ${String(error)}`);
  });
  return parseAllDocuments(text).map((document) => document.toJS() as ManifestObject);
}

const asYaml = (objects: ManifestObject[]): string =>
  objects.map((object) => stringify(object, { lineWidth: 0 })).join('---\n');

export async function installKnative(node: NodeShell, log: (line: string) => void): Promise<void> {
  const started = Date.now();
  const since = () => `${((Date.now() - started) / 1000).toFixed(1)} s`;
  const stages = knativeInstallStages(await manifestObjects());
  const apply = async (name: string, yaml: string) => {
    const path = `/tmp/knative-${name}.yaml`;
    await node.write(yaml, path);
    await node.run(node.kubectl('apply', '--server-side', '--force-conflicts', '-f', path), `apply ${name}`);
  };
  const step = (what: string, ...args: string[]) => node.run(node.kubectl(...args), what);
  await apply('crds', asYaml(stages.crds));
  const crds = stages.crds.map((crd) => `crd/${crd.metadata.name}`);
  await step('Knative CRDs Established', 'wait', '--for=condition=Established', '--timeout=120s', ...crds);
  log(`knative: ${stages.crds.length} CRDs Established after ${since()}`);
  await apply('components', asYaml(stages.components));
  const traefik = (await readFile(TRAEFIK_FIXTURE, 'utf8')).replaceAll('TRAEFIK_IMAGE', traefikImage());
  await apply('traefik', traefik);
  log(
    `knative: ${stages.components.length} objects of Serving ${KNATIVE_RELEASE.serving} and Traefik applied after ${since()}`,
  );
  const rolledOut = (namespace: string, deployment: string) =>
    step(
      `${namespace}/${deployment} rolled out`,
      '-n',
      namespace,
      'rollout',
      'status',
      `deployment/${deployment}`,
      '--timeout=600s',
    );
  await rolledOut('knative-serving', 'webhook');
  log(`knative: webhook available after ${since()}`);
  await apply('webhooks', asYaml(stages.webhooks));
  const serving = SERVING_DEPLOYMENTS.map((name) => `deployment/${name}`);
  await step(
    'Knative Serving available',
    '-n',
    'knative-serving',
    'wait',
    '--for=condition=Available',
    '--timeout=600s',
    ...serving,
  );
  await rolledOut('traefik', 'traefik');
  log(
    `knative: Serving ${KNATIVE_RELEASE.serving} (${SERVING_DEPLOYMENTS.join(', ')}) and Traefik available, ` +
      `${stages.webhooks.length} webhook configurations in place: started in ${since()}`,
  );
}
