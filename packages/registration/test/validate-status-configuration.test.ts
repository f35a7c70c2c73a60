import { describe, expect, it } from 'vitest';
import { problemAt, problemsOf, registration, testCatalog } from './fixtures.ts';

const S = 'spec.workload.statusConfiguration';
const R = 'InvalidStatusConfiguration';
const withStatus = (statusConfiguration: unknown, formFactor?: unknown) =>
  registration(formFactor === undefined ? { statusConfiguration } : { statusConfiguration, formFactor });
const types = (...names: string[]) => ({ conditionsFromHook: names.map((type) => ({ type })) });

describe('statusConfiguration.add paths (rows 4 and 11)', () => {
  it('accepts a status path filled from a spec path', () => {
    expect(
      problemsOf(withStatus({ add: [{ path: '$.status.sinkUri', valueFrom: { path: '.spec.sink' } }] })),
    ).toEqual([]);
  });

  it('row 4: malformed paths are InvalidStatusConfiguration', () => {
    const add = [{ path: 'spec.x', valueFrom: { path: 'status.y' } }];
    expect(problemsOf(withStatus({ add }))).toEqual([
      problemAt(`${S}.add[0].path`, R, 'invalid path "spec.x": must start with "status."'),
      problemAt(`${S}.add[0].valueFrom.path`, R, 'invalid path "status.y": must start with "spec."'),
    ]);
  });

  it('row 11: rejects status.conditions, status.observedGeneration and anything below them', () => {
    const add = [
      'status.conditions',
      '$.status.observedGeneration',
      'status.conditions.x',
      'status.conditionsText',
    ].map((path) => ({ path, valueFrom: { path: 'spec.a' } }));
    expect(problemsOf(withStatus({ add }))).toEqual([
      problemAt(`${S}.add[0].path`, R, '"status.conditions" is managed by Scoby'),
      problemAt(`${S}.add[1].path`, R, '"$.status.observedGeneration" is managed by Scoby'),
      problemAt(`${S}.add[2].path`, R, '"status.conditions.x" is managed by Scoby'),
    ]);
  });
});

describe('conditionsFromHook (row 11, docs/spec/registration.md §3.3)', () => {
  it.each(['QuotaChecked', 'A', 'a.b-c_d9', 'KnativeServiceReady'])(
    'accepts %s with the default form factor',
    (type) => {
      expect(problemsOf(withStatus(types(type)))).toEqual([]);
    },
  );

  it.each(['', '9Lives', 'Ends-', 'has space', 'Quota/Checked'])('rejects the malformed type %j', (type) => {
    expect(problemsOf(withStatus(types(type)))).toEqual([
      problemAt(
        `${S}.conditionsFromHook[0].type`,
        R,
        `invalid condition type ${JSON.stringify(type)}: must match ^[A-Za-z]([A-Za-z0-9_.-]*[A-Za-z0-9])?$`,
      ),
    ]);
  });

  it('rejects Ready', () => {
    expect(problemsOf(withStatus(types('QuotaChecked', 'Ready')))).toEqual([
      problemAt(`${S}.conditionsFromHook[1].type`, R, '"Ready" is managed by Scoby'),
    ]);
  });

  it("rejects kstatus's Reconciling and Stalled, which Scoby writes (children-and-status.md §8.12)", () => {
    expect(problemsOf(withStatus(types('Reconciling', 'QuotaChecked', 'Stalled')))).toEqual([
      problemAt(`${S}.conditionsFromHook[0].type`, R, '"Reconciling" is managed by Scoby'),
      problemAt(`${S}.conditionsFromHook[2].type`, R, '"Stalled" is managed by Scoby'),
    ]);
  });

  it('rejects the condition types of the selected form factor', () => {
    expect(problemsOf(withStatus(types('DeploymentReady', 'ServiceReady')))).toEqual([
      problemAt(
        `${S}.conditionsFromHook[0].type`,
        R,
        '"DeploymentReady" is reported by form factor "deployment"',
      ),
      problemAt(
        `${S}.conditionsFromHook[1].type`,
        R,
        '"ServiceReady" is reported by form factor "deployment"',
      ),
    ]);
    expect(
      problemsOf(withStatus(types('DeploymentReady', 'KnativeServiceReady'), { knativeService: {} })),
    ).toEqual([
      problemAt(
        `${S}.conditionsFromHook[1].type`,
        R,
        '"KnativeServiceReady" is reported by form factor "knativeService"',
      ),
    ]);
  });

  it("rejects a plugin's condition types", () => {
    const catalog = { ...testCatalog(['cronJob']), conditionTypes: () => ['JobScheduled'] };
    expect(problemsOf(withStatus(types('JobScheduled'), { cronJob: {} }), catalog)).toEqual([
      problemAt(`${S}.conditionsFromHook[0].type`, R, '"JobScheduled" is reported by form factor "cronJob"'),
    ]);
  });

  it('rejects repeats', () => {
    expect(problemsOf(withStatus(types('QuotaChecked', 'Other', 'QuotaChecked')))).toEqual([
      problemAt(
        `${S}.conditionsFromHook[2].type`,
        R,
        'duplicate condition type "QuotaChecked" (also at index 0)',
      ),
    ]);
  });

  it('skips the form-factor rule when the form factor is undetermined (rows 1–2 report it)', () => {
    expect(problemsOf(withStatus(types('DeploymentReady'), { lambda: {} }))).toEqual([
      problemAt(
        'spec.workload.formFactor',
        'InvalidFormFactor',
        'unknown form factor "lambda" (available: "deployment", "knativeService")',
      ),
    ]);
  });
});
