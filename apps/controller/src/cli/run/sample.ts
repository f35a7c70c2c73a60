/**
 * `scoby run --embedded --sample`: applies the Greeter CRD, its registration and an instance from
 * apps/controller/samples/, then logs what Scoby made of them: the children and the Ready condition.
 */
import type { KubeObject } from '@scoby/kube-objects';
import { INSTANCE_LABEL, labelValue, MANAGED_BY_LABEL, MANAGED_BY_VALUE } from '@scoby/formfactor';
import type { Logger } from 'pino';
import type { DynamicClient } from '@scoby/controller-runtime';
import { packageFile } from '../../package-files.ts';
import { readObjects } from '../documents.ts';
import { applyObjects } from './apply-objects.ts';

export const SAMPLES_DIR = packageFile('samples/');
export const SAMPLE_FILES = [
  'greeter-crd.yaml',
  'greeter-clusterrole.yaml',
  'greeter-registration.yaml',
  'greeter-instance.yaml',
] as const;

const CHILD_KINDS = [
  { apiVersion: 'apps/v1', kind: 'Deployment' },
  { apiVersion: 'v1', kind: 'Service' },
];
const POLL_MS = 200;
const PATIENCE_MS = 60_000;

export async function readSample(): Promise<KubeObject[]> {
  const objects: KubeObject[] = [];
  for (const file of SAMPLE_FILES) {
    const reading = await readObjects(file, SAMPLES_DIR);
    if (!reading.ok) throw new Error(reading.message);
    objects.push(...reading.objects);
  }
  return objects;
}

interface ConditionLike {
  type?: string;
  status?: string;
  reason?: string;
  message?: string;
}

function readyOf(object: KubeObject | undefined): ConditionLike | undefined {
  const conditions = (object?.status as { conditions?: ConditionLike[] } | undefined)?.conditions ?? [];
  return conditions.find((condition) => condition.type === 'Ready');
}

async function childrenOf(client: DynamicClient, instance: KubeObject): Promise<string[]> {
  const namespace = instance.metadata.namespace ?? '';
  const labelSelector = `${MANAGED_BY_LABEL}=${MANAGED_BY_VALUE},${INSTANCE_LABEL}=${labelValue(instance.metadata.name ?? '')}`;
  const names: string[] = [];
  for (const { apiVersion, kind } of CHILD_KINDS) {
    const resource = await client.resourceFor(apiVersion, kind);
    if (!resource) continue;
    const list = await client.list(resource, namespace, { labelSelector });
    for (const child of list.items) names.push(`${kind} ${namespace}/${child.metadata.name ?? ''}`);
  }
  return names;
}

/** Applies the sample and logs once the instance is Ready (or after a minute, whatever it is then). */
export async function runSample(client: DynamicClient, logger: Logger, signal: AbortSignal): Promise<void> {
  const objects = await readSample();
  const applied = await applyObjects(client, objects);
  logger.info(
    { sample: applied.map((object) => `${object.kind} ${object.metadata.name ?? ''}`) },
    'sample applied',
  );
  const instance = applied[applied.length - 1];
  if (!instance) return;
  const resource = await client.resourceFor(instance.apiVersion, instance.kind);
  if (!resource) return;
  const deadline = Date.now() + PATIENCE_MS;
  let current: KubeObject | undefined = instance;
  while (!signal.aborted && readyOf(current)?.status !== 'True' && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
    current = await client.get(resource, instance.metadata.namespace, instance.metadata.name ?? '');
  }
  if (signal.aborted || !current) return;
  logger.info(
    {
      instance: `${current.kind} ${current.metadata.namespace ?? ''}/${current.metadata.name ?? ''}`,
      children: await childrenOf(client, current),
      ready: readyOf(current) ?? null,
      address: (current.status as { address?: unknown } | undefined)?.address ?? null,
    },
    'sample reconciled',
  );
}
