import { describe, expect, it } from 'vitest';
import { validateRegistration } from '../src/validation/validate-registration.ts';
import { P, problemAt, registration, testCatalog } from './fixtures.ts';

describe('problem order and summary (docs/spec/registration.md §4)', () => {
  it('reports every row in table order, reason of the first, messages joined with "; "', () => {
    const input = registration(
      {
        formFactor: { lambda: {} },
        parameterConfiguration: {
          fromSpec: {
            toEnv: [
              { path: 'spec.a', name: 'A', defaultValue: 'x', default: { value: 'y' } },
              { path: 'spec.a', name: 'A', valueFrom: { builtInFunc: { name: 'toUpper' } } },
            ],
            toVolume: [{ path: 'x', name: 'v', mountPath: '/v', mountFrom: {} }],
          },
          add: { toVolume: [{ name: 'v', mountPath: '/w', mountFrom: { secretPath: { secretName: 's' } } }] },
        },
        statusConfiguration: { conditionsFromHook: [{ type: 'Ready' }] },
      },
      { version: 'v2', address: {}, timeout: '10s', capabilities: ['post-reconcile'] },
    );
    const problems = [
      problemAt(
        'spec.workload.formFactor',
        'InvalidFormFactor',
        'unknown form factor "lambda" (available: "deployment", "knativeService")',
      ),
      problemAt(
        `${P}.fromSpec.toVolume[0].path`,
        'InvalidParameterConfiguration',
        'invalid path "x": must start with "spec."',
      ),
      problemAt(
        `${P}.fromSpec.toEnv[1].path`,
        'InvalidParameterConfiguration',
        'duplicate path "spec.a" (also at index 0)',
      ),
      problemAt(
        `${P}.fromSpec.toEnv[1].name`,
        'InvalidParameterConfiguration',
        `duplicate environment variable name "A" (also at ${P}.fromSpec.toEnv[0].name)`,
      ),
      problemAt(
        `${P}.add.toVolume[0].name`,
        'InvalidParameterConfiguration',
        `duplicate volume name "v" (also at ${P}.fromSpec.toVolume[0].name)`,
      ),
      problemAt(
        `${P}.fromSpec.toEnv[0]`,
        'InvalidParameterConfiguration',
        '"defaultValue" and "default" cannot both be set',
      ),
      problemAt(
        `${P}.fromSpec.toVolume[0].mountFrom`,
        'InvalidParameterConfiguration',
        'exactly one of configMapPath, secretPath must be set',
      ),
      problemAt(
        `${P}.fromSpec.toEnv[1].valueFrom.builtInFunc.name`,
        'InvalidBuiltInFunc',
        'unknown built-in function "toUpper" (available: "resolveAddress")',
      ),
      problemAt(
        'spec.workload.statusConfiguration.conditionsFromHook[0].type',
        'InvalidStatusConfiguration',
        '"Ready" is managed by Scoby',
      ),
      problemAt(
        'spec.hook.version',
        'InvalidHookVersion',
        'unsupported hooks API version "v2" (supported: "v1")',
      ),
      problemAt('spec.hook.address', 'InvalidHookAddress', 'one of ref or uri must be set'),
      problemAt(
        'spec.hook.timeout',
        'InvalidHookTimeout',
        '"10s" is not an ISO 8601 duration (for example "PT10S")',
      ),
      problemAt(
        'spec.hook.capabilities[0]',
        'InvalidHookCapability',
        'unknown capability "post-reconcile" (supported: "pre-reconcile", "finalize")',
      ),
    ];
    expect(validateRegistration(input, testCatalog())).toEqual({
      ok: false,
      problems,
      reason: 'InvalidFormFactor',
      message: problems.map((found) => found.message).join('; '),
    });
  });

  it('takes the reason of the first problem when a later row fails alone', () => {
    const result = validateRegistration(
      registration({}, { version: 1, address: { uri: '/v1' }, capabilities: ['x'] }),
      testCatalog(),
    );
    expect(result).toEqual({
      ok: false,
      problems: [
        problemAt(
          'spec.hook.address.uri',
          'InvalidHookAddress',
          '"/v1" must be an absolute http or https URI when no ref is set',
        ),
        problemAt(
          'spec.hook.capabilities[0]',
          'InvalidHookCapability',
          'unknown capability "x" (supported: "pre-reconcile", "finalize")',
        ),
      ],
      reason: 'InvalidHookAddress',
      message:
        'spec.hook.address.uri: "/v1" must be an absolute http or https URI when no ref is set; ' +
        'spec.hook.capabilities[0]: unknown capability "x" (supported: "pre-reconcile", "finalize")',
    });
  });
});
