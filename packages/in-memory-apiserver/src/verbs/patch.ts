import type { KubeObject } from '@scoby/kube-objects';
import { parse as parseYaml } from 'yaml';
import { atVersion, type Cluster } from '../cluster.ts';
import { isJsonMap } from '../json.ts';
import {
  applyJsonPatch,
  applyMergePatch,
  applyServerSideApply,
  applyStrategicMergePatch,
  listStrategy,
} from '../patch/index.ts';
import { changedFields } from '../patch/changed-fields.ts';
import { duplicateKeyErrors } from '../patch/duplicate-keys.ts';
import {
  applyConflicts,
  conflictMessage,
  withoutConflicts,
  type ApplyConflict,
} from '../patch/apply-conflicts.ts';
import { groupVersion, keyOf } from '../resource-type.ts';
import {
  badRequest,
  conflict,
  fail,
  invalid,
  notFound,
  ok,
  statusReply,
  storageError,
  unsupportedMediaType,
  type Outcome,
} from '../status.ts';
import { commitUpdate } from './commit.ts';
import { checkBody, createObject } from './create.ts';
import { builtinSchema } from '../openapi/builtin-schemas.ts';
import { customResourceListStrategy, schemaListStrategy } from '../patch/schema-list-strategy.ts';
import type { StrategyAt } from '../patch/server-side-apply.ts';
import { invalidValue, sortedJson } from '../validation/field-errors.ts';
import { unknownAppliedFields, type Decoding } from '../validation/field-validation.ts';
import { checkResourceVersion, composeUpdate, type UpdateTarget } from './update.ts';

export const PATCH_TYPES = {
  json: 'application/json-patch+json',
  merge: 'application/merge-patch+json',
  strategic: 'application/strategic-merge-patch+json',
  apply: 'application/apply-patch+yaml',
} as const;

export interface PatchRequest {
  contentType: string;
  /** The raw request body. */
  text: string;
  fieldManager: string | undefined;
  /** An apply's `force`: it takes the fields it conflicts on from their managers. */
  force?: boolean;
  dryRun: boolean;
  decoding?: Decoding;
}

function parseJson(text: string): Outcome<unknown> {
  try {
    return ok(JSON.parse(text));
  } catch (error) {
    return badRequest(`error decoding patch: ${(error as Error).message}`);
  }
}

function parseApplied(text: string): Outcome<unknown> {
  try {
    // Clients mostly send JSON, which is YAML too; JSON.parse reads it many times faster.
    return ok(JSON.parse(text));
  } catch {
    // Not JSON: parsed as YAML below.
  }
  try {
    return ok(parseYaml(text));
  } catch (error) {
    return badRequest(`error decoding YAML: ${(error as Error).message}`);
  }
}

function patched(result: { ok: true; value: unknown } | { ok: false; message: string }): Outcome<unknown> {
  return result.ok ? ok(result.value) : fail(422, 'Invalid', result.message);
}

function jsonPatchFailed(): Outcome<never> {
  const reply = statusReply(
    422,
    'Invalid',
    'the server rejected our request due to an error in our request',
    {},
  );
  return { ok: false, failure: reply };
}

/** The patched object for the three classic patch types. */
function applyPatchDocument(contentType: string, current: KubeObject, text: string): Outcome<unknown> {
  const document = parseJson(text);
  if (!document.ok) return document;
  if (contentType === PATCH_TYPES.json) {
    const result = applyJsonPatch(current, document.value);
    // kube-apiserver answers a JSON patch that does not apply with a generic 422 that drops the reason.
    if (!result.ok && Array.isArray(document.value)) return jsonPatchFailed();
    return patched(result);
  }
  if (contentType === PATCH_TYPES.merge) {
    if (!isJsonMap(document.value)) return badRequest('the merge patch must be a JSON object');
    return ok(applyMergePatch(current, document.value));
  }
  return patched(applyStrategicMergePatch(current, document.value));
}

function storeApplied(cluster: Cluster, object: KubeObject, manager: string, applied: unknown): void {
  const uid = object.metadata.uid;
  if (uid === undefined) return;
  const managers = cluster.applied.get(uid) ?? new Map<string, unknown>();
  managers.set(manager, applied);
  cluster.applied.set(uid, managers);
}

