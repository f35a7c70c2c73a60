/**
 * The controller container of the shipped chart, rendered by the pinned helm (`helm template`): its
 * arguments and environment, so a test starts `scoby` as the chart would start it in a pod.
 */
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { locateHelm } from '@scoby/kube-control-plane';
import { parseAllDocuments } from 'yaml';

export const CHART = fileURLToPath(new URL('../../../../../deploy/helm/scoby', import.meta.url));

interface EnvVar {
  name: string;
  value?: string;
  valueFrom?: { fieldRef?: { fieldPath?: string } };
}

export interface ChartContainer {
  /** The container's args (`run`, `--leader-elect`, ...). */
  args: string[];
  /** The container's env as rendered (containerEnvironment resolves its downward-API entries). */
  env: EnvVar[];
}

/** `helm template` of the chart in `namespace` with `--set` values: the controller container. */
export function renderChartContainer(namespace: string, values: readonly string[] = []): ChartContainer {
  const helm = locateHelm();
  if (!helm.ok) throw new Error(helm.message);
  const rendered = spawnSync(
    helm.path,
    ['template', 'scoby', CHART, '--namespace', namespace, ...values.flatMap((value) => ['--set', value])],
    { encoding: 'utf8', env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '' } },
  );
  if (rendered.status !== 0) throw new Error(`helm template exited ${rendered.status}: ${rendered.stderr}`);
  const deployment = parseAllDocuments(rendered.stdout)
    .map(
      (document) => document.toJS() as { kind?: string; metadata?: { name?: string }; spec?: unknown } | null,
    )
    .find((object) => object?.kind === 'Deployment' && object.metadata?.name === 'scoby-controller');
  const containers = (
    deployment?.spec as { template?: { spec?: { containers?: (ChartContainer & { name: string })[] } } }
  )?.template?.spec?.containers;
  const controller = containers?.find((container) => container.name === 'controller');
  if (!controller)
    throw new Error('the rendered chart has no Deployment scoby-controller with a container controller');
  return { args: controller.args ?? [], env: controller.env ?? [] };
}

/**
 * The environment the kubelet would give the container of pod `podName` in `namespace`: values as
 * written, the downward API's metadata.name and metadata.namespace resolved. Any other source fails,
 * so that a chart change the harness cannot honour is seen rather than dropped.
 */
export function containerEnvironment(
  env: readonly EnvVar[],
  pod: { name: string; namespace: string },
): Record<string, string> {
  const resolved: Record<string, string> = {};
  for (const variable of env) {
    const field = variable.valueFrom?.fieldRef?.fieldPath;
    if (variable.valueFrom === undefined) resolved[variable.name] = variable.value ?? '';
    else if (field === 'metadata.namespace') resolved[variable.name] = pod.namespace;
    else if (field === 'metadata.name') resolved[variable.name] = pod.name;
    else
      throw new Error(
        `env ${variable.name}: valueFrom ${JSON.stringify(variable.valueFrom)} is not supported here`,
      );
  }
  return resolved;
}
