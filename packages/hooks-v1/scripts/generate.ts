/** Regenerates src/body-validators.generated.ts; test/generated.test.ts fails when it is stale. */
import { writeFileSync } from 'node:fs';
import { BODY_VALIDATORS_FILE, renderBodyValidators } from './render-body-validators.ts';

writeFileSync(BODY_VALIDATORS_FILE, renderBodyValidators());
