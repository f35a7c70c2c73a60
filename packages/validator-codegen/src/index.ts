/**
 * Build-time only. A module of JSON Schema validators generated ahead of time by Ajv's standalone mode, for the
 * packages that validate with Ajv (registration's schema check, hooks-v1's bodies): compiling a
 * validator when its module loads costs megabytes of memory and part of a second of CPU.
 *
 * The module must import nothing: Ajv's standalone code reaches its runtime helpers through
 * require(), which an ES module lacks. `unicode: false` avoids the one helper these schemas would
 * need (ucs2length, for string length in code points); it counts UTF-16 units instead, which agree
 * only for a length bound of 1, so any other length bound is refused here.
 */
import { Ajv, type Options, type SchemaObject } from 'ajv';
import standalone from 'ajv/dist/standalone/index.js';

const LENGTH_KEYWORDS = ['minLength', 'maxLength'];

/** Every length bound in a schema other than minLength 1, by its JSON pointer. */
function unicodeSensitiveBounds(node: unknown, pointer = ''): string[] {
  if (node === null || typeof node !== 'object') return [];
  return Object.entries(node).flatMap(([key, value]) => [
    ...(LENGTH_KEYWORDS.includes(key) && !(key === 'minLength' && value === 1) ? [`${pointer}/${key}`] : []),
    ...unicodeSensitiveBounds(value, `${pointer}/${key}`),
  ]);
}

/**
 * The module's source: one export per schema, named by its key; `source` names what it is
 * generated from and the command that regenerates it.
 */
export function standaloneValidators(
  schemas: Record<string, SchemaObject>,
  options: Options,
  source: { from: string; command: string },
): string {
  const bounds = unicodeSensitiveBounds(schemas);
  if (bounds.length > 0) {
    throw new Error(`length bounds counted in UTF-16 units would differ from Ajv's: ${bounds.join(', ')}`);
  }
  const ajv = new Ajv({ ...options, unicode: false, code: { source: true, esm: true } });
  const exports: Record<string, string> = {};
  for (const [name, schema] of Object.entries(schemas)) {
    ajv.addSchema(schema, name);
    exports[name] = name;
  }
  const code = standalone.default(ajv, exports);
  if (/\brequire\(/.test(code)) {
    throw new Error('the standalone validators need an Ajv runtime function through require()');
  }
  return `// Generated from ${source.from} by \`${source.command}\`.
// Do not edit by hand.
/* eslint-disable */
// @ts-nocheck
${code}
`;
}
