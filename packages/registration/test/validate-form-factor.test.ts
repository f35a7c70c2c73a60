import { describe, expect, it } from 'vitest';
import { problemAt, problemsOf, registration, testCatalog } from './fixtures.ts';

const withFormFactor = (formFactor: unknown) => registration({ formFactor });
const FF = 'spec.workload.formFactor';

describe('form-factor checks (registration.md §4 rows 1–3)', () => {
  it.each([
    [undefined],
    [{}],
    [{ deployment: {} }],
    [{ knativeService: { minScale: 1 } }],
    [{ deployment: null, knativeService: {} }],
  ])('accepts %j', (formFactor) => {
    expect(problemsOf(withFormFactor(formFactor))).toEqual([]);
  });

  it('row 1: rejects two form factors, naming the keys in byte order', () => {
    expect(problemsOf(withFormFactor({ knativeService: {}, deployment: { replicas: 1 } }))).toEqual([
      problemAt(
        FF,
        'InvalidFormFactor',
        'exactly one form factor may be set, found "deployment", "knativeService"',
      ),
    ]);
  });

  it('row 2: rejects an unknown form factor, listing built-ins then plugins', () => {
    expect(problemsOf(withFormFactor({ lambda: {} }))).toEqual([
      problemAt(
        FF,
        'InvalidFormFactor',
        'unknown form factor "lambda" (available: "deployment", "knativeService")',
      ),
    ]);
    expect(problemsOf(withFormFactor({ lambda: {} }), testCatalog(['cronJob']))).toEqual([
      problemAt(
        FF,
        'InvalidFormFactor',
        'unknown form factor "lambda" (available: "deployment", "knativeService", "cronJob")',
      ),
    ]);
  });

  it('accepts a plugin form factor known to the catalog', () => {
    expect(
      problemsOf(withFormFactor({ cronJob: { schedule: '* * * * *' } }), testCatalog(['cronJob'])),
    ).toEqual([]);
  });

  it('rows 1 and 2 together, in table order', () => {
    expect(problemsOf(withFormFactor({ lambda: {}, deployment: {} }))).toEqual([
      problemAt(FF, 'InvalidFormFactor', 'exactly one form factor may be set, found "deployment", "lambda"'),
      problemAt(
        FF,
        'InvalidFormFactor',
        'unknown form factor "lambda" (available: "deployment", "knativeService")',
      ),
    ]);
  });

  it('row 3: reports the block problems of the catalog', () => {
    expect(problemsOf(withFormFactor({ deployment: { service: { port: 80, targetPort: 70000 } } }))).toEqual([
      problemAt(
        `${FF}.deployment.service.targetPort`,
        'InvalidFormFactor',
        'must be an integer between 1 and 65535',
      ),
    ]);
  });
});