/** kube-apiserver validates the PatchOptions of an apply before it reads the body. */
function fieldManagerRequired(): Outcome<never> {
  return fail(
    422,
    'Invalid',
    'PatchOptions.meta.k8s.io "" is invalid: fieldManager: Required value: is required for apply patch',
    {
      group: 'meta.k8s.io',
      kind: 'PatchOptions',
      causes: [
        {
          reason: 'FieldValueRequired',
          message: 'Required value: is required for apply patch',
          field: 'fieldManager',
        },
      ],
    },
  );
}

/** An applied configuration names exactly the type and version of the URL (apiVersion and kind required). */
function checkAppliedType(target: UpdateTarget, applied: Record<string, unknown>): Outcome<void> {
  const apiVersion = typeof applied.apiVersion === 'string' ? applied.apiVersion : '';
  const kind = typeof applied.kind === 'string' ? applied.kind : '';
  if (apiVersion === groupVersion(target.type.group, target.version) && kind === target.type.kind)
    return ok(undefined);
  const slash = apiVersion.indexOf('/');
  const [group, version] =
    slash < 0 ? ['', apiVersion] : [apiVersion.slice(0, slash), apiVersion.slice(slash + 1)];
  return badRequest(`invalid object type: ${group}/${version}, Kind=${kind}`);
}

/**
 * Server-side apply converts the configuration to its type first: an unknown field fails it, with a
 * Status without reason that names the object as the configuration does (`namespace/name`).
 */
function notDeclared(
  target: UpdateTarget,
  metadata: Record<string, unknown>,
  unknown: readonly string[],
): Outcome<never> {
  return typedPatchFailure(
    target,
    metadata,
    unknown.map((path) => `.${path}: field not declared in schema`),
  );
}

/** The 500 of a configuration that cannot become a typed patch (unknown fields, duplicate keys). */
function typedPatchFailure(
  target: UpdateTarget,
  metadata: Record<string, unknown>,
  errors: readonly string[],
): Outcome<never> {
  const { type, version } = target;
  const object = `${String(metadata.namespace ?? '')}/${String(metadata.name ?? '')}`;
  const fields = errors.join('\n');
  const reply = statusReply(
    500,
    '',
    `failed to create typed patch object (${object}; ${type.group}/${version}, Kind=${type.kind}): ${fields}`,
  );
  const { reason: _none, ...body } = reply.body as Record<string, unknown>;
  return { ok: false, failure: { code: 500, body } };
}

/** Built-in kinds and custom resources merge lists as their schema says. */
function listStrategiesOf(target: UpdateTarget): StrategyAt | undefined {
  if (!target.type.builtin) {
    const schema = target.type.schemas.get(target.version);
    return schema === undefined ? undefined : customResourceListStrategy(schema);
  }
  const { group, kind } = target.type;
  const schema = builtinSchema({ group, version: target.version, kind });
  return schema === undefined ? undefined : schemaListStrategy(schema);
}

