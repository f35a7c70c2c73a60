/**
 * Registrations over time: edited live, deleted (children stay, nothing is reconciled any more, a new
 * registration adopts them), and the CRD deleted and recreated underneath a registration.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ADAPTER_IMAGE,
  adapterOf,
  clusterForScenario,
  conditionOf,
  conditionsOf,
  crdYaml,
  registeredKindYaml,
  type ClusterHandle,
} from '../src/index.ts';

const KIND = { group: 'life.e2e.scoby.dev', kind: 'Worker', plural: 'workers' };
const CRD_NAME = 'workers.life.e2e.scoby.dev';
const REGISTRATION = ['scoby.triggermesh.io/v1alpha1', 'CRDRegistration', undefined, 'worker'] as const;

const registration = (formFactor: string, prefix = '') => `
apiVersion: scoby.triggermesh.io/v1alpha1
kind: CRDRegistration
metadata: {name: worker}
spec:
  crd: ${CRD_NAME}
  workload:
    fromImage: {repo: ${ADAPTER_IMAGE}}
    formFactor: ${formFactor}
    parameterConfiguration: {global: {defaultPrefix: "${prefix}"}}
`;
const worker = (name: string, queue: string) =>
  `{apiVersion: life.e2e.scoby.dev/v1, kind: Worker, metadata: {name: ${name}, namespace: life}, spec: {queue: ${queue}}}`;
const envOf = (object: Parameters<typeof adapterOf>[0]) => adapterOf(object)?.env;

let cluster: ClusterHandle;
beforeAll(async () => {
  cluster = clusterForScenario();
  await cluster.apply(registeredKindYaml(KIND, 'life'));
  await cluster.apply(registration('{deployment: {replicas: 1}}'));
  await cluster.apply(worker('w1', 'jobs'));
  await cluster.waitForObject('apps/v1', 'Deployment', 'life', 'worker-w1', 'to be created');
});
afterAll(() => cluster.close());

describe('registration edited live', () => {
  it('reshapes every instance without a restart', async () => {
    await cluster.replace(
      registration('{deployment: {replicas: 3, service: {port: 8080, targetPort: 8080}}}', 'W_'),
    );
    const deployment = await cluster.waitForObject(
      'apps/v1',
      'Deployment',
      'life',
      'worker-w1',
      'to follow the edit',
      (object) => (object.spec as { replicas?: number }).replicas === 3,
    );
    expect(envOf(deployment)).toEqual([{ name: 'W_QUEUE', value: 'jobs' }]);
    const service = await cluster.waitForObject('v1', 'Service', 'life', 'worker-w1', 'to be created');
    expect(service.spec).toMatchObject({ ports: [{ port: 8080, targetPort: 8080, protocol: 'TCP' }] });
    const instance = await cluster.waitForObject(
      'life.e2e.scoby.dev/v1',
      'Worker',
      'life',
      'w1',
      'to report its address',
      (object) => conditionOf(object, 'ServiceReady')?.status === 'True',
    );
    expect((instance.status as { address?: unknown }).address).toEqual({
      url: 'http://worker-w1.life.svc.cluster.local:8080',
    });
  });

  it('prunes the Service when the edit removes it', async () => {
    // kubectl replace: the edited registration no longer has a service block.
    await cluster.replace(registration('{deployment: {replicas: 3}}', 'W_'));
    await cluster.waitForGone('v1', 'Service', 'life', 'worker-w1');
    const instance = await cluster.waitForObject(
      'life.e2e.scoby.dev/v1',
      'Worker',
      'life',
      'w1',
      'to drop ServiceReady',
      (object) => conditionOf(object, 'ServiceReady') === undefined,
    );
    // On a node with real pods the three replicas may still be rolling out: kstatus's Reconciling
    // says so until Ready (children-and-status.md §8.12), and is not what this edit is about.
    expect(
      conditionsOf(instance)
        .map((condition) => condition.type)
        .filter((type) => type !== 'Reconciling'),
    ).toEqual(['DeploymentReady', 'Ready']);
  });
});

describe('registration deleted', () => {
  it('leaves the children in place and stops reconciling; a new registration adopts them', async () => {
    await cluster.remove({
      apiVersion: REGISTRATION[0],
      kind: REGISTRATION[1],
      metadata: { name: REGISTRATION[3] },
    });
    await cluster.waitForGone(...REGISTRATION);
    await cluster.apply(worker('w1', 'emails'));
    await cluster.quiet();
    const untouched = await cluster.get('apps/v1', 'Deployment', 'life', 'worker-w1');
    expect(envOf(untouched)).toEqual([{ name: 'W_QUEUE', value: 'jobs' }]);

    await cluster.apply(registration('{deployment: {replicas: 1}}'));
    const adopted = await cluster.waitForObject(
      'apps/v1',
      'Deployment',
      'life',
      'worker-w1',
      'to be adopted',
      (object) => (object.spec as { replicas?: number }).replicas === 1,
    );
    expect(envOf(adopted)).toEqual([{ name: 'QUEUE', value: 'emails' }]);
  });
});

describe('CRD deleted and recreated', () => {
  it('reports the missing CRD, then serves the recreated one', async () => {
    await cluster.remove({
      apiVersion: 'apiextensions.k8s.io/v1',
      kind: 'CustomResourceDefinition',
      metadata: { name: CRD_NAME },
    });
    // The API server deletes the instances before the CRD. Collecting their children is the
    // cluster's: kube-controller-manager keeps dependents whose owner's kind is no longer served when
    // the CRD went before it handled them (its isDangling needs a REST mapping); only the simulated
    // collector guarantees it.
    if (cluster.provider === 'memory')
      await cluster.waitForGone('apps/v1', 'Deployment', 'life', 'worker-w1');
    const missing = await cluster.waitForObject(
      ...REGISTRATION,
      'to miss its CRD',
      (object) => conditionOf(object, 'CRDExists')?.status === 'False',
    );
    const notFound = `customresourcedefinitions.apiextensions.k8s.io "${CRD_NAME}" not found`;
    expect(conditionsOf(missing)).toEqual([
      { type: 'CRDExists', status: 'False', reason: 'CRDERROR', message: notFound },
      {
        type: 'ControllerReady',
        status: 'Unknown',
        reason: 'UNKNOWN',
        message: `waiting for CRD "${CRD_NAME}"`,
      },
      { type: 'Ready', status: 'False', reason: 'CRDERROR', message: notFound },
      // Waiting for its CRD (registration.md §5.6).
      { type: 'Reconciling', status: 'True', reason: 'CRDERROR', message: notFound },
    ]);

    await cluster.apply(crdYaml(KIND));
    await cluster.waitForObject(
      ...REGISTRATION,
      'to be Ready again',
      (object) => conditionOf(object, 'Ready')?.status === 'True',
    );
    await cluster.apply(worker('w2', 'reports'));
    const deployment = await cluster.waitForObject(
      'apps/v1',
      'Deployment',
      'life',
      'worker-w2',
      'to be created',
    );
    expect(envOf(deployment)).toEqual([{ name: 'QUEUE', value: 'reports' }]);
  });
});
