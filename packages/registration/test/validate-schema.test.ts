import { describe, expect, it } from 'vitest';
import { validateRegistration } from '../src/validation/validate-registration.ts';
import { problemAt, problemsOf, registration, testCatalog } from './fixtures.ts';

describe('schema checks (docs/spec/registration.md §1 "required", §3 types)', () => {
  it('rejects a registration without spec', () => {
    expect(problemsOf({ metadata: { name: 'x' } })).toEqual([problemAt('spec', 'InvalidSpec', 'required')]);
  });

  it('rejects a value that is not an object', () => {
    expect(problemsOf('mailer')).toEqual([
      problemAt('registration', 'InvalidSpec', 'must be of type object'),
    ]);
  });

  it('rejects a missing crd and a missing workload together', () => {
    expect(problemsOf({ spec: {} })).toEqual([
      problemAt('spec.crd', 'InvalidSpec', 'required'),
      problemAt('spec.workload', 'InvalidSpec', 'required'),
    ]);
  });

  it('rejects a missing image', () => {
    expect(problemsOf({ spec: { crd: 'a.b', workload: { fromImage: {} } } })).toEqual([
      problemAt('spec.workload.fromImage.repo', 'InvalidSpec', 'required'),
    ]);
    expect(problemsOf({ spec: { crd: 'a.b', workload: {} } })).toEqual([
      problemAt('spec.workload.fromImage', 'InvalidSpec', 'required'),
    ]);
  });

  it('rejects an empty image and an empty crd', () => {
    expect(problemsOf({ spec: { crd: '', workload: { fromImage: { repo: '' } } } })).toEqual([
      problemAt('spec.crd', 'InvalidSpec', 'must not be empty'),
      problemAt('spec.workload.fromImage.repo', 'InvalidSpec', 'must not be empty'),
    ]);
  });

  it('reports wrong JSON types with array indices as [i]', () => {
    expect(
      problemsOf(
        registration({ parameterConfiguration: { fromSpec: { toEnv: [{ path: 'spec.a' }, { path: 3 }] } } }),
      ),
    ).toEqual([
      problemAt(
        'spec.workload.parameterConfiguration.fromSpec.toEnv[1].path',
        'InvalidSpec',
        'must be of type string',
      ),
    ]);
  });

  it('accepts hook.version as integer or string, and nothing else', () => {
    const hook = (version: unknown) => ({ version, address: { uri: 'http://h/' } });
    expect(problemsOf(registration({}, hook(true)))).toEqual([
      problemAt('spec.hook.version', 'InvalidSpec', 'must be of type integer or string'),
    ]);
  });

  it('requires the non-empty selector fields of §3.2', () => {
    const add = { toEnv: [{ name: 'A', valueFrom: { configMap: { name: '' } } }] };
    expect(problemsOf(registration({ parameterConfiguration: { add } }))).toEqual([
      problemAt(
        `spec.workload.parameterConfiguration.add.toEnv[0].valueFrom.configMap.key`,
        'InvalidSpec',
        'required',
      ),
      problemAt(
        `spec.workload.parameterConfiguration.add.toEnv[0].valueFrom.configMap.name`,
        'InvalidSpec',
        'must not be empty',
      ),
    ]);
  });

  it('leaves form-factor blocks to their form factor, but checks formFactor is an object', () => {
    expect(problemsOf(registration({ formFactor: 'deployment' }))).toEqual([
      problemAt('spec.workload.formFactor', 'InvalidSpec', 'must be of type object'),
    ]);
    expect(
      problemsOf(registration({ formFactor: { deployment: { service: { port: 0, targetPort: 80 } } } })),
    ).toEqual([
      problemAt(
        'spec.workload.formFactor.deployment.service.port',
        'InvalidFormFactor',
        'must be an integer between 1 and 65535',
      ),
    ]);
  });

  it('joins messages with "; " and takes the first reason', () => {
    expect(validateRegistration({ spec: {} }, testCatalog())).toEqual({
      ok: false,
      problems: [
        problemAt('spec.crd', 'InvalidSpec', 'required'),
        problemAt('spec.workload', 'InvalidSpec', 'required'),
      ],
      reason: 'InvalidSpec',
      message: 'spec.crd: required; spec.workload: required',
    });
  });
});
