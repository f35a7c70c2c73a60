/**
 * What the controller's caches keep of a child (docs/spec/children-and-status.md §5.2), asserted the same way
 * on the in-memory API server and on the real control plane.
 */
import { expect } from 'vitest';
import type { ResourceRef } from '@scoby/controller-runtime';
import type { KubeObject } from '@scoby/kube-objects';
import type { RunningProcess } from '../../src/process/options.ts';
import { crdFor, type ClusterVerbs } from './cluster.ts';
import { namespaceObject, registrationObject, registrationTarget, waitForCondition } from './scoby.ts';

export const DEPLOYMENTS: ResourceRef = {
  group: 'apps',
  version: 'v1',
  resource: 'deployments',
  namespaced: true,
};
export const SERVICES: ResourceRef = { group: '', version: 'v1', resource: 'services', namespaced: true };

/**
 * The world of these tests: in `namespace`, a Greeter CRD of `group`, the registration `registration`
 * (a Deployment with env GREETING from spec.greeting, and a Service) and the Greeter `main` saying
 * hello, Ready; its children are named `<registration>-main`.
 */
export async function greetWorld(
  cluster: ClusterVerbs,
  options: { group: string; namespace: string; registration: string },
): Promise<{ apiVersion: string; kind: string; namespace: string; name: string }> {
  const { group, namespace, registration } = options;
  await cluster.apply(namespaceObject(namespace));
  await cluster.apply(crdFor({ group, kind: 'Greeter', plural: 'greeters' }));
  await cluster.apply(
    registrationObject(registration, {
      crd: `greeters.${group}`,
      workload: {
        fromImage: { repo: 'registry.example.com/greeter:1' },
        formFactor: { deployment: { service: { port: 80, targetPort: 8080 } } },
        parameterConfiguration: { fromSpec: { toEnv: [{ path: 'spec.greeting', name: 'GREETING' }] } },
      },
    }),
  );
  await waitForCondition(cluster, registrationTarget(registration), 'Ready', 'True');
  const instance = { apiVersion: `${group}/v1`, kind: 'Greeter', namespace, name: 'main' };
  await cluster.apply({
    apiVersion: instance.apiVersion,
    kind: instance.kind,
    metadata: { name: instance.name, namespace },
    spec: { greeting: 'hello' },
  });
  await waitForCondition(cluster, instance, 'Ready', 'True');
  return instance;
}

/** The only metadata a slim cached child may hold. */
const SLIM_METADATA = [
  'annotations',
  'deletionTimestamp',
  'finalizers',
  'generation',
  'labels',
  'name',
  'namespace',
  'ownerReferences',
  'resourceVersion',
  'uid',
];

/**
 * The top-level keys of a slim child, and of its spec what is kept: of a Deployment the selector of
 * its Pods, which the controller reads to say why it is not available; of other kinds no spec.
 */
function slimKeys(object: KubeObject): { keys: string[]; specKeys: string[] } {
  const deployment = object.kind === 'Deployment';
  return {
    keys: ['apiVersion', 'kind', 'metadata', ...(deployment ? ['spec'] : []), 'status'],
    specKeys: deployment ? ['selector'] : [],
  };
}

/** True when the cached child is the slim form: frozen, metadata, status and the kept spec only. */
export function isSlimCached(object: KubeObject | undefined): boolean {
  if (object === undefined || !Object.isFrozen(object) || !Object.isFrozen(object.metadata)) return false;
  const { keys, specKeys } = slimKeys(object);
  return (
    Object.keys(object).every((key) => keys.includes(key)) &&
    Object.keys(object.spec ?? {}).every((key) => specKeys.includes(key)) &&
    Object.keys(object.metadata).every((key) => SLIM_METADATA.includes(key))
  );
}

/** Asserts the exact shape of a slim cached child. */
export function expectSlim(object: KubeObject | undefined): void {
  expect(object).toBeDefined();
  expect(Object.isFrozen(object)).toBe(true);
  expect(Object.isFrozen(object?.metadata)).toBe(true);
  const { keys, specKeys } = slimKeys(object!);
  expect(Object.keys(object ?? {}).sort()).toEqual(keys);
  expect(Object.keys(object?.spec ?? {})).toEqual(specKeys);
  const metadataKeys = Object.keys(object?.metadata ?? {});
  expect(metadataKeys.filter((key) => !SLIM_METADATA.includes(key))).toEqual([]);
  expect(metadataKeys).toEqual(
    expect.arrayContaining(['name', 'namespace', 'uid', 'resourceVersion', 'labels']),
  );
  // Of the annotations only the hash is read; the fingerprint attests the others.
  expect(Object.keys(object?.metadata.annotations ?? {})).toEqual(['scoby.triggermesh.io/desired-hash']);
}

/** Every empty object and array inside `value`. */
function emptiesIn(value: unknown): object[] {
  if (typeof value !== 'object' || value === null) return [];
  const fields = Object.values(value);
  if (fields.length === 0) return [value];
  return fields.flatMap(emptiesIn);
}

/**
 * Asserts that the slim children share their empty objects and arrays (§5.2): every one inside
 * them is the same frozen empty object or array, and there is at least one (a Service's
 * `status.loadBalancer`).
 */
export function expectSharedEmpties(children: readonly KubeObject[]): void {
  const empties = children.flatMap(emptiesIn);
  expect(empties.length).toBeGreaterThan(0);
  expect(empties.every((empty) => Object.isFrozen(empty))).toBe(true);
  const objects = new Set(empties.filter((empty) => !Array.isArray(empty)));
  const arrays = new Set(empties.filter((empty) => Array.isArray(empty)));
  expect(objects.size).toBeLessThanOrEqual(1);
  expect(arrays.size).toBeLessThanOrEqual(1);
}

/** Waits until the controller caches the child slim, and returns it. */
export function waitForSlim(
  cluster: ClusterVerbs,
  controller: RunningProcess,
  resource: ResourceRef,
  namespace: string,
  name: string,
): Promise<KubeObject> {
  return cluster.waitFor(`${resource.resource} ${namespace}/${name} cached slim`, async () => {
    const cached = controller.cached(resource, namespace, name);
    return isSlimCached(cached) ? cached : undefined;
  });
}

/** The env of the first container of a Deployment. */
export function containerEnv(deployment: KubeObject | undefined): { name: string; value?: string }[] {
  const spec = deployment?.spec as
    { template?: { spec?: { containers?: { env?: { name: string; value?: string }[] }[] } } } | undefined;
  return spec?.template?.spec?.containers?.[0]?.env ?? [];
}

/**
 * A kubectl-style edit (read, change, PUT) of the value of the Deployment's env variable `name`:
 * the change Scoby's cached fingerprint must notice though its cache holds no spec.
 */
export async function editEnvValue(
  cluster: ClusterVerbs,
  namespace: string,
  deploymentName: string,
  name: string,
  value: string,
): Promise<void> {
  const target = { apiVersion: 'apps/v1', kind: 'Deployment', namespace, name: deploymentName };
  await cluster.edit(target, (edited) => {
    const env = containerEnv(edited).find((variable) => variable.name === name);
    if (env === undefined) throw new Error(`Deployment ${namespace}/${deploymentName} has no env ${name}`);
    env.value = value;
    delete edited.metadata.managedFields;
  });
}
