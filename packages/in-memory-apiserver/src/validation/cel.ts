/**
 * CEL validation rules of CRD schemas (`x-kubernetes-validations`), evaluated as kube-apiserver does:
 * each rule with `self` bound to the node's value; transition rules (those naming `oldSelf`) only on
 * updates of a node that correlates with an old value, unless `optionalOldSelf`; on updates a node
 * whose value did not change is not checked again (validation ratcheting). A rule that is false
 * fails with its message (or messageExpression, else "failed rule: <rule>") at its node's path plus
 * `fieldPath`, as the error type its `reason` names.
 *
 * Rules are evaluated by @marcbachmann/cel-js with the standard CEL library, its string extensions
 * and optional types. Not provided: Kubernetes' own CEL libraries (lists `isSorted`/`sum`/`indexOf`,
 * `regex.find`, `url`, `quantity`, `ip`/`cidr`, `format`, string `replace`), date-time and duration
 * formats as CEL timestamps and durations, and the cost budget. A rule the library cannot evaluate
 * fails with the library's error as its detail.
 */
import { Environment, Optional } from '@marcbachmann/cel-js';
import { deepEqual, isJsonObject, type Cause, type JSONSchemaProps } from '@scoby/structural-schema';
import { celValue } from './cel-values.ts';
import { duplicate, forbidden, invalidValue, requiredValue } from './field-errors.ts';
import { childPath, walkSchema, type SchemaNode } from './schema-walk.ts';

export interface ValidationRule {
  rule: string;
  message?: string;
  messageExpression?: string;
  fieldPath?: string;
  reason?: string;
  optionalOldSelf?: boolean;
}

const environment = new Environment({
  unlistedVariablesAreDyn: true,
  enableOptionalTypes: true,
  homogeneousAggregateLiterals: false,
});

type Program = ReturnType<Environment['parse']>;
const programs = new Map<string, Program>();

function program(expression: string): Program {
  let compiled = programs.get(expression);
  if (compiled === undefined) {
    compiled = environment.parse(expression);
    programs.set(expression, compiled);
  }
  return compiled;
}

/** Why a rule does not compile, or undefined when it does (CRD validation reports it). */
export function compileError(expression: string): string | undefined {
  try {
    program(expression);
    return undefined;
  } catch (error) {
    return (error as Error).message.split('\n')[0];
  }
}

export function isTransitionRule(rule: ValidationRule): boolean {
  return /\boldSelf\b/.test(rule.rule);
}

function rulesOf(schema: JSONSchemaProps): ValidationRule[] {
  const rules = schema['x-kubernetes-validations'] ?? [];
  return rules.filter((rule): rule is ValidationRule => isJsonObject(rule) && typeof rule.rule === 'string');
}

/** The JSON type name kube-apiserver shows as the bad value of a failed rule ("object", "string", …). */
function typeName(schema: JSONSchemaProps): string {
  if (schema.type !== undefined) return schema.type;
  return schema['x-kubernetes-int-or-string'] === true ? 'integer-or-string' : '';
}

/** `.a.b` or `['a'].b` of a rule's fieldPath, appended to the node's path. */
function withFieldPath(path: string, fieldPath: string | undefined): string {
  if (fieldPath === undefined || fieldPath === '') return path;
  let result = path;
  for (const match of fieldPath.matchAll(/\.([A-Za-z_][\w-]*)|\['([^']*)'\]/g)) {
    result = childPath(result, match[1] ?? match[2] ?? '');
  }
  return result;
}

function causeFor(rule: ValidationRule, node: SchemaNode, detail: string): Cause {
  const field = withFieldPath(node.path, rule.fieldPath);
  const value = typeName(node.schema);
  switch (rule.reason) {
    case 'FieldValueForbidden':
      return forbidden(field, detail);
    case 'FieldValueRequired':
      return requiredValue(field, detail);
    case 'FieldValueDuplicate':
      return duplicate(field, value);
    default:
      return invalidValue(field, value, detail);
  }
}

function failureMessage(rule: ValidationRule, bindings: Record<string, unknown>): string {
  if (rule.messageExpression !== undefined) {
    try {
      const message: unknown = program(rule.messageExpression)(bindings);
      if (typeof message === 'string' && message.trim() !== '') return message;
    } catch {
      // kube-apiserver falls back to the message when messageExpression fails.
    }
  }
  return rule.message ?? `failed rule: ${rule.rule}`;
}

function evaluateRule(rule: ValidationRule, node: SchemaNode, hasOld: boolean): Cause | undefined {
  const transition = isTransitionRule(rule);
  if (transition && !hasOld && rule.optionalOldSelf !== true) return undefined;
  const self = celValue(node.schema, node.value);
  const oldSelf = hasOld ? celValue(node.schema, node.old) : undefined;
  const bindings: Record<string, unknown> = {
    self,
    oldSelf: rule.optionalOldSelf === true ? (hasOld ? Optional.of(oldSelf) : Optional.none()) : oldSelf,
  };
  try {
    const result: unknown = program(rule.rule)(bindings);
    return result === true ? undefined : causeFor(rule, node, failureMessage(rule, bindings));
  } catch (error) {
    return causeFor(rule, node, (error as Error).message.split('\n')[0] ?? '');
  }
}

const withRules = new WeakMap<JSONSchemaProps, boolean>();

/** Whether any node of the schema has rules: kube-apiserver builds a CEL validator only then. */
export function hasCelRules(schema: JSONSchemaProps): boolean {
  let known = withRules.get(schema);
  if (known === undefined) {
    const children = [
      ...Object.values(schema.properties ?? {}),
      ...(typeof schema.additionalProperties === 'object' ? [schema.additionalProperties] : []),
      ...(schema.items === undefined ? [] : [schema.items]),
    ];
    known = rulesOf(schema).length > 0 || children.some(hasCelRules);
    withRules.set(schema, known);
  }
  return known;
}

/**
 * The failed rules of a custom resource. `old` is the object before an update, undefined on create.
 */
export function validateCelRules(schema: JSONSchemaProps, value: unknown, old: unknown): Cause[] {
  const causes: Cause[] = [];
  const updating = old !== undefined;
  walkSchema(schema, value, old, '', (node) => {
    const rules = rulesOf(node.schema);
    if (rules.length === 0) return;
    const hasOld = updating && node.old !== undefined;
    // Ratcheting: an unchanged value keeps passing, whatever the rules say now.
    if (hasOld && deepEqual(node.old, node.value)) return;
    for (const rule of rules) {
      const cause = evaluateRule(rule, node, hasOld);
      if (cause !== undefined) causes.push(cause);
    }
  });
  return causes;
}
