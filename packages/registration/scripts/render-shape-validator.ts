/** The schema check's validator (src/validation/schema-check.ts), exported as `validate`. */
import { standaloneValidators } from '@scoby/validator-codegen';
import { SHAPE_SCHEMA, SHAPE_VALIDATOR_OPTIONS } from '../src/validation/shape-schema.ts';

export function renderShapeValidator(): string {
  return standaloneValidators({ validate: SHAPE_SCHEMA }, SHAPE_VALIDATOR_OPTIONS, {
    from: 'packages/registration/src/schema.ts',
    command: 'npm run generate -w @scoby/registration',
  });
}