/** Server-side apply: create when absent, otherwise merge and drop what this manager no longer applies. */
function serverSideApply(
  cluster: Cluster,
  target: UpdateTarget,
  request: PatchRequest,
  current: KubeObject | undefined,
): Outcome<KubeObject> {
  if (request.fieldManager === undefined || request.fieldManager === '') return fieldManagerRequired();
  const applied = parseApplied(request.text);
  if (!applied.ok) return applied;
  if (!isJsonMap(applied.value)) return badRequest('the applied configuration must be an object');
  const typed = checkAppliedType(target, applied.value);
  if (!typed.ok) return typed;
  const metadata = isJsonMap(applied.value.metadata) ? applied.value.metadata : {};
  // The field manager owns managedFields: an applied configuration may not carry any (even []).
  if (Array.isArray(metadata.managedFields) && metadata.managedFields.every(isJsonMap))
    return badRequest('metadata.managedFields must be nil');
  const unknown = unknownAppliedFields(target.type, target.version, applied.value);
  if (unknown.length > 0) return notDeclared(target, metadata, unknown);
  const duplicates = duplicateKeyErrors(applied.value, listStrategiesOf(target) ?? listStrategy);
  if (duplicates.length > 0) return typedPatchFailure(target, metadata, duplicates);
  if (metadata.name !== undefined && metadata.name !== target.name) {
    return badRequest(
      `the name of the object (${String(metadata.name)}) does not match the name on the URL (${target.name})`,
    );
  }
  const manager = request.fieldManager;
  if (current === undefined) {
    if (target.subresource === 'status') return notFound(target.type, target.name);
    // A uid names an existing object: there is none to apply to.
    if (typeof metadata.uid === 'string' && metadata.uid !== '') {
      return conflict(
        target.type,
        target.name,
        `uid mismatch: the provided object specified uid ${metadata.uid}, and no existing object was found`,
      );
    }
    const created = createObject(
      cluster,
      target.type,
      target.version,
      target.namespace,
      { ...applied.value, metadata: { ...metadata, name: target.name } },
      { dryRun: request.dryRun },
    );
    if (created.ok && !request.dryRun) storeApplied(cluster, created.value, manager, applied.value);
    return created.ok ? created : applyConversionFailure(target, metadata, created);
  }
  const strategies = listStrategiesOf(target);
  const managers = cluster.applied.get(current.metadata.uid ?? '') ?? new Map<string, unknown>();
  const updaters = cluster.updated.get(current.metadata.uid ?? '') ?? new Map<string, unknown>();
  const others = new Map([
    ...[...managers]
      .filter(([name]) => name !== manager)
      .map(([name, owned]): [string, unknown] => [JSON.stringify(name), owned]),
    ...updaters,
  ]);
  if (!request.force) {
    const conflicts = applyConflicts(applied.value, others, strategies ?? listStrategy);
    if (conflicts.length > 0) return applyConflict(conflicts);
  }
  const creation = cluster.created.get(current.metadata.uid ?? '');
  const merged = applyServerSideApply(
    atVersion(target.type, target.version, current),
    applied.value,
    managers.get(manager),
    strategies,
    [...others.values(), ...(creation === undefined ? [] : [creation.config])],
  );
  const patchedResult = finishPatch(cluster, target, current, merged, request);
  const result: Outcome<KubeObject> = patchedResult.ok
    ? patchedResult
    : applyConversionFailure<KubeObject>(target, metadata, patchedResult);
  if (result.ok && !request.dryRun) {
    if (request.force) takeFields(managers, updaters, applied.value, strategies ?? listStrategy);
    storeApplied(cluster, result.value, manager, applied.value);
  }
  return result;
}

/** The fields `taken` sets differently are no longer the other managers' (their configurations lose them). */
function takeFields(
  appliers: Map<string, unknown>,
  updaters: Map<string, unknown>,
  taken: unknown,
  at: StrategyAt,
): void {
  for (const owners of [appliers, updaters])
    for (const [name, owned] of withoutConflicts(taken, owners, at)) owners.set(name, owned);
}

/**
 * A patch with a fieldManager owns the fields it changed, as kube-apiserver's Update entries do: taken
 * from applies and other updaters, so a later apply of another value conflicts with it.
 */
function recordUpdate(
  cluster: Cluster,
  target: UpdateTarget,
  before: KubeObject,
  after: KubeObject,
  manager: string,
): void {
  const uid = after.metadata.uid ?? '';
  const at = listStrategiesOf(target) ?? listStrategy;
  const changed = changedFields(
    atVersion(target.type, target.version, before),
    atVersion(target.type, target.version, after),
    at,
  );
  if (!isJsonMap(changed) || Object.keys(changed).length === 0) return;
  const appliers = cluster.applied.get(uid) ?? new Map<string, unknown>();
  const updaters = cluster.updated.get(uid) ?? new Map<string, unknown>();
  const printed = `${JSON.stringify(manager)} using ${groupVersion(target.type.group, target.version)}`;
  const own = updaters.get(printed);
  updaters.delete(printed);
  takeFields(appliers, updaters, changed, at);
  updaters.set(printed, own === undefined ? changed : applyServerSideApply(own, changed, undefined, at));
  cluster.updated.set(uid, updaters);
}

/** 409 naming each field another manager applied with a different value. */
function applyConflict(conflicts: readonly ApplyConflict[]): Outcome<never> {
  return fail(409, 'Conflict', conflictMessage(conflicts), {
    causes: conflicts.map(({ manager, field }) => ({
      reason: 'FieldManagerConflict',
      message: `conflict with ${manager}`,
      field,
    })),
  });
}

/**
 * An applied object the typed decoder refuses: kube-apiserver's field manager fails to convert it, a
 * 500 without reason naming the object as the configuration does (`namespace/name`).
 */
/** The errors of types with an unmarshaler of their own (MicroTime, Quantity). */
const OWN_UNMARSHALERS = ['parsing time ', 'quantities must match', "unable to parse quantity's"];

