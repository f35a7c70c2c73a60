/**
 * One label requirement (k8s.io/apimachinery/pkg/labels.Requirement): its validation, with the
 * field errors NewRequirement reports, and its matching.
 */
import { invalid, invalidRendered } from '@scoby/structural-schema';
import { goStringSlice } from '@scoby/structural-schema';
import { isQualifiedName, isValidLabelValue } from '@scoby/structural-schema';
import type { Cause } from '@scoby/structural-schema';

export type Operator = 'in' | 'notin' | '=' | '==' | '!=' | 'exists' | '!' | 'gt' | 'lt';

export interface Requirement {
  key: string;
  operator: Operator;
  values: string[];
}

/** validateLabelKey: `field` is where the key sits (`key` in a LabelSelector, nil in selector text). */
export function labelKeyError(key: string, field: string): Cause | undefined {
  const errors = isQualifiedName(key);
  return errors.length === 0 ? undefined : invalid(field, key, errors.join('; '));
}

const INTEGER = /^[+-]?[0-9]+$/;

/** The checks of labels.NewRequirement; `values` undefined stands for a nil Go slice. */
export function requirementErrors(key: string, operator: Operator, values: string[] | undefined): Cause[] {
  const causes: Cause[] = [];
  const keyError = labelKeyError(key, 'key');
  if (keyError !== undefined) causes.push(keyError);
  const list = values ?? [];
  const shown = goStringSlice(values);
  switch (operator) {
    case 'in':
    case 'notin':
      if (list.length === 0) {
        causes.push(
          invalidRendered('values', shown, "for 'in', 'notin' operators, values set can't be empty"),
        );
      }
      break;
    case '=':
    case '==':
    case '!=':
      if (list.length !== 1) {
        causes.push(invalidRendered('values', shown, 'exact-match compatibility requires one single value'));
      }
      break;
    case 'exists':
    case '!':
      if (list.length !== 0) {
        causes.push(
          invalidRendered('values', shown, 'values set must be empty for exists and does not exist'),
        );
      }
      break;
    case 'gt':
    case 'lt':
      if (list.length !== 1) {
        causes.push(
          invalidRendered('values', shown, "for 'Gt', 'Lt' operators, exactly one value is required"),
        );
      }
      list.forEach((value, i) => {
        if (!INTEGER.test(value)) {
          causes.push(
            invalid(`values[${i}]`, value, "for 'Gt', 'Lt' operators, the value must be an integer"),
          );
        }
      });
      break;
  }
  list.forEach((value, i) => {
    const errors = isValidLabelValue(value);
    if (errors.length > 0) causes.push(invalid(`values[${i}][${key}]`, value, errors.join('; ')));
  });
  return causes;
}

export function matchesRequirement(
  requirement: Requirement,
  labels: Record<string, string> | undefined,
): boolean {
  const present = labels !== undefined && Object.hasOwn(labels, requirement.key);
  const value = present ? labels[requirement.key] : undefined;
  switch (requirement.operator) {
    case 'in':
    case '=':
    case '==':
      return value !== undefined && requirement.values.includes(value);
    case 'notin':
    case '!=':
      return value === undefined || !requirement.values.includes(value);
    case 'exists':
      return present;
    case '!':
      return !present;
    case 'gt':
    case 'lt': {
      const bound = requirement.values[0];
      if (value === undefined || bound === undefined || !INTEGER.test(value)) return false;
      const [actual, limit] = [BigInt(value), BigInt(bound)];
      return requirement.operator === 'gt' ? actual > limit : actual < limit;
    }
  }
}
