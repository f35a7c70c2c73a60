/**
 * Validators of the v1 bodies (docs/spec/hooks-v1.md §3, §5, §6.1), generated ahead of time from
 * body-schemas.ts by Ajv's standalone mode: compiling them when the module loaded cost megabytes of
 * memory, and compiling them at the first hook call delayed it.
 */
import type { ErrorObject, ValidateFunction } from 'ajv';
import type { FormFactorFormat } from './types.ts';
import * as generated from './body-validators.generated.ts';

export { hookErrorBodySchema, hookRequestSchema, hookResponseSchema } from './body-schemas.ts';

/** A validator: undefined when the value conforms, else the first problem, e.g. `phase must be ...`. */
export type BodyValidator = (value: unknown) => string | undefined;

function validatorFor(validate: ValidateFunction): BodyValidator {
  return (value) => (validate(value) ? undefined : describe(validate.errors?.[0]));
}

function describe(error: ErrorObject | undefined): string {
  if (error === undefined) return 'does not match the schema';
  const path = error.instancePath.split('/').slice(1).map(unescapePointer).join('.');
  const where =
    error.keyword === 'required' ? [path, error.params['missingProperty']].filter(Boolean).join('.') : path;
  const what = error.keyword === 'required' ? 'is required' : (error.message ?? 'is invalid');
  const allowed =
    error.keyword === 'enum' ? ` (${(error.params['allowedValues'] as unknown[]).join(', ')})` : '';
  return `${where === '' ? 'body' : where} ${what}${allowed}`;
}

function unescapePointer(segment: string): string {
  return segment.replaceAll('~1', '/').replaceAll('~0', '~');
}

export const validateHookRequest: Record<FormFactorFormat, BodyValidator> = {
  string: validatorFor(generated.requestWithStringFormFactor as ValidateFunction),
  object: validatorFor(generated.requestWithObjectFormFactor as ValidateFunction),
};
export const validateHookResponse: BodyValidator = validatorFor(generated.response as ValidateFunction);
export const validateHookErrorBody: BodyValidator = validatorFor(generated.errorBody as ValidateFunction);
