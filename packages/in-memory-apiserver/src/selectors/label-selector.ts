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
