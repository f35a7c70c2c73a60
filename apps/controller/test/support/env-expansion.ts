/**
 * The `$(VAR)` scenario of docs/spec/env.md §8, shared by the in-memory and the real control plane
 * suites: a registration value that refers to a variable sorting after it, a spec value that spells a
 * reference, and the env order the kubelet needs to expand the one and not the other.
 */
import type { EnvVar, KubeObject } from '@scoby/kube-objects';
import type { ClusterVerbs } from './cluster.ts';
import { crdFor } from './cluster.ts';
import { adapterOf, registrationObject, registrationTarget, waitForCondition } from './scoby.ts';

export const EXPANSION_GROUP = 'expansion.example.com';
export const EXPANSION_PLURAL = 'mailers';
export const EXPANSION_REGISTRATION = 'mailer-expansion';

export const expansionCrd = crdFor({ group: EXPANSION_GROUP, kind: 'Mailer', plural: EXPANSION_PLURAL });

export const expansionRegistration = registrationObject(EXPANSION_REGISTRATION, {
  crd: `${EXPANSION_PLURAL}.${EXPANSION_GROUP}`,
  workload: {
    fromImage: { repo: 'registry.example.com/mailer:1' },
    formFactor: { deployment: { replicas: 1 } },
    parameterConfiguration: {
      add: {
        toEnv: [
          { name: 'AUTHOR_DEFAULT', value: 'noreply@$(POD_NAMESPACE).example.com' },
          { name: 'POD_NAMESPACE', valueFrom: { field: { fieldPath: 'metadata.namespace' } } },
        ],
      },
    },
  },
});

export function expansionInstance(namespace: string, name: string): KubeObject {
  return {
    apiVersion: `${EXPANSION_GROUP}/v1`,
    kind: 'Mailer',
    metadata: { namespace, name },
    // Spec-derived: stays literal ($$-escaped), whatever it spells.
    spec: { author: '$(POD_NAMESPACE)', level: 'info' },
  };
}

/** POD_NAMESPACE before AUTHOR_DEFAULT, which refers to it; every other variable in byte order. */
export const EXPANSION_ENV: EnvVar[] = [
  { name: 'AUTHOR', value: '$$(POD_NAMESPACE)' },
  { name: 'LEVEL', value: 'info' },
  { name: 'POD_NAMESPACE', valueFrom: { fieldRef: { apiVersion: 'v1', fieldPath: 'metadata.namespace' } } },
  { name: 'AUTHOR_DEFAULT', value: 'noreply@$(POD_NAMESPACE).example.com' },
];

/** Registers the kind and waits for the registration. */
export async function registerExpansion(cluster: ClusterVerbs): Promise<void> {
  await cluster.apply(expansionCrd);
  await cluster.apply(expansionRegistration);
  await waitForCondition(cluster, registrationTarget(EXPANSION_REGISTRATION), 'Ready', 'True');
}

/** The env of the instance's Deployment, once written. */
export async function deploymentEnv(
  cluster: ClusterVerbs,
  namespace: string,
  name: string,
): Promise<unknown> {
  const deployment = await cluster.waitFor(`Deployment ${namespace}/${EXPANSION_REGISTRATION}-${name}`, () =>
    cluster.get('apps/v1', 'Deployment', namespace, `${EXPANSION_REGISTRATION}-${name}`),
  );
  return adapterOf(deployment).env;
}
