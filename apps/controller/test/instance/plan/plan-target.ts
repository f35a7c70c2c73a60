/** The instance target of the plan's tests: registration `mailer` of `mailers.example.com`, the default form factor. */
import { validateRegistration } from '@scoby/registration';
import { builtInFormFactors } from '../../../src/process/built-in-form-factors.ts';
import type { InstanceTarget } from '../../../src/instance/plan/instance-target.ts';

/** `spec` adds to the registration's spec (a hook, say); `hookConditionTypes` as the registration declares. */
export function planTarget(spec: Record<string, unknown> = {}): InstanceTarget {
  const formFactors = builtInFormFactors([]);
  const validation = validateRegistration(
    {
      apiVersion: 'scoby.triggermesh.io/v1alpha1',
      kind: 'CRDRegistration',
      metadata: { name: 'mailer' },
      spec: {
        crd: 'mailers.example.com',
        workload: { fromImage: { repo: 'registry.example.com/mailer:1' } },
        ...spec,
      },
    },
    formFactors,
  );
  if (!validation.ok) throw new Error(validation.message);
  const resolved = formFactors.resolve({});
  if (!resolved.ok) throw new Error('no default form factor');
  return {
    registrationName: 'mailer',
    spec: validation.spec,
    plugin: resolved.formFactor.plugin,
    instanceApiVersion: 'example.com/v1',
    features: {
      subresource: true,
      conditionFields: [],
      observedGeneration: true,
      address: false,
      schema: undefined,
    },
    conditionTypes: ['DeploymentReady', 'Ready'],
    hookConditionTypes: [],
    clusterDomain: 'cluster.local',
  };
}
