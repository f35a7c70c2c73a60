/**
 * The `fieldValidation` of a write (Strict, Warn, Ignore; kube-apiserver's default is Warn) and the
 * decoding of built-in bodies under it: a wrong JSON type always fails, unknown fields are dropped,
 * and reported as an error (Strict) or as warnings (Warn, sent in `Warning` headers).
 */
import type { KubeObject } from '@scoby/kube-objects';
import { builtinSchemaName } from '../openapi/builtin-schemas.ts';
import type { ResourceType } from '../resource-type.ts';
import { decodeTyped } from './typed-decode.ts';
import { customUnknownFields } from './custom-unknown-fields.ts';
import { isJsonMap } from '../json.ts';

export type FieldValidation = 'Strict' | 'Warn' | 'Ignore';

/** How one request decodes bodies, and where its warnings go. */
export interface Decoding {
  fieldValidation: FieldValidation;
  warnings: string[];
}

export function fieldValidationOf(query: URLSearchParams): FieldValidation {
  const value = query.get('fieldValidation');
  return value === 'Strict' || value === 'Ignore' ? value : 'Warn';
}

/** The warning text kube-apiserver sends for an unknown field. */
export function unknownFieldWarning(path: string): string {
  return `unknown field ${JSON.stringify(path)}`;
}

/** A Warning header value (RFC 7234 code 299, no agent), as kube-apiserver writes each warning. */
export function warningHeader(warnings: readonly string[]): string {
  return warnings.map((warning) => `299 - ${JSON.stringify(warning)}`).join(', ');
}

/** Reports unknown fields by fieldValidation: the Strict error, else undefined (Warn adds warnings). */
export function reportUnknown(unknown: readonly string[], decoding: Decoding): string | undefined {
  if (unknown.length === 0) return undefined;
  if (decoding.fieldValidation === 'Strict')
    return `strict decoding error: ${unknown.map(unknownFieldWarning).join(', ')}`;
  if (decoding.fieldValidation === 'Warn') decoding.warnings.push(...unknown.map(unknownFieldWarning));
  return undefined;
}

/** The decoded object, or the decoding error kube-apiserver's message wraps. */
export function decodeBuiltin(
  type: ResourceType,
  version: string,
  object: KubeObject,
  decoding: Decoding,
): { ok: true; value: KubeObject } | { ok: false; message: string } {
  const definition = builtinSchemaName({ group: type.group, version, kind: type.kind });
  if (definition === undefined) return { ok: true, value: object };
  const decoded = decodeTyped(definition, object);
  if (decoded.typeError !== undefined) return { ok: false, message: decoded.typeError };
  const reported = reportUnknown(decoded.unknown, decoding);
  if (reported !== undefined) return { ok: false, message: reported };
  return { ok: true, value: decoded.value as KubeObject };
}

/** Unknown fields of an applied configuration: server-side apply refuses them whatever fieldValidation says. */
export function unknownAppliedFields(type: ResourceType, version: string, applied: unknown): string[] {
  if (!type.builtin) {
    // A custom resource's configuration is typed by its structural schema: what it prunes is undeclared.
    const schema = type.schemas.get(version);
    return schema === undefined || !isJsonMap(applied) ? [] : customUnknownFields(schema, applied).unknown;
  }
  const definition = builtinSchemaName({ group: type.group, version, kind: type.kind });
  return definition === undefined ? [] : decodeTyped(definition, applied).unknown;
}
