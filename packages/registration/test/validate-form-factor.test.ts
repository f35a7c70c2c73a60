import { describe, expect, it } from 'vitest';
import { selectFormFactor } from '../src/index.ts';
import type { FormFactorCatalog } from '../src/types.ts';
import { problemAt, problemsOf, registration, testCatalog } from './fixtures.ts';

const withFormFactor = (formFactor: unknown) => registration({ formFactor });
const FF = 'spec.workload.formFactor';

describe('form-factor checks (docs/spec/registration.md §4 rows 1–3)', () => {
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

  it('row 2: reports the default as unknown when the catalog has no deployment form factor', () => {
    const withoutDeployment: FormFactorCatalog = { ...testCatalog(), names: () => ['knativeService'] };
    expect(problemsOf(withFormFactor({}), withoutDeployment)).toEqual([
      problemAt(FF, 'InvalidFormFactor', 'unknown form factor "deployment" (available: "knativeService")'),
    ]);
  });
});

describe('selectFormFactor (docs/spec/registration.md §3.1)', () => {
  const available = ['deployment', 'knativeService'];

  it.each([[undefined], [{}], [{ deployment: null, knativeService: null }], [{ lambda: null }]])(
    'selects the deployment with an empty block for %j',
    (formFactor) => {
      expect(selectFormFactor(formFactor, available)).toEqual({ ok: true, name: 'deployment', block: {} });
    },
  );

  it('selects the one key set, with its block', () => {
    expect(selectFormFactor({ deployment: null, knativeService: { minScale: 1 } }, available)).toEqual({
      ok: true,
      name: 'knativeService',
      block: { minScale: 1 },
    });
  });

  it('returns the problems of rows 1 and 2 in table order', () => {
    expect(selectFormFactor({ knativeService: {}, lambda: 0 }, available)).toEqual({
      ok: false,
      problems: [
        problemAt(
          FF,
          'InvalidFormFactor',
          'exactly one form factor may be set, found "knativeService", "lambda"',
        ),
        problemAt(
          FF,
          'InvalidFormFactor',
          'unknown form factor "lambda" (available: "deployment", "knativeService")',
        ),
      ],
    });
  });
});
