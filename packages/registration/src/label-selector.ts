/**
 * Label selectors of instance selection (docs/spec/registration.md §3.6): the metav1.LabelSelector
 * shape, its validation as kube-apiserver validates one, and matching. Pure.
 */
import { isQualifiedName, isValidLabelValue } from '@scoby/structural-schema';
import type { Problem } from './validation/problem.ts';

export const SELECTOR_OPERATORS = ['In', 'NotIn', 'Exists', 'DoesNotExist'] as const;
export type SelectorOperator = (typeof SELECTOR_OPERATORS)[number];

export interface LabelSelectorRequirement {
  key: string;
  operator: SelectorOperator;
  values?: string[];
}

export interface LabelSelector {
  matchLabels?: Record<string, string>;
  matchExpressions?: LabelSelectorRequirement[];
}

/** A selector as written, before validation (any operator string). */
export interface WrittenLabelSelector {
  matchLabels?: Record<string, string>;
  matchExpressions?: { key: string; operator: string; values?: string[] }[];
}

/** Whether `labels` satisfy `selector`; an absent or empty selector matches everything (as in Kubernetes). */
export function matchesLabelSelector(
  selector: LabelSelector | undefined,
  labels: Readonly<Record<string, string>> | undefined,
): boolean {
  if (selector === undefined) return true;
  const actual = labels ?? {};
  const has = (key: string) => Object.prototype.hasOwnProperty.call(actual, key);
  for (const [key, value] of Object.entries(selector.matchLabels ?? {})) {
    if (!has(key) || actual[key] !== value) return false;
  }
  for (const { key, operator, values = [] } of selector.matchExpressions ?? []) {
    const present = has(key);
    const ok =
      operator === 'In'
        ? present && values.includes(actual[key] as string)
        : operator === 'NotIn'
          ? !present || !values.includes(actual[key] as string)
          : operator === 'Exists'
            ? present
            : !present;
    if (!ok) return false;
  }
  return true;
}

/** True when the selector restricts anything (absent and `{}` select every object). */
export function selectsSome(selector: LabelSelector | undefined): boolean {
  return (
    selector !== undefined &&
    (Object.keys(selector.matchLabels ?? {}).length > 0 || (selector.matchExpressions ?? []).length > 0)
  );
}

export const INVALID_SELECTOR = 'InvalidSelector';

/** Why `key` is not a label key (a Kubernetes qualified name), or undefined when it is: kube-apiserver's words. */
export function labelKeyError(key: string): string | undefined {
  const errors = isQualifiedName(key);
  return errors.length === 0 ? undefined : errors.join('; ');
}

/** Why `value` is not a label value, or undefined when it is (the empty string is one): kube-apiserver's words. */
export function labelValueError(value: string): string | undefined {
  const errors = isValidLabelValue(value);
  return errors.length === 0 ? undefined : errors.join('; ');
}

function selectorProblem(path: string, detail: string): Problem {
  return { path, reason: INVALID_SELECTOR, message: `${path}: ${detail}` };
}

/** The problems of one selector at `path` (spec.selector or spec.namespaceSelector), in document order. */
export function labelSelectorProblems(selector: WrittenLabelSelector | undefined, path: string): Problem[] {
  if (selector === undefined) return [];
  const problems: Problem[] = [];
  for (const [key, value] of Object.entries(selector.matchLabels ?? {})) {
    const at = `${path}.matchLabels[${JSON.stringify(key)}]`;
    const keyError = labelKeyError(key);
    if (keyError) problems.push(selectorProblem(at, `invalid label key ${JSON.stringify(key)}: ${keyError}`));
    const valueError = labelValueError(value);
    if (valueError)
      problems.push(selectorProblem(at, `invalid label value ${JSON.stringify(value)}: ${valueError}`));
  }
  (selector.matchExpressions ?? []).forEach((requirement, index) => {
    const at = `${path}.matchExpressions[${index}]`;
    const keyError = labelKeyError(requirement.key);
    if (keyError)
      problems.push(
        selectorProblem(`${at}.key`, `invalid label key ${JSON.stringify(requirement.key)}: ${keyError}`),
      );
    const values = requirement.values ?? [];
    if (!(SELECTOR_OPERATORS as readonly string[]).includes(requirement.operator)) {
      const supported = SELECTOR_OPERATORS.map((operator) => JSON.stringify(operator)).join(', ');
      problems.push(
        selectorProblem(
          `${at}.operator`,
          `unknown operator ${JSON.stringify(requirement.operator)} (supported: ${supported})`,
        ),
      );
    } else if ((requirement.operator === 'In' || requirement.operator === 'NotIn') && values.length === 0) {
      problems.push(selectorProblem(`${at}.values`, 'must be specified when operator is "In" or "NotIn"'));
    } else if (
      (requirement.operator === 'Exists' || requirement.operator === 'DoesNotExist') &&
      values.length > 0
    ) {
      problems.push(
        selectorProblem(`${at}.values`, 'may not be specified when operator is "Exists" or "DoesNotExist"'),
      );
    }
    values.forEach((value, valueIndex) => {
      const valueError = labelValueError(value);
      if (valueError)
        problems.push(
          selectorProblem(
            `${at}.values[${valueIndex}]`,
            `invalid label value ${JSON.stringify(value)}: ${valueError}`,
          ),
        );
    });
  });
  return problems;
}
