import type { ResourceType } from './resource-type.ts';
import { kindDotGroup } from './resource-type.ts';
import { formatInvalidMessage, type Cause } from '@scoby/structural-schema';

/** A response as the handlers compute it: HTTP code and JSON body (a string is sent as it is). */
export interface Reply {
  readonly code: number;
  readonly body: unknown;
  /** Extra response headers; a Content-Type here replaces the default. */
  readonly headers?: Readonly<Record<string, string>>;
}

export interface StatusCause {
  reason: string;
  message: string;
  field?: string;
}

export interface StatusDetails {
  name?: string;
  group?: string;
  kind?: string;
  uid?: string;
  causes?: StatusCause[];
  retryAfterSeconds?: number;
}

/** A failed operation as a value: the Status object the real server would answer with. */
export interface Failure {
  readonly failure: Reply;
}

export type Outcome<T> = { ok: true; value: T } | ({ ok: false } & Failure);

export function ok<T>(value: T): Outcome<T> {
  return { ok: true, value };
}

export function statusReply(code: number, reason: string, message: string, details?: StatusDetails): Reply {
  return {
    code,
    body: {
      kind: 'Status',
      apiVersion: 'v1',
      metadata: {},
      status: 'Failure',
      message,
      reason,
      ...(details ? { details } : {}),
      code,
    },
  };
}

export function fail<T = never>(
  code: number,
  reason: string,
  message: string,
  details?: StatusDetails,
): Outcome<T> {
  return { ok: false, failure: statusReply(code, reason, message, details) };
}

/** `configmaps` or `deployments.apps`, as the real server qualifies resources in messages. */
export function qualifiedResource(type: ResourceType): string {
  return type.group === '' ? type.plural : `${type.plural}.${type.group}`;
}

function resourceDetails(type: ResourceType, name: string): StatusDetails {
  return { name, ...(type.group === '' ? {} : { group: type.group }), kind: type.plural };
}

export function notFound<T = never>(type: ResourceType, name: string): Outcome<T> {
  return fail(404, 'NotFound', `${qualifiedResource(type)} "${name}" not found`, resourceDetails(type, name));
}

export function namespaceNotFound<T = never>(namespace: string): Outcome<T> {
  return fail(404, 'NotFound', `namespaces "${namespace}" not found`, {
    name: namespace,
    kind: 'namespaces',
  });
}

/** `beingDeleted`: the name is held by an object being deleted, which kube-apiserver says first. */
export function alreadyExists<T = never>(type: ResourceType, name: string, beingDeleted = false): Outcome<T> {
  return fail(
    409,
    'AlreadyExists',
    `${beingDeleted ? 'object is being deleted: ' : ''}${qualifiedResource(type)} "${name}" already exists`,
    resourceDetails(type, name),
  );
}

const MODIFIED =
  'the object has been modified; please apply your changes to the latest version and try again';

export function conflictReply(type: ResourceType, name: string, reason = MODIFIED): Reply {
  return statusReply(
    409,
    'Conflict',
    `Operation cannot be fulfilled on ${qualifiedResource(type)} "${name}": ${reason}`,
    resourceDetails(type, name),
  );
}

export function conflict<T = never>(type: ResourceType, name: string, reason = MODIFIED): Outcome<T> {
  return { ok: false, failure: conflictReply(type, name, reason) };
}

export function badRequest<T = never>(message: string): Outcome<T> {
  return fail(400, 'BadRequest', message);
}

function invalidNamed<T>(
  qualified: string,
  group: string,
  kind: string,
  name: string,
  causes: readonly Cause[],
): Outcome<T> {
  return fail(422, 'Invalid', formatInvalidMessage(qualified, name, [...causes]), {
    name,
    ...(group === '' ? {} : { group }),
    kind,
    causes: causes.map((cause) => ({ reason: cause.type, message: cause.message, field: cause.field })),
  });
}

/** 422 Invalid with one cause per field error, message in the real server's format. */
export function invalid<T = never>(type: ResourceType, name: string, causes: readonly Cause[]): Outcome<T> {
  return invalidNamed(kindDotGroup(type), type.group, type.kind, name, causes);
}

/** 422 Invalid for a body of another kind than the resource's (`Gadget.example.com "x" is invalid`). */
export function invalidKind<T = never>(
  type: ResourceType,
  kind: string,
  name: string,
  causes: readonly Cause[],
): Outcome<T> {
  const qualified = type.group === '' ? kind : `${kind}.${type.group}`;
  return invalidNamed(qualified, type.group, kind, name, causes);
}

/** 422 Invalid as kube-apiserver's storage layer words it: naming the resource (`leases.coordination.k8s.io`), not the kind. */
export function invalidResource<T = never>(
  type: ResourceType,
  name: string,
  causes: readonly Cause[],
): Outcome<T> {
  return invalidNamed(qualifiedResource(type), type.group, type.plural, name, causes);
}

export function methodNotAllowed<T = never>(): Outcome<T> {
  return fail(405, 'MethodNotAllowed', 'the server does not allow this method on the requested resource', {});
}

export function resourceNotFoundReply(): Reply {
  return statusReply(404, 'NotFound', 'the server could not find the requested resource', {});
}

export function resourceNotFound<T = never>(): Outcome<T> {
  return { ok: false, failure: resourceNotFoundReply() };
}

export function unsupportedMediaType<T = never>(type: ResourceType): Outcome<T> {
  const accepted = [
    'application/json-patch+json',
    'application/merge-patch+json',
    ...(type.builtin ? ['application/strategic-merge-patch+json'] : []),
    'application/apply-patch+yaml',
  ];
  return unsupportedBodyMediaType(accepted);
}

/** 415 for a request body in none of the `accepted` media types. */
export function unsupportedBodyMediaType<T = never>(accepted: readonly string[]): Outcome<T> {
  return fail(
    415,
    'UnsupportedMediaType',
    `the body of the request was in an unknown format - accepted media types include: ${accepted.join(', ')}`,
  );
}

export function expired(requested: number, oldest: number): Reply {
  return statusReply(410, 'Expired', `too old resource version: ${requested} (${oldest})`);
}

/**
 * A plain Go error from kube-apiserver's storage, not an API status: 500 with the error's text and no
 * reason (StatusReasonUnknown is empty and omitted).
 */
export function storageError<T = never>(message: string): Outcome<T> {
  return {
    ok: false,
    failure: {
      code: 500,
      body: { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message, code: 500 },
    },
  };
}
