/**
 * Block validation and defaulting with the form factor's JSON Schema (docs/spec/registration.md §4 row 3, §11.2).
 * Problems name the full field path; a form factor may reword the validator's message per field.
 */
import { Ajv, type ErrorObject, type ValidateFunction } from 'ajv';
import { isPlainObject } from '@scoby/kube-objects';
import { FORM_FACTOR_PATH, formFactorProblem, type Problem } from '@scoby/registration';
import type { FormFactorPlugin } from './contract.ts';

export interface BlockCheck {
  problems: Problem[];
  /** A copy of the block with the schema's defaults applied (the caller's value is never changed). */
  defaulted: Record<string, unknown>;
}

export type BlockChecker = (block: unknown) => BlockCheck;

export type CompiledBlockSchema = { ok: true; check: BlockChecker } | { ok: false; message: string };

/** Builds one validator per registry; schemas are compiled once, when the registry is created. */
export function createBlockSchemaCompiler(): (plugin: FormFactorPlugin) => CompiledBlockSchema {
  const ajv = new Ajv({ allErrors: true, useDefaults: true });
  return (plugin) => {
    let validate: ValidateFunction;
    try {
      validate = ajv.compile(plugin.blockSchema);
    } catch (error) {
      return {
        ok: false,
        message: `form factor ${JSON.stringify(plugin.name)}: invalid block schema: ${(error as Error).message}`,
      };
    }
    return { ok: true, check: (block) => checkBlock(validate, plugin, block) };
  };
}

function checkBlock(validate: ValidateFunction, plugin: FormFactorPlugin, block: unknown): BlockCheck {
  // Ajv writes defaults into the data it validates, so it gets a copy.
  const working: unknown = block === undefined || block === null ? {} : structuredClone(block);
  const valid = validate(working);
  const defaulted = isPlainObject(working) ? working : {};
  if (valid) return { problems: [], defaulted };
  const seen = new Set<string>();
  const problems: Problem[] = [];
  for (const error of validate.errors ?? []) {
    const field = fieldOf(error, working);
    const path =
      field === ''
        ? `${FORM_FACTOR_PATH}.${plugin.name}`
        : `${FORM_FACTOR_PATH}.${plugin.name}${field.startsWith('[') ? '' : '.'}${field}`;
    const problem = formFactorProblem(path, plugin.fieldMessages?.[field] ?? error.message ?? error.keyword);
    if (seen.has(problem.message)) continue;
    seen.add(problem.message);
    problems.push(problem);
  }
  return { problems, defaulted };
}

/**
 * The path inside the block of the field an error is about: `service.port`, `items[0]`. Errors about a
 * missing or unexpected property point at that property rather than at its parent object.
 */
function fieldOf(error: ErrorObject, data: unknown): string {
  const tokens =
    error.instancePath === '' ? [] : error.instancePath.slice(1).split('/').map(unescapePointerToken);
  const property = error.params['missingProperty'] ?? error.params['additionalProperty'];
  if (typeof property === 'string') tokens.push(property);
  let field = '';
  let current: unknown = data;
  for (const token of tokens) {
    if (Array.isArray(current)) {
      field += `[${token}]`;
      current = current[Number(token)];
    } else {
      field += field === '' ? token : `.${token}`;
      current = isPlainObject(current) ? current[token] : undefined;
    }
  }
  return field;
}

function unescapePointerToken(token: string): string {
  return token.replaceAll('~1', '/').replaceAll('~0', '~');
}
