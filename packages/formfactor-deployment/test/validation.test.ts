import { describe, expect, it } from 'vitest';
import { REGISTRY } from './fixtures.ts';

const PORT = 'spec.workload.formFactor.deployment.service.port';
const TARGET_PORT = 'spec.workload.formFactor.deployment.service.targetPort';
const REPLICAS = 'spec.workload.formFactor.deployment.replicas';

function problem(path: string, detail: string) {
  return { path, reason: 'InvalidFormFactor', message: `${path}: ${detail}` };
}

function problemsOf(block: unknown) {
  return REGISTRY.validateBlock('deployment', block);
}

describe('deployment block validation (docs/spec/registration.md §3.1, §4 row 3)', () => {
  it('accepts the documented values', () => {
    expect(problemsOf({})).toEqual([]);
    expect(problemsOf(null)).toEqual([]);
    expect(problemsOf({ replicas: 0 })).toEqual([]);
    expect(problemsOf({ replicas: 2, service: { port: 1, targetPort: 65535 } })).toEqual([]);
  });

  it.each([0, 65536, '80', 1.5, null])('refuses port %j with the spec message', (port) => {
    expect(problemsOf({ service: { port, targetPort: 8080 } })).toEqual([
      problem(PORT, 'must be an integer between 1 and 65535'),
    ]);
  });

  it('refuses a missing port and targetPort', () => {
    expect(problemsOf({ service: {} })).toEqual([
      problem(PORT, 'must be an integer between 1 and 65535'),
      problem(TARGET_PORT, 'must be an integer between 1 and 65535'),
    ]);
    expect(problemsOf({ service: { port: 80 } })).toEqual([
      problem(TARGET_PORT, 'must be an integer between 1 and 65535'),
    ]);
  });

  it.each([-1, 'two', 1.5])('refuses replicas %j', (replicas) => {
    expect(problemsOf({ replicas })).toEqual([
      problem(REPLICAS, 'must be an integer greater than or equal to 0'),
    ]);
  });

  it('refuses a service that is not an object', () => {
    expect(problemsOf({ service: 80 })).toEqual([
      problem('spec.workload.formFactor.deployment.service', 'must be object'),
    ]);
  });

  it('reports the message through resolve as well', () => {
    expect(REGISTRY.resolve({ deployment: { replicas: 2, service: { port: 0, targetPort: 8080 } } })).toEqual(
      {
        ok: false,
        problems: [problem(PORT, 'must be an integer between 1 and 65535')],
      },
    );
  });
});
