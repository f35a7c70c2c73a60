/**
 * JSON Schemas of the v1 bodies (docs/spec/hooks-v1.md §3, §5, §6.1), and the Ajv options their
 * validators are compiled with, ahead of time, into body-validators.generated.ts.
 */
import type { Options, SchemaObject } from 'ajv';
import type { FormFactorFormat } from './types.ts';
import { hookPhases } from './phases.ts';

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
      // The phases of the table (phases.ts); the generated validators hold the spec's.
      phase: { enum: hookPhases().map((descriptor) => descriptor.phase) },
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

/** Ajv's options for the body validators (generated ahead of time: scripts/standalone-validators.ts). */
export const BODY_VALIDATOR_OPTIONS: Options = { allowUnionTypes: true };

/** Every schema with a validator, by the name the generated module exports it under. */
export function bodySchemas(): Record<string, SchemaObject> {
  return {
    requestWithStringFormFactor: hookRequestSchema('string'),
    requestWithObjectFormFactor: hookRequestSchema('object'),
    response: hookResponseSchema,
    errorBody: hookErrorBodySchema,
  };
}
