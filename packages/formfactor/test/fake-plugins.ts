import type { FormFactorPlugin } from '../src/index.ts';

/** A minimal form factor for registry tests; the real built-ins live in their own packages. */
export function fakePlugin(name: string, overrides: Partial<FormFactorPlugin> = {}): FormFactorPlugin {
  return {
    name,
    blockSchema: { type: 'object' },
    requiredApis: [],
    managedKinds: [],
    conditionTypes: [`${name}Ready`],
    render: () => ({}),
    status: () => ({ conditions: {}, address: { kind: 'unmanaged' } }),
    ...overrides,
  };
}

export const FAKE_DEPLOYMENT = fakePlugin('deployment', {
  blockSchema: {
    type: 'object',
    properties: {
      replicas: { type: 'integer', minimum: 0, default: 1 },
      service: {
        type: 'object',
        required: ['port', 'targetPort'],
        properties: {
          port: { type: 'integer', minimum: 1, maximum: 65535 },
          targetPort: { type: 'integer', minimum: 1, maximum: 65535 },
        },
      },
    },
  },
  fieldMessages: {
    'service.port': 'must be an integer between 1 and 65535',
    'service.targetPort': 'must be an integer between 1 and 65535',
  },
  managedKinds: [
    { apiVersion: 'apps/v1', kind: 'Deployment' },
    { apiVersion: 'v1', kind: 'Service' },
  ],
  conditionTypes: ['DeploymentReady', 'ServiceReady'],
  conditionTypesFor: (block) =>
    (block as { service?: unknown }).service ? ['DeploymentReady', 'ServiceReady'] : ['DeploymentReady'],
});

export const FAKE_KSVC = fakePlugin('knativeService', {
  hookName: 'ksvc',
  requiredApis: ['serving.knative.dev/v1'],
  managedKinds: [{ apiVersion: 'serving.knative.dev/v1', kind: 'Service' }],
  conditionTypes: ['KnativeServiceReady'],
});

export const BUILT_INS = [FAKE_DEPLOYMENT, FAKE_KSVC];
