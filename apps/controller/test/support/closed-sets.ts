/**
 * A registration with values outside the closed sets of docs/spec/registration.md §4 (hook version,
 * capabilities, failure policy, built-in functions), and one with a required field missing and numbers
 * out of range, as the API server answers their creation: the CRD's schema refuses them at once, before
 * any controller sees them. `scoby validate` must give the same causes.
 */
import type { KubeObject } from '@scoby/kube-objects';
import { ApiError } from '@scoby/controller-runtime';
import type { ClusterVerbs } from './cluster.ts';
import { registrationObject } from './scoby.ts';

export const OUT_OF_SET: KubeObject = registrationObject('out-of-set', {
  crd: 'kuards.extensions.triggermesh.io',
  workload: {
    fromImage: { repo: 'gcr.io/kuar-demo/kuard-amd64:blue' },
    parameterConfiguration: {
      fromSpec: {
        toEnv: [
          { path: 'spec.refToAddress', name: 'SINK', valueFrom: { builtInFunc: { name: 'resolveAddres' } } },
        ],
      },
    },
  },
  hook: {
    version: 'v2',
    address: { uri: 'http://hook.example.com' },
    capabilities: ['prereconcile', 'finalize'],
    failurePolicy: 'ignore',
  },
});

/** The causes the API server gives, sorted (kube-apiserver orders them by Go map iteration). */
export const OUT_OF_SET_CAUSES = [
  'spec.hook.capabilities[0]: Unsupported value: "prereconcile": supported values: "pre-reconcile", "finalize", "finalization"',
  'spec.hook.failurePolicy: Unsupported value: "ignore": supported values: "Fail", "Ignore"',
  'spec.hook.version: Unsupported value: "v2": supported values: "v1", "1", "1"',
  'spec.workload.parameterConfiguration.fromSpec.toEnv[0].valueFrom.builtInFunc.name: Unsupported value: "resolveAddres": supported values: "resolveAddress"',
];

export const OUT_OF_RANGE: KubeObject = registrationObject('out-of-range', {
  crd: 'kuards.extensions.triggermesh.io',
  workload: {
    fromImage: {},
    formFactor: { deployment: { replicas: -1, service: { port: 99999 } } },
  },
});

const DEPLOYMENT = 'spec.workload.formFactor.deployment';

/** Sorted, as OUT_OF_SET_CAUSES. */
export const OUT_OF_RANGE_CAUSES = [
  `${DEPLOYMENT}.replicas: Invalid value: -1: ${DEPLOYMENT}.replicas in body should be greater than or equal to 0`,
  `${DEPLOYMENT}.service.port: Invalid value: 99999: ${DEPLOYMENT}.service.port in body should be less than or equal to 65535`,
  `${DEPLOYMENT}.service.targetPort: Required value`,
  'spec.workload.fromImage.repo: Required value',
];

export async function refusal(
  cluster: ClusterVerbs,
  registration: KubeObject = OUT_OF_SET,
): Promise<{ code: number; causes: string[] }> {
  try {
    await cluster.apply(registration);
  } catch (error) {
    if (!(error instanceof ApiError)) throw error;
    const prefix = `CRDRegistration.scoby.triggermesh.io "${registration.metadata.name}" is invalid: [`;
    const causes = error.message.startsWith(prefix)
      ? error.message.slice(prefix.length, -1).split(', spec.')
      : [error.message];
    return { code: error.code, causes: causes.map((cause, i) => (i === 0 ? cause : `spec.${cause}`)).sort() };
  }
  return { code: 201, causes: [] };
}
