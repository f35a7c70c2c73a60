/**
 * The body validators as code generated ahead of time by Ajv's standalone mode, one export per
 * schema of bodySchemas() (src/body-schemas.ts).
 */
import { fileURLToPath } from 'node:url';
import { Ajv } from 'ajv';
import standalone from 'ajv/dist/standalone/index.js';
import { BODY_VALIDATOR_OPTIONS, bodySchemas } from '../src/body-schemas.ts';

export const BODY_VALIDATORS_FILE = fileURLToPath(
  new URL('../src/body-validators.generated.ts', import.meta.url),
);

const HEADER = `// Generated from packages/hooks-v1/src/body-schemas.ts by \`npm run generate -w @scoby/hooks-v1\`.
// Do not edit by hand.
/* eslint-disable */
// @ts-nocheck
`;

export function renderBodyValidators(): string {
  const ajv = new Ajv({ ...BODY_VALIDATOR_OPTIONS, code: { source: true, esm: true } });
  const exports: Record<string, string> = {};
  for (const [name, schema] of Object.entries(bodySchemas())) {
    ajv.addSchema(schema, name);
    exports[name] = name;
  }
  const code = standalone.default(ajv, exports);
  if (/\brequire\(/.test(code)) {
    throw new Error('the standalone validators need an Ajv runtime function through require()');
  }
  return `${HEADER}${code}\n`;
}
