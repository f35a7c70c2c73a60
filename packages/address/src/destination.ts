import { isPlainObject, jsonTypeName } from '@scoby/kube-objects';
import type { ObjectRef } from './object-reader.ts';

/** A destination whose shape has been checked (docs/spec/address.md §1), its `ref` namespace filled in. */
export type Destination = { ref: ObjectRef; uri?: string } | { ref?: undefined; uri: string };

export type DestinationCheck = { ok: true; destination: Destination } | { ok: false; message: string };

type Field<T> = { ok: true; value: T } | { ok: false; message: string };

const NOT_INFORMED = { ok: false, message: 'ref or uri should be informed' } as const;

/**
 * Checks the shape of a destination. `defaultNamespace` fills a missing `ref.namespace`; when it is
 * undefined (a hook address) the namespace is required. Keys other than `ref` and `uri` are
 * ignored; `null` and `""` count as absent.
 */
export function readDestination(value: unknown, defaultNamespace: string | undefined): DestinationCheck {
  if (value === undefined || value === null) return NOT_INFORMED;
  if (!isPlainObject(value)) {
    return {
      ok: false,
      message: `destination must be an object with "ref" and/or "uri", got ${jsonTypeName(value)}`,
    };
  }
  const uri = optionalString(value.uri, 'uri');
  if (!uri.ok) return uri;
  const ref = readRef(value.ref, defaultNamespace);
  if (!ref.ok) return ref;
  if (ref.value === undefined) {
    return uri.value === undefined ? NOT_INFORMED : { ok: true, destination: { uri: uri.value } };
  }
  const destination: Destination = { ref: ref.value };
  if (uri.value !== undefined) destination.uri = uri.value;
  return { ok: true, destination };
}

function readRef(value: unknown, defaultNamespace: string | undefined): Field<ObjectRef | undefined> {
  if (value === undefined || value === null) return { ok: true, value: undefined };
  if (!isPlainObject(value))
    return { ok: false, message: `ref must be an object, got ${jsonTypeName(value)}` };
  const apiVersion = requiredString(value.apiVersion, 'ref.apiVersion');
  if (!apiVersion.ok) return apiVersion;
  const kind = requiredString(value.kind, 'ref.kind');
  if (!kind.ok) return kind;
  const name = requiredString(value.name, 'ref.name');
  if (!name.ok) return name;
  const namespace = optionalString(value.namespace, 'ref.namespace');
  if (!namespace.ok) return namespace;
  const filledNamespace = namespace.value ?? defaultNamespace;
  if (filledNamespace === undefined) return { ok: false, message: 'ref.namespace is required' };
  return {
    ok: true,
    value: { apiVersion: apiVersion.value, kind: kind.value, namespace: filledNamespace, name: name.value },
  };
}

function requiredString(value: unknown, field: string): Field<string> {
  const read = optionalString(value, field);
  if (!read.ok) return read;
  return read.value === undefined
    ? { ok: false, message: `${field} is required` }
    : { ok: true, value: read.value };
}

function optionalString(value: unknown, field: string): Field<string | undefined> {
  if (value === undefined || value === null || value === '') return { ok: true, value: undefined };
  if (typeof value !== 'string') {
    return { ok: false, message: `${field} must be a string, got ${jsonTypeName(value)}` };
  }
  return { ok: true, value };
}
