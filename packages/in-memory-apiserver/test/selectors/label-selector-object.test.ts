import { describe, expect, it } from 'vitest';
import { labelSelectorFromObject, type LabelSelector } from '../../src/selectors/index.ts';

function matcher(selector: LabelSelector | undefined) {
  const parsed = labelSelectorFromObject(selector);
  if (!parsed.ok) throw new Error(parsed.message);
  return parsed.matches;
}

const errorOf = (selector: LabelSelector): string | undefined => {
  const parsed = labelSelectorFromObject(selector);
  return parsed.ok ? undefined : parsed.message;
};

describe('labelSelectorFromObject', () => {
  it('matchLabels requires every pair', () => {
    const matches = matcher({ matchLabels: { app: 'web', tier: 'front' } });
    expect(matches({ app: 'web', tier: 'front', extra: 'x' })).toBe(true);
    expect(matches({ app: 'web' })).toBe(false);
  });

  it('matchExpressions with every operator', () => {
    const matches = matcher({
      matchExpressions: [
        { key: 'app', operator: 'In', values: ['web', 'api'] },
        { key: 'tier', operator: 'NotIn', values: ['db'] },
        { key: 'team', operator: 'Exists' },
        { key: 'legacy', operator: 'DoesNotExist' },
      ],
    });
    expect(matches({ app: 'api', team: 't' })).toBe(true);
    expect(matches({ app: 'api', team: 't', tier: 'db' })).toBe(false);
    expect(matches({ app: 'api', team: 't', legacy: 'y' })).toBe(false);
    expect(matches({ app: 'other', team: 't' })).toBe(false);
    expect(matches({ app: 'api' })).toBe(false);
  });

  it('an empty selector selects everything and no selector nothing', () => {
    expect(matcher({})({})).toBe(true);
    expect(matcher(undefined)({ a: 'b' })).toBe(false);
  });

  it('rejects unknown operators', () => {
    expect(errorOf({ matchExpressions: [{ key: 'a', operator: 'Gt', values: ['1'] }] })).toBe(
      '"Gt" is not a valid label selector operator',
    );
  });

  it('rejects In without values and Exists with values', () => {
    expect(errorOf({ matchExpressions: [{ key: 'a', operator: 'In', values: [] }] })).toBe(
      "values: Invalid value: []string(nil): for 'in', 'notin' operators, values set can't be empty",
    );
    expect(errorOf({ matchExpressions: [{ key: 'a', operator: 'Exists', values: ['x', 'y'] }] })).toBe(
      'values: Invalid value: []string{"x", "y"}: values set must be empty for exists and does not exist',
    );
  });

  it('rejects invalid keys and values, several errors bracketed', () => {
    expect(errorOf({ matchLabels: { 'bad key': '-v' } })).toBe(
      "[key: Invalid value: \"bad key\": name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]'), values[0][bad key]: Invalid value: \"-v\": a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')]",
    );
  });
});
