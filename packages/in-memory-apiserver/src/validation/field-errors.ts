/**
 * Field errors the structural-schema package has no constructor for, worded as
 * k8s.io/apimachinery/pkg/util/validation/field prints them.
 */
import { goQuote, isJsonObject, type Cause } from '@scoby/structural-schema';

/** JSON with map keys sorted, as Go's encoding/json writes a map. */
export function sortedJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(sortedJson).join(',')}]`;
  if (isJsonObject(value)) {
    const entries = Object.keys(value)
      .sort()
      .map((key) => `${JSON.stringify(key)}:${sortedJson(value[key])}`);
    return `{${entries.join(',')}}`;
  }
  return JSON.stringify(value);
}

/** A bad value: strings quoted, the rest as JSON (Kubernetes 1.34's field.Error). */
export function renderValue(value: unknown): string {
  if (value === null || value === undefined) return 'null';
  if (typeof value === 'string') return goQuote(value);
  if (typeof value === 'number' || typeof value === 'boolean' || typeof value === 'bigint')
    return String(value);
  return sortedJson(value);
}

export function duplicate(field: string, value: unknown): Cause {
  return { type: 'FieldValueDuplicate', field, message: `Duplicate value: ${renderValue(value)}` };
}

export function forbidden(field: string, detail: string): Cause {
  return {
    type: 'FieldValueForbidden',
    field,
    message: detail === '' ? 'Forbidden' : `Forbidden: ${detail}`,
  };
}

export function requiredValue(field: string, detail: string): Cause {
  return {
    type: 'FieldValueRequired',
    field,
    message: detail === '' ? 'Required value' : `Required value: ${detail}`,
  };
}

export function invalidValue(field: string, value: unknown, detail: string): Cause {
  return invalidRendered(field, renderValue(value), detail);
}

/** An Invalid error whose bad value is rendered already. */
export function invalidRendered(field: string, rendered: string, detail: string): Cause {
  const body = `Invalid value: ${rendered}`;
  return { type: 'FieldValueInvalid', field, message: detail === '' ? body : `${body}: ${detail}` };
}

export function tooLong(field: string, limitBytes: number): Cause {
  return { type: 'FieldValueTooLong', field, message: `Too long: may not be more than ${limitBytes} bytes` };
}

export function notFound(field: string, value: unknown): Cause {
  return { type: 'FieldValueNotFound', field, message: `Not found: ${renderValue(value)}` };
}

export function notSupported(field: string, value: unknown, supported: readonly string[]): Cause {
  const body = `Unsupported value: ${renderValue(value)}`;
  const detail = supported.map((item) => renderValue(item)).join(', ');
  return {
    type: 'FieldValueNotSupported',
    field,
    message: supported.length === 0 ? body : `${body}: supported values: ${detail}`,
  };
}
