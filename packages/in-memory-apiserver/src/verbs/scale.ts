/**
 * The scale subresource (autoscaling/v1 Scale) of Deployments, StatefulSets and CRDs that declare
 * subresources.scale: a view of the replicas and selector; a write changes only the replicas of the
 * object, as an update of it (so resourceVersion conflicts, generation and watches behave as for one).
 */
import type { KubeObject } from '@scoby/kube-objects';
import { formatInvalidMessage, type Cause } from '@scoby/structural-schema';
import type { Cluster } from '../cluster.ts';
import { applyJsonPatch, applyMergePatch } from '../patch/index.ts';
import type { ScaleSubresource } from '../crd-spec.ts';
import { keyOf, type ResourceType } from '../resource-type.ts';
import { formatLabelSelector, type LabelSelector } from '../selectors/index.ts';
import { badRequest, conflict, fail, notFound, ok, type Outcome } from '../status.ts';
import { updateObject } from './update.ts';

export interface ScaleTarget {
  type: ResourceType & { scale: ScaleSubresource };
  version: string;
  namespace: string | undefined;
  name: string;
}

interface Scale {
  apiVersion: 'autoscaling/v1';
  kind: 'Scale';
  metadata: KubeObject['metadata'];
  spec: { replicas?: number };
  status: { replicas: number; selector?: string };
}

/** `.spec.replicas` → ['spec', 'replicas'] */
function steps(path: string): string[] {
  return path.replace(/^\./, '').split('.');
}

function read(object: unknown, path: string): unknown {
  let node = object;
  for (const step of steps(path)) {
    node = typeof node === 'object' && node !== null ? (node as Record<string, unknown>)[step] : undefined;
  }
  return node;
}

function written(object: KubeObject, path: string, value: unknown): KubeObject {
  const [head, ...rest] = steps(path);
  const set = (node: unknown, keys: string[]): unknown => {
    const record = typeof node === 'object' && node !== null ? (node as Record<string, unknown>) : {};
    const [key, ...more] = keys;
    return { ...record, [key!]: more.length === 0 ? value : set(record[key!], more) };
  };
  return set(object, [head!, ...rest]) as KubeObject;
}

function integer(value: unknown): number {
  return typeof value === 'number' && Number.isInteger(value) ? value : 0;
}

/** The Scale of an object: a selector found as a LabelSelector (built-ins) is written as text. */
export function scaleOf(scale: ScaleSubresource, object: KubeObject): Scale {
  const selector = scale.labelSelectorPath === undefined ? undefined : read(object, scale.labelSelectorPath);
  const selectorText =
    typeof selector === 'string'
      ? selector
      : typeof selector === 'object' && selector !== null
        ? formatLabelSelector(selector as LabelSelector)
        : undefined;
  const { name, namespace, uid, resourceVersion, creationTimestamp } = object.metadata;
  // autoscaling/v1 ScaleSpec.replicas is omitempty: 0 is not written.
  const replicas = integer(read(object, scale.specReplicasPath));
  return {
    apiVersion: 'autoscaling/v1',
    kind: 'Scale',
    metadata: { name, namespace, uid, resourceVersion, creationTimestamp },
    spec: replicas === 0 ? {} : { replicas },
    status: {
      replicas: integer(read(object, scale.statusReplicasPath)),
      ...(selectorText === undefined || selectorText === '' ? {} : { selector: selectorText }),
    },
  };
}

function current(cluster: Cluster, target: ScaleTarget): Outcome<KubeObject> {
  const object = cluster.store.get(keyOf(target.type), target.namespace, target.name);
  return object === undefined ? notFound(target.type, target.name) : ok(object);
}

export function getScale(cluster: Cluster, target: ScaleTarget): Outcome<Scale> {
  const object = current(cluster, target);
  return object.ok ? ok(scaleOf(target.type.scale, object.value)) : object;
}

/** ValidateScale: replicas must not be negative. */
function validated(name: string, body: unknown): Outcome<Scale> {
  const scale = body as Partial<Scale> | undefined;
  if (typeof scale !== 'object' || scale === null)
    return badRequest('the body of the request is not a Scale');
  const replicas = scale.spec?.replicas ?? 0;
  if (!Number.isInteger(replicas))
    return badRequest(`spec.replicas: ${JSON.stringify(replicas)} is not an integer`);
  if (replicas < 0) {
    const cause: Cause = {
      type: 'FieldValueInvalid',
      field: 'spec.replicas',
      message: `Invalid value: ${replicas}: must be greater than or equal to 0`,
    };
    return fail(422, 'Invalid', formatInvalidMessage('Scale.autoscaling', name, [cause]), {
      name,
      group: 'autoscaling',
      kind: 'Scale',
      causes: [{ reason: cause.type, message: cause.message, field: cause.field }],
    });
  }
  return ok(scale as Scale);
}

/** PUT …/scale: the replicas of the Scale go into the object, its resourceVersion is a precondition. */
export function updateScale(
  cluster: Cluster,
  target: ScaleTarget,
  body: unknown,
  dryRun: boolean,
): Outcome<Scale> {
  // kube-apiserver reads the object before it validates the Scale: a missing one is a 404 first.
  const object = current(cluster, target);
  if (!object.ok && typeof body === 'object' && body !== null) return object;
  const checked = validated(target.name, body);
  if (!checked.ok) return checked;
  if (!object.ok) return object;
  const requested = checked.value.metadata?.resourceVersion;
  if (requested !== undefined && requested !== '' && requested !== object.value.metadata.resourceVersion) {
    return conflict(target.type, target.name);
  }
  const next = written(object.value, target.type.scale.specReplicasPath, checked.value.spec?.replicas ?? 0);
  const updated = updateObject(
    cluster,
    {
      type: target.type,
      version: target.version,
      namespace: target.namespace,
      name: target.name,
      subresource: undefined,
    },
    { ...next, metadata: { ...next.metadata, resourceVersion: object.value.metadata.resourceVersion } },
    dryRun,
  );
  return updated.ok ? ok(scaleOf(target.type.scale, updated.value)) : updated;
}

/** PATCH …/scale: merge or JSON patches of the Scale (a strategic merge of a Scale is a merge: it has no lists). */
export function patchScale(
  cluster: Cluster,
  target: ScaleTarget,
  patch: { contentType: string; text: string },
  dryRun: boolean,
): Outcome<Scale> {
  const scale = getScale(cluster, target);
  if (!scale.ok) return scale;
  let document: unknown;
  try {
    document = JSON.parse(patch.text);
  } catch (error) {
    return badRequest(`error decoding patch: ${(error as Error).message}`);
  }
  if (patch.contentType === 'application/json-patch+json') {
    const result = applyJsonPatch(scale.value, document);
    return result.ok
      ? updateScale(cluster, target, result.value, dryRun)
      : Array.isArray(document)
        ? fail(422, 'Invalid', 'the server rejected our request due to an error in our request', {})
        : fail(422, 'Invalid', result.message);
  }
  if (
    patch.contentType === 'application/merge-patch+json' ||
    patch.contentType === 'application/strategic-merge-patch+json'
  ) {
    return updateScale(cluster, target, applyMergePatch(scale.value, document), dryRun);
  }
  return fail(
    415,
    'UnsupportedMediaType',
    `the body of the request was in an unknown format - accepted media types include: application/json-patch+json, application/merge-patch+json, application/strategic-merge-patch+json`,
  );
}
