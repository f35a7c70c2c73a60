/**
 * Scoby installed by its Helm chart (deploy/helm/scoby), values only, as a user installs it on a real
 * cluster: the chart's CRD, RBAC and Deployment, the controller image with the example StatefulSet
 * plugin, `helm install --wait` until every replica is ready.
 */
import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { locateHelm } from '@scoby/kube-control-plane';
import { parse, stringify } from 'yaml';
import { SCOBY_NAMESPACE } from '../settings.ts';

export const CHART = new URL('../../../deploy/helm/scoby', import.meta.url).pathname;
export const RELEASE = 'scoby';
const PLUGIN_RBAC = new URL('../../../packages/formfactor-statefulset-example/rbac.yaml', import.meta.url);

/** The values the suite installs with: the image loaded into the node, never pulled. */
export async function chartValues(image: string): Promise<Record<string, unknown>> {
  const separator = image.lastIndexOf(':');
  const { readFile } = await import('node:fs/promises');
  const pluginGrant = parse(await readFile(PLUGIN_RBAC, 'utf8')) as { rules: unknown[] };
  return {
    image: { repository: image.slice(0, separator), tag: image.slice(separator + 1), pullPolicy: 'Never' },
    replicas: 2,
    // The image sets SCOBY_FORM_FACTOR_PLUGINS itself (e2e/images/workloads/Dockerfile.controller-plugins);
    // the chart grants what the plugin creates.
    pluginRules: pluginGrant.rules,
    logLevel: 'info',
  };
}

export interface Helm {
  /** helm with the cluster's kubeconfig; resolves with stdout, rejects with helm's stderr. */
  run(args: string[]): Promise<string>;
  close(): Promise<void>;
}

export async function helmFor(kubeconfigYaml: string): Promise<Helm> {
  const helm = locateHelm();
  if (!helm.ok) throw new Error(helm.message);
  const directory = await mkdtemp(join(tmpdir(), 'scoby-helm-'));
  const kubeconfig = join(directory, 'kubeconfig');
  await writeFile(kubeconfig, kubeconfigYaml, { mode: 0o600 });
  return {
    async run(args) {
      try {
        const { stdout } = await promisify(execFile)(helm.path, [...args, '--kubeconfig', kubeconfig], {
          env: {
            ...process.env,
            HELM_CACHE_HOME: join(directory, 'cache'),
            HELM_CONFIG_HOME: join(directory, 'config'),
          },
          maxBuffer: 16 * 1024 * 1024,
        });
        return stdout;
      } catch (error) {
        const failed = error as { stderr?: string; message: string };
        throw new Error(`helm ${args.slice(0, 2).join(' ')}: ${failed.stderr?.trim() || failed.message}`);
      }
    },
    close: () => rm(directory, { recursive: true, force: true }),
  };
}

/** `helm upgrade --install --wait` of the chart with `values`; returns the values file it used. */
export async function installChart(helm: Helm, values: Record<string, unknown>): Promise<void> {
  const directory = await mkdtemp(join(tmpdir(), 'scoby-values-'));
  try {
    const file = join(directory, 'values.yaml');
    await writeFile(file, stringify(values));
    await helm.run([
      'upgrade',
      '--install',
      RELEASE,
      CHART,
      '--namespace',
      SCOBY_NAMESPACE,
      '--create-namespace',
      '--values',
      file,
      '--wait',
      '--timeout',
      '5m',
    ]);
  } finally {
    await rm(directory, { recursive: true, force: true });
  }
}

/**
 * `helm upgrade --wait` of the installed release with `values` (`--set`) over the values it has, as
 * docs/operations/upgrade.md says, with Helm 4's default server-side apply: the chart's aggregated
 * ClusterRoles carry no `rules`, so clusterrole-aggregation-controller's are kept.
 */
export async function upgradeChart(helm: Helm, values: Readonly<Record<string, string>>): Promise<void> {
  await helm.run([
    'upgrade',
    RELEASE,
    CHART,
    '--namespace',
    SCOBY_NAMESPACE,
    '--reset-then-reuse-values',
    ...Object.entries(values).flatMap(([path, value]) => ['--set', `${path}=${value}`]),
    '--wait',
    '--timeout',
    '5m',
  ]);
}
