/**
 * The primer: a cluster admin installs a CRD and grants Scoby access to it, registers it with Scoby,
 * and a user creates an instance. Scoby runs it as a Deployment behind a Service, passes the spec as
 * PRIMER_* environment variables, and reports the instance Ready.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ADAPTER_IMAGE,
  adapterOf,
  clusterForScenario,
  conditionsOf,
  statusOf,
  type ClusterHandle,
} from '../src/index.ts';

let cluster: ClusterHandle;
beforeAll(() => {
  cluster = clusterForScenario();
});
afterAll(() => cluster.close());

const LABELS = {
  'app.kubernetes.io/name': 'primer',
  'app.kubernetes.io/instance': 'hello',
  'app.kubernetes.io/component': 'workload',
  'app.kubernetes.io/part-of': 'scoby-component',
  'app.kubernetes.io/managed-by': 'scoby-controller',
};
const SELECTOR = {
  'app.kubernetes.io/name': 'primer',
  'app.kubernetes.io/instance': 'hello',
  'app.kubernetes.io/component': 'workload',
};

describe('primer', () => {
  it('runs a registered kind as a Deployment and a Service with the spec as environment', async () => {
    await cluster.apply(`
apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  name: kuards.primer.scoby.dev
spec:
  group: primer.scoby.dev
  scope: Namespaced
  names: {kind: Kuard, plural: kuards, singular: kuard, listKind: KuardList}
  versions:
  - name: v1
    served: true
    storage: true
    subresources: {status: {}}
    schema:
      openAPIV3Schema:
        type: object
        properties:
          spec:
            type: object
            properties:
              greeting: {type: string}
              times: {type: integer}
          status:
            type: object
            properties:
              observedGeneration: {type: integer}
              address:
                type: object
                properties:
                  url: {type: string}
              conditions:
                type: array
                items:
                  type: object
                  required: [type, status]
                  properties:
                    type: {type: string}
                    status: {type: string}
                    reason: {type: string}
                    message: {type: string}
                    lastTransitionTime: {type: string, format: date-time}
---
apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRole
metadata:
  name: scoby-kuards
  labels:
    scoby.triggermesh.io/crdregistration: "true"
rules:
- apiGroups: [primer.scoby.dev]
  resources: [kuards, kuards/status]
  verbs: [get, list, watch, update, patch]
---
apiVersion: scoby.triggermesh.io/v1alpha1
kind: CRDRegistration
metadata:
  name: primer
spec:
  crd: kuards.primer.scoby.dev
  workload:
    fromImage:
      repo: ${ADAPTER_IMAGE}
    formFactor:
      deployment:
        replicas: 1
        service:
          port: 80
          targetPort: 8080
    parameterConfiguration:
      global:
        defaultPrefix: PRIMER_
---
apiVersion: v1
kind: Namespace
metadata:
  name: primer
`);
    const registration = await cluster.waitForObject(
      'scoby.triggermesh.io/v1alpha1',
      'CRDRegistration',
      undefined,
      'primer',
      'to be Ready',
      (object) =>
        conditionsOf(object).some((condition) => condition.type === 'Ready' && condition.status === 'True'),
    );
    expect(conditionsOf(registration)).toEqual([
      { type: 'CRDExists', status: 'True', reason: 'CRDEXIST', message: '' },
      { type: 'ControllerReady', status: 'True', reason: 'CONTROLLERSTARTED', message: '' },
      { type: 'Ready', status: 'True', reason: 'CONDITIONSOK', message: '' },
    ]);
    expect(statusOf(registration).observedGeneration).toBe(1);
    expect(registration.metadata.finalizers).toEqual(['scoby.triggermesh.io/finalizer']);

    const [instance] = await cluster.apply(`
apiVersion: primer.scoby.dev/v1
kind: Kuard
metadata:
  name: hello
  namespace: primer
spec:
  greeting: Hello, Scoby
  times: 3
`);
    const owner = {
      apiVersion: 'primer.scoby.dev/v1',
      kind: 'Kuard',
      name: 'hello',
      uid: instance?.metadata.uid,
      controller: true,
      blockOwnerDeletion: true,
    };

    const deployment = await cluster.waitForObject(
      'apps/v1',
      'Deployment',
      'primer',
      'primer-hello',
      'to be created',
    );
    expect(deployment.metadata.labels).toEqual(LABELS);
    expect(deployment.metadata.ownerReferences).toEqual([owner]);
    // Scoby writes one annotation; a real Deployment controller adds deployment.kubernetes.io/revision.
    const scobyAnnotations = Object.keys(deployment.metadata.annotations ?? {}).filter(
      (key) => !key.startsWith('deployment.kubernetes.io/'),
    );
    expect(scobyAnnotations).toEqual(['scoby.triggermesh.io/desired-hash']);
    expect(deployment.spec).toMatchObject({
      replicas: 1,
      selector: { matchLabels: SELECTOR },
      template: { metadata: { labels: SELECTOR } },
    });
    expect(adapterOf(deployment)).toMatchObject({
      name: 'adapter',
      image: ADAPTER_IMAGE,
      env: [
        { name: 'PRIMER_GREETING', value: 'Hello, Scoby' },
        { name: 'PRIMER_TIMES', value: '3' },
      ],
      terminationMessagePolicy: 'FallbackToLogsOnError',
      securityContext: { allowPrivilegeEscalation: false, readOnlyRootFilesystem: true },
    });
    expect(adapterOf(deployment)?.env).toHaveLength(2);

    const service = await cluster.waitForObject('v1', 'Service', 'primer', 'primer-hello', 'to be created');
    expect(service.metadata.labels).toEqual(LABELS);
    expect(service.metadata.ownerReferences).toEqual([owner]);
    expect(service.spec).toMatchObject({
      selector: SELECTOR,
      ports: [{ port: 80, targetPort: 8080, protocol: 'TCP' }],
    });

    const ready = await cluster.waitForObject(
      'primer.scoby.dev/v1',
      'Kuard',
      'primer',
      'hello',
      'to be Ready',
      (object) =>
        conditionsOf(object).some((condition) => condition.type === 'Ready' && condition.status === 'True'),
    );
    expect(conditionsOf(ready)).toEqual([
      { type: 'DeploymentReady', status: 'True', reason: 'MinimumReplicasAvailable', message: '' },
      { type: 'Ready', status: 'True', reason: 'CONDITIONSOK', message: '' },
      { type: 'ServiceReady', status: 'True', reason: 'ServiceExist', message: '' },
    ]);
    expect(statusOf(ready).observedGeneration).toBe(1);
    expect(statusOf(ready).address).toEqual({ url: 'http://primer-hello.primer.svc.cluster.local' });
  });

  it('deleting the instance lets garbage collection remove its children', async () => {
    await cluster.remove({
      apiVersion: 'primer.scoby.dev/v1',
      kind: 'Kuard',
      metadata: { namespace: 'primer', name: 'hello' },
    });
    await cluster.waitForGone('primer.scoby.dev/v1', 'Kuard', 'primer', 'hello');
    await cluster.waitForCollected('apps/v1', 'Deployment', 'primer', 'primer-hello');
    await cluster.waitForCollected('v1', 'Service', 'primer', 'primer-hello');
  });
});
