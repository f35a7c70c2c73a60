/** The body validators, one export per schema of bodySchemas() (src/body-schemas.ts). */
import { fileURLToPath } from 'node:url';
import { standaloneValidators } from '@scoby/validator-codegen';
import { BODY_VALIDATOR_OPTIONS, bodySchemas } from '../src/body-schemas.ts';

export const BODY_VALIDATORS_FILE = fileURLToPath(
  new URL('../src/body-validators.generated.ts', import.meta.url),
);

export function renderBodyValidators(): string {
  return standaloneValidators(bodySchemas(), BODY_VALIDATOR_OPTIONS, {
    from: 'packages/hooks-v1/src/body-schemas.ts',
    command: 'npm run generate -w @scoby/hooks-v1',
  });
}
