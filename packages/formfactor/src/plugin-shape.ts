/** What a plugin module's default export must look like (docs/spec/children-and-status.md §11), checked field by field. */
import { isPlainObject } from '@scoby/kube-objects';
import type { FormFactorPlugin } from './contract.ts';

interface FieldRule {
  field: string;
  expected: string;
  optional?: boolean;
  accepts(value: unknown): boolean;
}

const isString = (value: unknown): value is string => typeof value === 'string';
const isStringArray = (value: unknown): boolean => Array.isArray(value) && value.every(isString);
const isFunction = (value: unknown): boolean => typeof value === 'function';

const RULES: readonly FieldRule[] = [
  { field: 'name', expected: 'non-empty string', accepts: (value) => isString(value) && value !== '' },
  {
    field: 'hookName',
    expected: 'non-empty string',
    optional: true,
    accepts: (value) => isString(value) && value !== '',
  },
  { field: 'blockSchema', expected: 'JSON Schema object', accepts: isPlainObject },
  {
    field: 'fieldMessages',
    expected: 'object of strings',
    optional: true,
    accepts: (value) => isPlainObject(value) && Object.values(value).every(isString),
  },
  { field: 'requiredApis', expected: 'array of strings', accepts: isStringArray },
  {
    field: 'managedKinds',
    expected: 'array of {apiVersion, kind} strings',
    accepts: (value) =>
      Array.isArray(value) &&
      value.every((item) => isPlainObject(item) && isString(item['apiVersion']) && isString(item['kind'])),
  },
  { field: 'conditionTypes', expected: 'array of strings', accepts: isStringArray },
  { field: 'conditionTypesFor', expected: 'function', optional: true, accepts: isFunction },
  { field: 'render', expected: 'function', accepts: isFunction },
  { field: 'status', expected: 'function', accepts: isFunction },
  { field: 'observedFields', expected: 'array of strings', optional: true, accepts: isStringArray },
];

export type ShapeCheck = { ok: true; plugin: FormFactorPlugin } | { ok: false; defects: string[] };

/** Every defect, e.g. `lacks "render" (function)` or `has invalid "requiredApis" (array of strings)`. */
export function checkPluginShape(candidate: unknown): ShapeCheck {
  if (!isPlainObject(candidate)) return { ok: false, defects: ['is not an object'] };
  const defects = RULES.flatMap((rule) => {
    const value = candidate[rule.field];
    if (value === undefined) return rule.optional ? [] : [`lacks "${rule.field}" (${rule.expected})`];
    return rule.accepts(value) ? [] : [`has invalid "${rule.field}" (${rule.expected})`];
  });
  return defects.length === 0
    ? { ok: true, plugin: candidate as unknown as FormFactorPlugin }
    : { ok: false, defects };
}
