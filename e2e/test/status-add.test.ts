/**
 * statusConfiguration.add: a rendered value (here the resolved sink) is copied into the instance's
 * status, follows spec edits, disappears with its source, and a path the status schema does not allow
 * is skipped with a Warning Event on the registration.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ADAPTER_IMAGE,
  clusterForScenario,
  scobyAccessYaml,
  statusOf,
  type ClusterHandle,
} from '../src/index.ts';

let cluster: ClusterHandle;
beforeAll(async () => {
  cluster = clusterForScenario();
  await cluster.apply(`
apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  name: forwarders.status.e2e.scoby.dev
spec:
  group: status.e2e.scoby.dev
  scope: Namespaced
  names: {kind: Forwarder, plural: forwarders, singular: forwarder, listKind: ForwarderList}
  versions:
  - name: v1
    served: true
    storage: true
    subresources: {status: {}}
    schema:
      openAPIV3Schema:
        type: object
        properties:
          spec: {type: object, x-kubernetes-preserve-unknown-fields: true}
          status:
            type: object
            properties:
              observedGeneration: {type: integer}
              sinkUri: {type: string}
              conditions:
                type: array
                items:
                  type: object
                  properties:
                    type: {type: string}
                    status: {type: string}
                    reason: {type: string}
                    message: {type: string}
                    lastTransitionTime: {type: string}
---
${scobyAccessYaml({ group: 'status.e2e.scoby.dev', kind: 'Forwarder', plural: 'forwarders' })}
---
apiVersion: v1
kind: Namespace
metadata: {name: status-add}
---
apiVersion: scoby.triggermesh.io/v1alpha1
kind: CRDRegistration
metadata:
  name: forwarder
spec:
  crd: forwarders.status.e2e.scoby.dev
  workload:
    fromImage: {repo: ${ADAPTER_IMAGE}}
    parameterConfiguration:
      fromSpec:
        toEnv:
        - {path: spec.sink, name: K_SINK, valueFrom: {builtInFunc: {name: resolveAddress}}}
    statusConfiguration:
      add:
      - {path: status.sinkUri, valueFrom: {path: spec.sink}}
      - {path: status.other.value, valueFrom: {path: spec.name}}
`);
});
afterAll(() => cluster.close());

const forwarder = (sinkUri: string) => `
apiVersion: status.e2e.scoby.dev/v1
kind: Forwarder
metadata: {name: orders, namespace: status-add}
spec:
  name: orders
  sink: {uri: "${sinkUri}"}
`;

describe('statusConfiguration.add', () => {
  it('copies the rendered sink into status.sinkUri', async () => {
    await cluster.apply(forwarder('https://hooks.example.net/in'));
    const instance = await cluster.waitForObject(
      'status.e2e.scoby.dev/v1',
      'Forwarder',
      'status-add',
      'orders',
      'to show its sink',
      (object) => statusOf(object).sinkUri !== undefined,
    );
    expect(statusOf(instance).sinkUri).toBe('https://hooks.example.net/in');
    expect(statusOf(instance).other).toBeUndefined();
  });

  it('warns once on the registration about the path the status schema does not allow', async () => {
    // Beside the Normal ControllerStarted Event of its controller.
    const events = await cluster.waitFor('a StatusPathNotInSchema Event', async () => {
      const found = await cluster.events('default', 'forwarder', 'CRDRegistration');
      const warnings = found.filter((event) => event.type === 'Warning');
      return warnings.length > 0 ? warnings : undefined;
    });
    expect(events).toEqual([
      {
        type: 'Warning',
        reason: 'StatusPathNotInSchema',
        message:
          'statusConfiguration.add paths not allowed by the status schema of CRD "forwarders.status.e2e.scoby.dev" version v1: status.other.value',
      },
    ]);
  });

  it('follows the spec, and removes the field when the spec value is removed (kubectl patch --type=json)', async () => {
    await cluster.apply(forwarder('https://other.example.net/in'));
    await cluster.waitForObject(
      'status.e2e.scoby.dev/v1',
      'Forwarder',
      'status-add',
      'orders',
      'to show the new sink',
      (object) => statusOf(object).sinkUri === 'https://other.example.net/in',
    );
    const current = await cluster.get('status.e2e.scoby.dev/v1', 'Forwarder', 'status-add', 'orders');
    await cluster.client.jsonPatch(current!, [{ op: 'remove', path: '/spec/sink' }]);
    const instance = await cluster.waitForObject(
      'status.e2e.scoby.dev/v1',
      'Forwarder',
      'status-add',
      'orders',
      'to drop its sink',
      (object) => !('sinkUri' in statusOf(object)),
    );
    expect(statusOf(instance).observedGeneration).toBe(3);
  });
});
