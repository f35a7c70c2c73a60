/**
 * The schema check's validator (src/validation/schema-check.ts) as code generated ahead of time by
 * Ajv's standalone mode: compiling it when the module loaded cost about 14 MiB of the controller's
 * start-up memory and a quarter of a second of CPU.
 */
import { Ajv } from 'ajv';
import standalone from 'ajv/dist/standalone/index.js';
import { SHAPE_SCHEMA, SHAPE_VALIDATOR_OPTIONS } from '../src/validation/shape-schema.ts';

const HEADER = `// Generated from packages/registration/src/schema.ts by \`npm run generate -w @scoby/registration\`.
// Do not edit by hand.
/* eslint-disable */
// @ts-nocheck
`;

export function renderShapeValidator(): string {
  const ajv = new Ajv({ ...SHAPE_VALIDATOR_OPTIONS, code: { source: true, esm: true } });
  const code = standalone.default(ajv, ajv.compile(SHAPE_SCHEMA));
  if (/\brequire\(/.test(code)) {
    throw new Error('the standalone validator needs an Ajv runtime function through require()');
  }
  return `${HEADER}${code}\n`;
}
