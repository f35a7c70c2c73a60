/** Label selectors from text (`?labelSelector=`) and from LabelSelector objects (Deployments, Services). */
import { aggregateText } from '@scoby/structural-schema';
import { goQuote } from '@scoby/structural-schema';
import { parseRequirements } from './label-parser.ts';
import { matchesRequirement, requirementErrors, type Operator, type Requirement } from './requirement.ts';
import type { LabelMatcher, ParsedLabelSelector } from './result.ts';

function matcherOf(requirements: Requirement[]): LabelMatcher {
  return (labels) => requirements.every((requirement) => matchesRequirement(requirement, labels));
}

/** labels.Parse: the empty text selects everything. */
export function parseLabelSelector(text: string): ParsedLabelSelector {
  const parsed = parseRequirements(text);
  return parsed.ok ? { ok: true, matches: matcherOf(parsed.requirements) } : parsed;
}

export interface LabelSelectorRequirement {
  key: string;
  operator: string;
  values?: string[];
}

export interface LabelSelector {
  matchLabels?: Record<string, string>;
  matchExpressions?: LabelSelectorRequirement[];
}

const EXPRESSION_OPERATORS: Record<string, Operator> = {
  In: 'in',
  NotIn: 'notin',
  Exists: 'exists',
  DoesNotExist: '!',
};

/**
 * metav1.LabelSelectorAsSelector: no selector selects nothing, an empty one everything; the first
 * invalid requirement is the error.
 */
export function labelSelectorFromObject(selector: LabelSelector | null | undefined): ParsedLabelSelector {
  if (selector === null || selector === undefined) return { ok: true, matches: () => false };
  const requirements: Requirement[] = [];
  const add = (key: string, operator: Operator, values: string[] | undefined): string | undefined => {
    const causes = requirementErrors(key, operator, values);
    if (causes.length > 0) return aggregateText(causes);
    requirements.push({ key, operator, values: values ?? [] });
    return undefined;
  };
  for (const [key, value] of Object.entries(selector.matchLabels ?? {})) {
    const failure = add(key, '=', [value]);
    if (failure !== undefined) return { ok: false, message: failure };
  }
  for (const expression of selector.matchExpressions ?? []) {
    const operator = EXPRESSION_OPERATORS[expression.operator];
    if (operator === undefined) {
      return { ok: false, message: `${goQuote(expression.operator)} is not a valid label selector operator` };
    }
    // An absent or empty values list is a nil slice once copied.
    const values =
      expression.values === undefined || expression.values.length === 0 ? undefined : [...expression.values];
    const failure = add(expression.key, operator, values);
    if (failure !== undefined) return { ok: false, message: failure };
  }
  return { ok: true, matches: matcherOf(requirements) };
}

function requirementText(requirement: Requirement): string {
  const values = [...requirement.values].sort();
  switch (requirement.operator) {
    case 'exists':
      return requirement.key;
    case '!':
      return `!${requirement.key}`;
    case 'in':
    case 'notin':
      return `${requirement.key} ${requirement.operator} (${values.join(',')})`;
    default:
      return `${requirement.key}${requirement.operator}${values.join(',')}`;
  }
}

/**
 * labels.Selector.String() of metav1.LabelSelectorAsSelector: requirements by key, `k=v`, `k in (a,b)`,
 * `k`, `!k`; '' for no selector, an empty one or an invalid one (callers that care check validity).
 */
export function formatLabelSelector(selector: LabelSelector | null | undefined): string {
  if (selector === null || selector === undefined) return '';
  const requirements: Requirement[] = [
    ...Object.entries(selector.matchLabels ?? {}).map(([key, value]): Requirement => ({
      key,
      operator: '=',
      values: [value],
    })),
    ...(selector.matchExpressions ?? []).flatMap((expression): Requirement[] => {
      const operator = EXPRESSION_OPERATORS[expression.operator];
      return operator === undefined
        ? []
        : [{ key: expression.key, operator, values: expression.values ?? [] }];
    }),
  ];
  return requirements
    .sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0))
    .map(requirementText)
    .join(',');
}