function applyConversionFailure<T>(
  target: UpdateTarget,
  metadata: Record<string, unknown>,
  failure: Outcome<T>,
): Outcome<T> {
  if (failure.ok) return failure;
  const message = ((failure.failure.body as { message?: string }).message ?? '').split(
    `cannot be handled as a ${target.type.kind}: `,
  );
  if (message.length < 2 || message.join('').includes('strict decoding error') || !target.type.builtin)
    return failure;
  const { kind, group } = target.type;
  const gvk = `${group}/${target.version}, Kind=${kind}`;
  const object = `${String(metadata.namespace ?? '')}/${target.name}`;
  const cause = message.slice(1).join('');
  // A field with an unmarshaler of its own (a MicroTime, a Quantity) reports its error bare.
  const decoded = OWN_UNMARSHALERS.some((prefix) => cause.startsWith(prefix))
    ? cause
    : `error decoding from json: ${cause}`;
  return storageError(
    `failed to convert new object (${object}; ${gvk}) to proper version: unable to convert unstructured object to ${gvk}: ${decoded}`,
  );
}

/**
 * A classic patch whose result the typed decoder refuses: kube-apiserver answers 422 for the field
 * `patch`, quoting the patched object and the decoder's error (an apply fails otherwise).
 */
function undecodablePatchResult(
  target: UpdateTarget,
  request: PatchRequest,
  patchedObject: unknown,
  failure: Outcome<never>,
): Outcome<never> {
  const message = ((failure as { failure: { body: { message?: string } } }).failure.body.message ?? '').split(
    `cannot be handled as a ${target.type.kind}: `,
  );
  const strict = message.join('').includes('strict decoding error');
  if (request.contentType === PATCH_TYPES.apply || message.length < 2 || strict || !target.type.builtin)
    return failure;
  const cause = invalidValue('patch', sortedJson(patchedObject), message.slice(1).join(''));
  const reply = statusReply(422, 'Invalid', ` "" is invalid: patch: ${cause.message}`, {
    causes: [{ reason: cause.type, message: cause.message, field: cause.field }],
  });
  return { ok: false, failure: reply };
}

function finishPatch(
  cluster: Cluster,
  target: UpdateTarget,
  current: KubeObject,
  patchedObject: unknown,
  request: PatchRequest,
): Outcome<KubeObject> {
  const { dryRun } = request;
  const checked = checkBody(target.type, target.version, target.namespace, patchedObject, request.decoding);
  if (!checked.ok) return undecodablePatchResult(target, request, patchedObject, checked);
  if (checked.value.metadata.name !== target.name) {
    return badRequest(
      `the name of the object (${String(checked.value.metadata.name)}) does not match the name on the URL (${target.name})`,
    );
  }
  const fresh = checkResourceVersion(target.type, current, checked.value);
  if (!fresh.ok) return fresh;
  const uid = checked.value.metadata.uid;
  if (uid !== undefined && uid !== '' && uid !== current.metadata.uid) {
    // A patch (apply included) that would change the uid fails validation: uid is immutable.
    return invalid(target.type, target.name, [
      {
        type: 'FieldValueInvalid',
        field: 'metadata.uid',
        message: `Invalid value: "${uid}": field is immutable`,
      },
    ]);
  }
  return commitUpdate(
    cluster,
    target.type,
    target.version,
    current,
    composeUpdate(target.type, target.subresource, current, checked.value),
    dryRun,
    target.subresource,
  );
}

/** PATCH by content type: JSON patch, merge patch, strategic merge (built-in types only) and apply. */
export function patchObject(
  cluster: Cluster,
  target: UpdateTarget,
  request: PatchRequest,
): Outcome<KubeObject> {
  const { type } = target;
  const known = Object.values(PATCH_TYPES) as string[];
  if (
    !known.includes(request.contentType) ||
    (request.contentType === PATCH_TYPES.strategic && !type.builtin)
  )
    return unsupportedMediaType(type);
  const current = cluster.store.get(keyOf(type), target.namespace, target.name);
  if (request.contentType === PATCH_TYPES.apply) return serverSideApply(cluster, target, request, current);
  if (current === undefined) return notFound(type, target.name);
  const result = applyPatchDocument(
    request.contentType,
    atVersion(type, target.version, current),
    request.text,
  );
  if (!result.ok) return result;
  const written = finishPatch(cluster, target, current, result.value, request);
  if (written.ok && !request.dryRun && request.fieldManager)
    recordUpdate(cluster, target, current, written.value, request.fieldManager);
  return written;
}
