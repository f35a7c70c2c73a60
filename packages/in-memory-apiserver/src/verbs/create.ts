import type { KubeObject, ObjectMeta } from '@scoby/kube-objects';
import { storageApiVersion, timestamp, type Cluster } from '../cluster.ts';
import { isJsonMap } from '../json.ts';
import { generateName } from '../names.ts';
import { groupVersion, keyOf, type ResourceType } from '../resource-type.ts';
import {
  alreadyExists,
  badRequest,
  invalid,
  invalidKind,
  ok,
  storageError,
  type Outcome,
} from '../status.ts';
import { strategyFor } from '../strategies/index.ts';
import { customUnknownFields } from '../validation/custom-unknown-fields.ts';
import { decodeBuiltin, reportUnknown, type Decoding } from '../validation/field-validation.ts';
import { decodeMicroTimes } from '../validation/micro-time.ts';
import { decodePodQuantities } from '../validation/pod-quantities.ts';
import { admit } from './admit.ts';
import { creationEntries, recordCreation } from './managed-fields.ts';
import { checkNamespaceAcceptsCreate } from './namespace-check.ts';

/**
 * kube-apiserver decodes a custom resource only with its kind, quoting the body whole and cut to 30
 * characters. It quotes the bytes received; this server the body as JSON, the same for compact JSON.
 */
function kindMissing(type: ResourceType, body: unknown): Outcome<never> {
  const text = JSON.stringify(body);
  const cut = text.length > 30 ? `${text.slice(0, 30)} ...` : text;
  return badRequest(
    `the object provided is unrecognized (must be of type ${type.kind}): Object 'Kind' is missing in '${text}' (${cut})`,
  );
}

/**
 * The body of a create or update, checked for the shape and identity the URL promises. Built-in types
 * take a body without apiVersion and kind; custom resources need both.
 */
export function checkBody(
  type: ResourceType,
  version: string,
  namespace: string | undefined,
  body: unknown,
  decoding: Decoding = IGNORE_UNKNOWN,
  deferKind = false,
): Outcome<KubeObject> {
  if (!isJsonMap(body)) return badRequest('the body of the request must be a JSON object');
  if (!type.builtin && (body.kind === undefined || body.kind === '')) return kindMissing(type, body);
  const expected = groupVersion(type.group, version);
  if ((body.apiVersion !== undefined || !type.builtin) && body.apiVersion !== expected) {
    return badRequest(
      `the API version in the data (${String(body.apiVersion ?? '')}) does not match the expected API version (${expected})`,
    );
  }
  if (type.builtin && body.kind !== undefined && body.kind !== type.kind) {
    return badRequest(
      `the kind in the data (${String(body.kind)}) does not match the expected kind (${type.kind})`,
    );
  }
  const metadata = (isJsonMap(body.metadata) ? body.metadata : {}) as ObjectMeta;
  if (
    type.namespaced &&
    metadata.namespace !== undefined &&
    metadata.namespace !== '' &&
    metadata.namespace !== namespace
  ) {
    return badRequest(
      'the namespace of the provided object does not match the namespace sent on the request',
    );
  }
  if (!deferKind) {
    const kind = checkCustomKind(type, body);
    if (!kind.ok) return kind;
  }
  const { namespace: _ignored, ...withoutNamespace } = metadata;
  const object = {
    ...body,
    apiVersion: expected,
    kind: type.kind,
    metadata: type.namespaced ? { ...withoutNamespace, namespace } : withoutNamespace,
  };
  if (!type.builtin) return decodeCustom(type, version, object, decoding);
  const times = decodeMicroTimes(type, object);
  if (!times.ok) return cannotDecode(type, version, times.message);
  const quantities = decodePodQuantities(type, times.value);
  if (!quantities.ok) return cannotDecode(type, version, quantities.message);
  const typed = decodeBuiltin(type, version, quantities.value as KubeObject, decoding);
  return typed.ok ? ok(typed.value) : cannotDecode(type, version, typed.message);
}

/**
 * A custom resource of another kind fails its validation, which an update reaches only once the
 * object was found (a PUT of a missing one is a 404 first).
 */
export function checkCustomKind(type: ResourceType, body: unknown): Outcome<void> {
  if (type.builtin || !isJsonMap(body) || body.kind === type.kind) return ok(undefined);
  const metadata = (isJsonMap(body.metadata) ? body.metadata : {}) as ObjectMeta;
  return invalidKind(type, String(body.kind), metadata.name ?? '', [
    {
      type: 'FieldValueInvalid',
      field: 'kind',
      message: `Invalid value: "${String(body.kind)}": must be ${type.kind}`,
    },
  ]);
}

/** A custom resource's unknown fields, dropped and reported by fieldValidation as for built-ins. */
function decodeCustom(
  type: ResourceType,
  version: string,
  object: KubeObject,
  decoding: Decoding,
): Outcome<KubeObject> {
  const schema = type.schemas.get(version);
  if (schema === undefined) return ok(object);
  const checked = customUnknownFields(schema, object);
  const reported = reportUnknown(checked.unknown, decoding);
  if (reported !== undefined) return cannotDecode(type, version, reported);
  return ok(checked.object as KubeObject);
}

