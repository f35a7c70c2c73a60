/** Shared test fixtures: a hand-built form-factor catalogue and registration builders. */
import { parse } from 'yaml';
import type { FormFactorCatalog } from '../src/types.ts';
import type { Problem } from '../src/validation/problem.ts';
import { validateRegistration } from '../src/validation/validate-registration.ts';

function deploymentBlockProblems(block: unknown): Problem[] {
  const service = (block as { service?: { port?: unknown; targetPort?: unknown } }).service;
  return (['port', 'targetPort'] as const).flatMap((field) => {
    const value = service?.[field];
    if (
      service === undefined ||
      (Number.isInteger(value) && (value as number) >= 1 && (value as number) <= 65535)
    )
      return [];
    const path = `spec.workload.formFactor.deployment.service.${field}`;
    return [
      { path, reason: 'InvalidFormFactor', message: `${path}: must be an integer between 1 and 65535` },
    ];
  });
}

/** deployment and knativeService as docs/spec/registration.md §3.1 describes them, plus an optional plugin. */
export function testCatalog(plugins: string[] = []): FormFactorCatalog {
  return {
    names: () => ['deployment', 'knativeService', ...plugins],
    validateBlock: (name, block) => (name === 'deployment' ? deploymentBlockProblems(block) : []),
    defaultBlock: (name, block) =>
      name === 'deployment'
        ? { replicas: 1, ...(block as object) }
        : { ...(block as Record<string, unknown>) },
    conditionTypes: (name) =>
      name === 'deployment'
        ? ['DeploymentReady', 'ServiceReady']
        : name === 'knativeService'
          ? ['KnativeServiceReady']
          : [],
  };
}

export const MAILER_EXAMPLE_YAML = `
apiVersion: scoby.triggermesh.io/v1alpha1
kind: CRDRegistration
metadata:
  name: mailer
spec:
  crd: mailers.notify.example.com
  workload:
    fromImage:
      repo: registry.example.com/mailer-adapter:1.4.2
    formFactor:
      deployment:
        replicas: 2
        service:
          port: 80
          targetPort: 8080
    parameterConfiguration:
      global:
        defaultPrefix: MAILER_
      fromSpec:
        toEnv:
        - path: spec.smtp.passwordRef
          name: SMTP_PASSWORD
          valueFrom:
            secretPath:
              name: spec.smtp.passwordRef.secretName
              key: spec.smtp.passwordRef.key
      add:
        toEnv:
        - name: POD_NAMESPACE
          valueFrom:
            field:
              fieldPath: metadata.namespace
    statusConfiguration:
      conditionsFromHook:
      - type: QuotaChecked
  hook:
    version: v1
    address:
      ref: {apiVersion: v1, kind: Service, name: mailer-hook, namespace: hooks}
      uri: "http://:8080/v1"
    timeout: PT5S
    capabilities: [pre-reconcile, finalize]
`;

export const mailerExample = (): Record<string, unknown> =>
  parse(MAILER_EXAMPLE_YAML) as Record<string, unknown>;

type Workload = Record<string, unknown>;

/** A minimal valid registration with the given workload fields (beyond fromImage) and hook. */
export function registration(workload: Workload = {}, hook?: Record<string, unknown>): unknown {
  const spec: Record<string, unknown> = {
    crd: 'mailers.notify.example.com',
    workload: { fromImage: { repo: 'registry.example.com/mailer-adapter:1.4.2' }, ...workload },
  };
  if (hook !== undefined) spec['hook'] = hook;
  return {
    apiVersion: 'scoby.triggermesh.io/v1alpha1',
    kind: 'CRDRegistration',
    metadata: { name: 'mailer' },
    spec,
  };
}

export const withParameters = (parameterConfiguration: unknown): unknown =>
  registration({ parameterConfiguration });

/** A valid hook with the given fields replaced. */
export const withHook = (fields: Record<string, unknown>): unknown =>
  registration(
    {},
    {
      version: 'v1',
      address: { ref: { apiVersion: 'v1', kind: 'Service', name: 'h', namespace: 'hooks' } },
      ...fields,
    },
  );

export const P = 'spec.workload.parameterConfiguration';

/** The problems of a registration (empty when valid), for exact comparison. */
export function problemsOf(input: unknown, catalog: FormFactorCatalog = testCatalog()): Problem[] {
  const result = validateRegistration(input, catalog);
  return result.ok ? [] : result.problems;
}

export const problemAt = (path: string, reason: string, detail: string): Problem => ({
  path,
  reason,
  message: `${path}: ${detail}`,
});
