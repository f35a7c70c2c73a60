import type { KubeObject } from '@scoby/kube-objects';
import type { Cluster } from '../cluster.ts';
import { etcdKey, keyOf, type ResourceType } from '../resource-type.ts';
import { badRequest, conflict, invalidResource, notFound, type Outcome } from '../status.ts';
import { commitUpdate, keepServerMetadata } from './commit.ts';
import type { Decoding } from '../validation/field-validation.ts';
import { checkBody, checkCustomKind, createObject } from './create.ts';

export type Subresource = 'status' | undefined;

export interface UpdateTarget {
  type: ResourceType;
  version: string;
  namespace: string | undefined;
  name: string;
  subresource: Subresource;
}

/**
 * The apps status strategies keep only the spec and the labels of the current object: the rest of the
 * metadata a /status write sends (annotations, finalizers, owner references) is taken.
 */
function withStatusWriteMetadata(
  current: KubeObject,
  request: KubeObject,
  rest: Omit<KubeObject, 'status'>,
): KubeObject {
  const { labels: _labels, ...metadata } = keepServerMetadata(request, current).metadata;
  return {
    ...rest,
    metadata:
      current.metadata.labels === undefined ? metadata : { ...metadata, labels: current.metadata.labels },
  } as KubeObject;
}

/**
 * The object an update of `subresource` makes from the request: /status changes only .status, the main
 * resource never changes .status when status is a subresource.
 */
export function composeUpdate(
  type: ResourceType,
  subresource: Subresource,
  current: KubeObject,
  request: KubeObject,
): KubeObject {
  if (subresource === 'status') {
    const { status: _status, ...rest } = current;
    const base = type.group === 'apps' ? withStatusWriteMetadata(current, request, rest) : rest;
    return request.status === undefined ? base : { ...base, status: request.status };
  }
  const merged = keepServerMetadata(request, current);
  if (!type.statusSubresource) return merged;
  const { status: _status, ...rest } = merged;
  return current.status === undefined ? rest : { ...rest, status: current.status };
}

/** A stale resourceVersion in the request is a 409 Conflict; none at all is an unconditional update. */
export function checkResourceVersion(
  type: ResourceType,
  current: KubeObject,
  request: KubeObject,
): Outcome<void> {
  const requested = request.metadata.resourceVersion;
  if (requested !== undefined && requested !== '' && requested !== current.metadata.resourceVersion)
    return conflict(type, current.metadata.name ?? '');
  return { ok: true, value: undefined };
}

/**
 * A uid in the body of a PUT is a precondition: the update is for that object and no other, so a
 * client holding an object that was deleted and re-created never overwrites its successor. etcd's
 * storage layer checks it, so the message is its StorageError.
 */
function checkUidPrecondition(
  type: ResourceType,
  target: { namespace: string | undefined; name: string },
  current: KubeObject | undefined,
  request: KubeObject,
): Outcome<void> {
  const requested = request.metadata.uid;
  if (requested === undefined || requested === '' || requested === current?.metadata.uid)
    return { ok: true, value: undefined };
  const key = etcdKey(type, target.namespace, target.name);
  return conflict(
    type,
    target.name,
    `StorageError: invalid object, Code: 4, Key: ${key}, ResourceVersion: 0, AdditionalErrorMsg: Precondition failed: UID in precondition: ${requested}, UID in object meta: ${current?.metadata.uid ?? ''}`,
  );
}

/** Types that take no unconditional update answer a PUT without resourceVersion with 422. */
function checkResourceVersionGiven(type: ResourceType, name: string, request: KubeObject): Outcome<void> {
  const given = request.metadata.resourceVersion;
  if (type.allowUnconditionalUpdate || (given !== undefined && given !== ''))
    return { ok: true, value: undefined };
  return invalidResource(type, name, [
    {
      type: 'FieldValueInvalid',
      field: 'metadata.resourceVersion',
      message: 'Invalid value: 0: must be specified for an update',
    },
  ]);
}

/** PUT on an object or its status. */
export function updateObject(
  cluster: Cluster,
  target: UpdateTarget,
  body: unknown,
  dryRun: boolean,
  decoding?: Decoding,
): Outcome<KubeObject> {
  const { type, version, namespace, name, subresource } = target;
  const checked = checkBody(type, version, namespace, body, decoding, true);
  if (!checked.ok) return checked;
  const request = checked.value;
  if (request.metadata.name !== undefined && request.metadata.name !== name) {
    return badRequest(
      `the name of the object (${request.metadata.name}) does not match the name on the URL (${name})`,
    );
  }
  const current = cluster.store.get(keyOf(type), namespace, name);
  // kube-apiserver's Service /status creates a missing Service too, without a cluster IP: a listed
  // difference (this server answers 404, see the README).
  if (current === undefined && type.allowCreateOnUpdate === true && subresource === undefined) {
    // The storage's uid precondition meets no object.
    const none = checkUidPrecondition(type, { namespace, name }, undefined, request);
    if (!none.ok) return none;
    // The storage creates the object from the update: the body's resourceVersion plays no part.
    // A dry run answers with the object as the update made it, the body's resourceVersion included.
    const { resourceVersion, ...metadata } = request.metadata;
    const created = createObject(
      cluster,
      type,
      version,
      namespace,
      { ...request, metadata },
      { dryRun, fromUpdate: true },
    );
    if (!created.ok || !dryRun || resourceVersion === undefined) return created;
    return {
      ok: true,
      value: { ...created.value, metadata: { ...created.value.metadata, resourceVersion } },
    };
  }
  if (current === undefined) return notFound(type, name);
  // Storage checks the uid precondition before it compares resourceVersions.
  const same = checkUidPrecondition(type, { namespace, name }, current, request);
  if (!same.ok) return same;
  const conditional = checkResourceVersionGiven(type, name, request);
  if (!conditional.ok) return conditional;
  const fresh = checkResourceVersion(type, current, request);
  if (!fresh.ok) return fresh;
  const kind = checkCustomKind(type, body);
  if (!kind.ok) return kind;
  return commitUpdate(
    cluster,
    type,
    version,
    current,
    composeUpdate(type, subresource, current, request),
    dryRun,
    subresource,
  );
}
