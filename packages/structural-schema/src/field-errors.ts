/**
 * Constructors of field errors with the exact bodies of k8s.io/apimachinery/pkg/util/validation/field,
 * and the message of a 422 Invalid Status built from them.
 */
import { goQuote, renderBadValue } from './go-format.ts';
import type { Cause } from './types.ts';

/** The field of an error about the object as a whole: Go prints a nil *field.Path as `<nil>`. */
export const WHOLE_OBJECT = '<nil>';

export function fieldOf(path: string): string {
  return path === '' ? WHOLE_OBJECT : path;
}

function withDetail(body: string, detail: string): string {
  return detail === '' ? body : `${body}: ${detail}`;
}

export function required(field: string, detail = ''): Cause {
  return { type: 'FieldValueRequired', field, message: withDetail('Required value', detail) };
}

export function invalid(field: string, value: unknown, detail: string): Cause {
  return invalidRendered(field, renderBadValue(value), detail);
}

/** An Invalid error whose bad value is already rendered (for Go types other than decoded JSON). */
export function invalidRendered(field: string, renderedValue: string, detail: string): Cause {
  return { type: 'FieldValueInvalid', field, message: withDetail(`Invalid value: ${renderedValue}`, detail) };
}

export function typeInvalid(field: string, value: unknown, detail: string): Cause {
  return {
    type: 'FieldValueTypeInvalid',
    field,
    message: withDetail(`Invalid value: ${renderBadValue(value)}`, detail),
  };
}

/** Non-string supported values are shown as their JSON encoding, then quoted like the strings. */
export function notSupported(field: string, value: unknown, supported: readonly string[]): Cause {
  const detail = supported.length === 0 ? '' : `supported values: ${supported.map(goQuote).join(', ')}`;
  return {
    type: 'FieldValueNotSupported',
    field,
    message: withDetail(`Unsupported value: ${renderBadValue(value)}`, detail),
  };
}

export function tooLong(field: string, maxLength: number): Cause {
  const detail = `may not be more than ${maxLength} ${maxLength === 1 ? 'byte' : 'bytes'}`;
  return { type: 'FieldValueTooLong', field, message: `Too long: ${detail}` };
}

export function tooMany(field: string, actual: number, max: number): Cause {
  const detail = `must have at most ${max} ${max === 1 ? 'item' : 'items'}`;
  return { type: 'FieldValueTooMany', field, message: `Too many: ${actual}: ${detail}` };
}

/** The error string of one cause, as Go's field.Error.Error() prints it. */
export function causeText(cause: Cause): string {
  return `${cause.field}: ${cause.message}`;
}

/** The Status message of a 422 Invalid response (apierrors.NewInvalid). */
export function formatInvalidMessage(kindDotGroup: string, name: string, causes: Cause[]): string {
  const head = `${kindDotGroup} ${goQuote(name)} is invalid`;
  return causes.length === 0 ? head : `${head}: ${aggregateText(causes)}`;
}

/** Go's aggregate error of a field error list: identical texts once, one alone, several bracketed. */
export function aggregateText(causes: Cause[]): string {
  const texts = [...new Set(causes.map(causeText))];
  return texts.length === 1 ? (texts[0] ?? '') : `[${texts.join(', ')}]`;
}
