import { describe, expect, it } from 'vitest';
import { matchesLabelSelector, validateRegistration } from '../src/index.ts';
import { problemAt, problemsOf, registration, testCatalog } from './fixtures.ts';

function withSelectors(fields: Record<string, unknown>): unknown {
  const written = registration() as { spec: Record<string, unknown> };
  return { ...written, spec: { ...written.spec, ...fields } };
}

const R = 'InvalidSelector';
// kube-apiserver's words (k8s.io/apimachinery/pkg/util/validation), as for a Deployment's selector.
const NAME_PART_ERROR =
  "name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')";
const LABEL_VALUE_ERROR =
  "a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')";
const PREFIX_ERROR =
  "prefix part a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')";

describe('row 16: selector and namespaceSelector', () => {
  it.each([
    [{ selector: {} }],
    [{ selector: { matchLabels: { track: 'canary', 'example.com/tier': '' } } }],
    [
      {
        selector: {
          matchExpressions: [
            { key: 'track', operator: 'In', values: ['canary', 'beta'] },
            { key: 'track', operator: 'NotIn', values: ['x'] },
            { key: 'app.kubernetes.io/name', operator: 'Exists' },
            { key: 'legacy', operator: 'DoesNotExist', values: [] },
          ],
        },
        namespaceSelector: { matchLabels: { env: 'prod' } },
      },
    ],
  ])('accepts %j', (fields) => {
    expect(problemsOf(withSelectors(fields))).toEqual([]);
  });

  it('rejects what kube-apiserver rejects in a LabelSelector, each at its path', () => {
    expect(
      problemsOf(
        withSelectors({
          selector: {
            matchLabels: { 'bad key': 'ok', track: 'no spaces' },
            matchExpressions: [
              { key: 'track', operator: 'In' },
              { key: 'track', operator: 'Exists', values: ['x'] },
              { key: 'Example.com/x', operator: 'NotIn', values: ['-bad'] },
              { key: 'track', operator: 'Matches', values: ['x'] },
            ],
          },
          namespaceSelector: { matchExpressions: [{ key: 'env', operator: 'NotIn', values: [] }] },
        }),
      ),
    ).toEqual([
      problemAt('spec.selector.matchLabels["bad key"]', R, `invalid label key "bad key": ${NAME_PART_ERROR}`),
      problemAt(
        'spec.selector.matchLabels["track"]',
        R,
        `invalid label value "no spaces": ${LABEL_VALUE_ERROR}`,
      ),
      problemAt(
        'spec.selector.matchExpressions[0].values',
        R,
        'must be specified when operator is "In" or "NotIn"',
      ),
      problemAt(
        'spec.selector.matchExpressions[1].values',
        R,
        'may not be specified when operator is "Exists" or "DoesNotExist"',
      ),
      problemAt(
        'spec.selector.matchExpressions[2].key',
        R,
        `invalid label key "Example.com/x": ${PREFIX_ERROR}`,
      ),
      problemAt(
        'spec.selector.matchExpressions[2].values[0]',
        R,
        `invalid label value "-bad": ${LABEL_VALUE_ERROR}`,
      ),
      problemAt(
        'spec.selector.matchExpressions[3].operator',
        R,
        'unknown operator "Matches" (supported: "In", "NotIn", "Exists", "DoesNotExist")',
      ),
      problemAt(
        'spec.namespaceSelector.matchExpressions[0].values',
        R,
        'must be specified when operator is "In" or "NotIn"',
      ),
    ]);
  });

  it('normalises the selectors as written; a registration without them has none', () => {
    const selector = { matchLabels: { track: 'canary' } };
    const valid = validateRegistration(withSelectors({ selector }), testCatalog());
    expect(valid.ok && valid.spec.selector).toEqual(selector);
    expect(valid.ok && 'namespaceSelector' in valid.spec).toBe(false);
    const plain = validateRegistration(registration(), testCatalog());
    expect(plain.ok && ('selector' in plain.spec || 'namespaceSelector' in plain.spec)).toBe(false);
  });
});

describe('matchesLabelSelector', () => {
  const labels = { track: 'canary', tier: 'web' };
  it.each([
    [undefined, true],
    [{}, true],
    [{ matchLabels: { track: 'canary' } }, true],
    [{ matchLabels: { track: 'stable' } }, false],
    [{ matchLabels: { missing: '' } }, false],
    [{ matchExpressions: [{ key: 'track', operator: 'In' as const, values: ['a', 'canary'] }] }, true],
    [{ matchExpressions: [{ key: 'track', operator: 'NotIn' as const, values: ['canary'] }] }, false],
    [{ matchExpressions: [{ key: 'missing', operator: 'NotIn' as const, values: ['canary'] }] }, true],
    [{ matchExpressions: [{ key: 'tier', operator: 'Exists' as const }] }, true],
    [{ matchExpressions: [{ key: 'tier', operator: 'DoesNotExist' as const }] }, false],
    [{ matchExpressions: [{ key: 'missing', operator: 'In' as const, values: ['x'] }] }, false],
  ])('%j matches: %s', (selector, expected) => {
    expect(matchesLabelSelector(selector, labels)).toBe(expected);
  });
});
