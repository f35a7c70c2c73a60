/**
 * The checks kube-apiserver runs on a custom resource after pruning and defaulting, in its order:
 * the schema, embedded resources, list types, then the CEL rules if the schema has any, which it skips
 * when the object already failed a check they may depend on (wrong type, missing, too long, too many,
 * unsupported).
 */
import { pruneAndValidate, type Cause, type JSONSchemaProps } from '@scoby/structural-schema';
import { hasCelRules, validateCelRules } from './cel.ts';
import { invalidValue } from './field-errors.ts';
import { validateListTypes } from './list-types.ts';

const BLOCKING: ReadonlySet<string> = new Set([
  'FieldValueNotSupported',
  'FieldValueRequired',
  'FieldValueTooLong',
  'FieldValueTooMany',
  'FieldValueTypeInvalid',
]);

const RULES_NOT_CHECKED = invalidValue(
  '<nil>',
  null,
  'some validation rules were not checked because the object was invalid; correct the existing errors to complete validation',
);

export function admitCustomResourceValue(
  schema: JSONSchemaProps,
  value: unknown,
  old: unknown,
): { value: unknown; causes: Cause[] } {
  const checked = pruneAndValidate(schema, value, { root: true });
  const causes = [...checked.causes, ...validateListTypes(schema, checked.value)];
  if (!hasCelRules(schema)) return { value: checked.value, causes };
  const blocked = causes.some((cause) => BLOCKING.has(cause.type));
  causes.push(...(blocked ? [RULES_NOT_CHECKED] : validateCelRules(schema, checked.value, old)));
  return { value: checked.value, causes };
}