/** For bodies the server made itself (a merged patch): nothing unknown to report. */
const IGNORE_UNKNOWN: Decoding = { fieldValidation: 'Ignore', warnings: [] };

/** A built-in body the real server's Go decoding rejects. */
function cannotDecode(type: ResourceType, version: string, message: string): Outcome<never> {
  return badRequest(`${type.kind} in version "${version}" cannot be handled as a ${type.kind}: ${message}`);
}

/**
 * etcd3's storage refuses a create whose resourceVersion parses as a version other than 0 (a dry run
 * never reaches it); a resourceVersion it cannot parse is cleared and the create goes on.
 */
function setResourceVersion(resourceVersion: unknown): boolean {
  if (typeof resourceVersion !== 'string' || !/^[0-9]+$/.test(resourceVersion)) return false;
  const version = BigInt(resourceVersion);
  return version !== 0n && version < 2n ** 64n;
}

export interface CreateOptions {
  dryRun: boolean;
  /** A POST's `fieldManager`: its Update entry owns what the request set (see managed-fields.ts). */
  fieldManager?: string | undefined;
  decoding?: Decoding;
  /**
   * A PUT creating the object (types that allow create on update): the storage writes what the update
   * made, a deletionTimestamp and grace period from the body included.
   */
  fromUpdate?: boolean;
}

/** POST: names, uid, timestamps and generation set by the server; status reset when it is a subresource. */
export function createObject(
  cluster: Cluster,
  type: ResourceType,
  version: string,
  namespace: string | undefined,
  body: unknown,
  options: CreateOptions,
): Outcome<KubeObject> {
  const checked = checkBody(type, version, namespace, body, options.decoding);
  if (!checked.ok) return checked;
  const request = checked.value;
  const name =
    request.metadata.name ||
    (request.metadata.generateName ? generateName(request.metadata.generateName) : '');
  if (name === '') {
    return invalid(type, '', [
      {
        type: 'FieldValueRequired',
        field: 'metadata.name',
        message: 'Required value: name or generateName is required',
      },
    ]);
  }
  if (type.namespaced && namespace !== undefined) {
    const accepts = checkNamespaceAcceptsCreate(cluster, type, namespace, name);
    if (!accepts.ok) return accepts;
  }

  const {
    uid: _uid,
    resourceVersion: _resourceVersion,
    creationTimestamp: _creationTimestamp,
    deletionTimestamp: _deletionTimestamp,
    deletionGracePeriodSeconds: _grace,
    generation: _generation,
    managedFields: _managedFields,
    selfLink: _selfLink,
    ...userMetadata
  } = request.metadata;
  const { status: _status, ...withoutStatus } = request;
  const deletion = options.fromUpdate
    ? {
        ...(request.metadata.deletionTimestamp === undefined
          ? {}
          : { deletionTimestamp: request.metadata.deletionTimestamp }),
        ...(request.metadata.deletionGracePeriodSeconds === undefined
          ? {}
          : { deletionGracePeriodSeconds: request.metadata.deletionGracePeriodSeconds }),
      }
    : {};
  const config: KubeObject = {
    ...(type.statusSubresource ? withoutStatus : request),
    metadata: { ...userMetadata, name, ...deletion },
  };
  const manager = options.fieldManager || undefined;
  const created = timestamp(cluster.now());
  const candidate: KubeObject = {
    ...config,
    metadata: {
      ...config.metadata,
      uid: cluster.newUid(),
      creationTimestamp: created,
      ...(type.tracksGeneration ? { generation: 1 } : {}),
      ...(manager
        ? { managedFields: creationEntries(manager, groupVersion(type.group, version), created) }
        : {}),
    },
  };
  const admitted = admit(type, version, candidate);
  if (!admitted.ok) return admitted;
  const strategy = strategyFor(type);
  const prepared = strategy.prepareForCreate
    ? strategy.prepareForCreate(admitted.value, cluster)
    : admitted.value;
  const stored = { ...prepared, apiVersion: storageApiVersion(type) };
  // kube-apiserver validates before its storage looks at the key: a 422 comes before a 409 or this 500.
  if (!options.dryRun && setResourceVersion(request.metadata.resourceVersion))
    return storageError('resourceVersion should not be set on objects to be created');
  const existing = cluster.store.get(keyOf(type), namespace, name);
  if (existing !== undefined)
    return alreadyExists(type, name, existing.metadata.deletionTimestamp !== undefined);
  if (options.dryRun) return ok({ ...stored, metadata: { ...stored.metadata, resourceVersion: undefined } });
  const written = cluster.store.write(keyOf(type), stored);
  if (manager) recordCreation(cluster, written, manager, config);
  return ok(written);
}
