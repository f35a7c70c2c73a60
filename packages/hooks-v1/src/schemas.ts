/** JSON Schemas of the v1 bodies (docs/spec/hooks-v1.md §3, §5, §6.1) and validators built on them. */
import { Ajv, type ErrorObject, type SchemaObject, type ValidateFunction } from 'ajv';
import type { FormFactorFormat } from './types.ts';

const kubeObject: SchemaObject = {
  type: 'object',
  required: ['apiVersion', 'kind', 'metadata'],
  properties: {
    apiVersion: { type: 'string', minLength: 1 },
    kind: { type: 'string', minLength: 1 },
    metadata: { type: 'object' },
  },
};

const childrenMap: SchemaObject = { type: 'object', additionalProperties: kubeObject };

const formFactorSchemas: Record<FormFactorFormat, SchemaObject> = {
  string: { type: 'string', minLength: 1 },
  object: {
    type: 'object',
    required: ['name'],
    properties: { name: { type: 'string', minLength: 1 } },
  },
};

export function hookRequestSchema(format: FormFactorFormat): SchemaObject {
  return {
    type: 'object',
    required: ['formFactor', 'phase', 'object'],
    properties: {
      formFactor: formFactorSchemas[format],
      phase: { enum: ['pre-reconcile', 'finalize'] },
      object: kubeObject,
      children: childrenMap,
    },
  };
}

/** A success answer. `null` elements mean "no change", like absent ones. */
export const hookResponseSchema: SchemaObject = {
  type: ['object', 'null'],
  properties: {
    object: {
      type: ['object', 'null'],
      properties: { status: { type: 'object' } },
    },
    children: { anyOf: [childrenMap, { type: 'null' }] },
  },
};

export const hookErrorBodySchema: SchemaObject = {
  type: 'object',
  properties: {
    message: { type: 'string' },
    permanent: { type: 'boolean' },
    continue: { type: 'boolean' },
  },
};

const ajv = new Ajv({ allowUnionTypes: true });

/** A validator: undefined when the value conforms, else the first problem, e.g. `phase must be ...`. */
export type BodyValidator = (value: unknown) => string | undefined;

/**
 * Compiled on first use: a compiled validator costs megabytes of memory, and a controller whose
 * registrations have no hook never validates a hook body.
 */
function validatorFor(schema: SchemaObject): BodyValidator {
  let validate: ValidateFunction | undefined;
  return (value) => {
    validate ??= ajv.compile(schema);
    return validate(value) ? undefined : describe(validate.errors?.[0]);
  };
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
  string: validatorFor(hookRequestSchema('string')),
  object: validatorFor(hookRequestSchema('object')),
};
export const validateHookResponse: BodyValidator = validatorFor(hookResponseSchema);
export const validateHookErrorBody: BodyValidator = validatorFor(hookErrorBodySchema);
