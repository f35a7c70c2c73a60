/**
 * A registration with values outside the closed sets of docs/spec/registration.md §4 (hook version,
 * capabilities, failure policy, built-in functions), as the API server answers its creation: the CRD's enums refuse
 * it at once, before any controller sees it.
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

export async function refusal(cluster: ClusterVerbs): Promise<{ code: number; causes: string[] }> {
  try {
    await cluster.apply(OUT_OF_SET);
  } catch (error) {
    if (!(error instanceof ApiError)) throw error;
    const prefix = 'CRDRegistration.scoby.triggermesh.io "out-of-set" is invalid: [';
    const causes = error.message.startsWith(prefix)
      ? error.message.slice(prefix.length, -1).split(', spec.')
      : [error.message];
    return { code: error.code, causes: causes.map((cause, i) => (i === 0 ? cause : `spec.${cause}`)).sort() };
  }
  return { code: 201, causes: [] };
}
