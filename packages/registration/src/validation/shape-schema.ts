/**
 * The JSON Schema the schema check validates a registration against, and the Ajv options it is
 * compiled with (ahead of time, into shape-validator.generated.ts).
 */
import type { Options, SchemaObject } from 'ajv';
import { SCHEMA } from '../schema.ts';
import { toJsonSchema } from '../schema-views.ts';

const specSchema = SCHEMA.properties?.['spec'];
if (specSchema === undefined) throw new Error('SCHEMA declares no spec');

export const SHAPE_SCHEMA: SchemaObject = {
  type: 'object',
  required: ['spec'],
  properties: { spec: toJsonSchema(specSchema) },
};

/** Ajv's options for the schema check (generated ahead of time: scripts/standalone-validators.ts). */
export const SHAPE_VALIDATOR_OPTIONS: Options = { allErrors: true, allowUnionTypes: true };
