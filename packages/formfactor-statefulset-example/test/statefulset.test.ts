import { createFormFactorRegistry, renderInputFor, type FormFactorRegistry } from '@scoby/formfactor';
import type { KubeObject } from '@scoby/kube-objects';
import { describe, expect, it } from 'vitest';
import statefulSetFormFactor, { type StatefulSetBlock } from '../src/index.ts';

const INSTANCE = {
  apiVersion: 'notify.example.com/v1',
  kind: 'Mailer',
  namespace: 'shop',
  name: 'orders',
  uid: '7c1e2a4b-5d6f-4a81-9b0c-2e3f4a5b6c7d',
};
const SELECTOR = {
  'app.kubernetes.io/name': 'mailer',
  'app.kubernetes.io/instance': 'orders',
  'app.kubernetes.io/component': 'workload',
};
const METADATA = {
  name: 'mailer-orders',
  namespace: 'shop',
  labels: {
    ...SELECTOR,
    'app.kubernetes.io/part-of': 'scoby-component',
    'app.kubernetes.io/managed-by': 'scoby-controller',
  },
  ownerReferences: [
    {
      apiVersion: 'notify.example.com/v1',
      kind: 'Mailer',
      name: 'orders',
      uid: '7c1e2a4b-5d6f-4a81-9b0c-2e3f4a5b6c7d',
      controller: true,
      blockOwnerDeletion: true,
    },
  ],
};
const ADAPTER = {
  name: 'adapter',
  image: 'registry.example.com/mailer-adapter:1.4.2',
  terminationMessagePolicy: 'FallbackToLogsOnError',
  securityContext: { allowPrivilegeEscalation: false, readOnlyRootFilesystem: true },
};

// Registered exactly as the controller registers a loaded plugin: next to the built-ins, not as one.
function registry(): FormFactorRegistry {
  const created = createFormFactorRegistry({ builtIns: [], plugins: [statefulSetFormFactor] });
  if (!created.ok) throw new Error(created.messages.join('; '));
  return created.registry;
}
const REGISTRY = registry();

function blockOf(block: unknown): StatefulSetBlock {
  const resolution = REGISTRY.resolve({ statefulSet: block });
  if (!resolution.ok) throw new Error(resolution.problems.map((problem) => problem.message).join('; '));
  return resolution.formFactor.block as unknown as StatefulSetBlock;
}

function render(block: unknown): Record<string, KubeObject> {
  return statefulSetFormFactor.render(
    renderInputFor({
      block: blockOf(block),
      registration: { name: 'mailer', image: 'registry.example.com/mailer-adapter:1.4.2' },
      instance: INSTANCE,
      container: { env: [], volumes: [], volumeMounts: [] },
    }),
  );
}

describe('statefulSet block', () => {
  it('defaults to one replica and refuses unknown fields with the validator’s message', () => {
    expect(blockOf({})).toStrictEqual({ replicas: 1 });
    expect(REGISTRY.validateBlock('statefulSet', { replica: 2, port: 0 })).toStrictEqual([
      {
        path: 'spec.workload.formFactor.statefulSet.replica',
        reason: 'InvalidFormFactor',
        message: 'spec.workload.formFactor.statefulSet.replica: must NOT have additional properties',
      },
      {
        path: 'spec.workload.formFactor.statefulSet.port',
        reason: 'InvalidFormFactor',
        message: 'spec.workload.formFactor.statefulSet.port: must be >= 1',
      },
    ]);
  });
});

describe('statefulSet children', () => {
  it('renders a headless Service and a StatefulSet that names it', () => {
    expect(render({ replicas: 3, port: 8080 })).toStrictEqual({
      service: {
        apiVersion: 'v1',
        kind: 'Service',
        metadata: METADATA,
        spec: {
          clusterIP: 'None',
          selector: SELECTOR,
          ports: [{ port: 8080, targetPort: 8080, protocol: 'TCP' }],
        },
      },
      statefulSet: {
        apiVersion: 'apps/v1',
        kind: 'StatefulSet',
        metadata: METADATA,
        spec: {
          serviceName: 'mailer-orders',
          replicas: 3,
          selector: { matchLabels: SELECTOR },
          template: { metadata: { labels: SELECTOR }, spec: { containers: [ADAPTER] } },
        },
      },
    });
  });

  it('gives the headless Service no ports without a port', () => {
    expect(render({})['service']!.spec).toStrictEqual({ clusterIP: 'None', selector: SELECTOR, ports: [] });
  });
});

describe('statefulSet status', () => {
  const children = render({ replicas: 3, port: 8080 });
  const observedWith = (status: unknown): KubeObject => ({ ...children['statefulSet']!, status });
  const statusOf = (observed: KubeObject | undefined, block: unknown = { replicas: 3, port: 8080 }) =>
    statefulSetFormFactor.status({
      block: blockOf(block),
      children,
      observed: { statefulSet: observed },
      clusterDomain: 'cluster.local',
    });

  it('is ready when every desired replica is ready, and addresses the port', () => {
    expect(statusOf(observedWith({ readyReplicas: 3 }))).toStrictEqual({
      conditions: { StatefulSetReady: { status: 'True', reason: 'AllReplicasReady', message: '' } },
      address: { kind: 'url', url: 'http://mailer-orders.shop.svc.cluster.local:8080' },
    });
  });

  it('counts ready replicas while starting', () => {
    expect(statusOf(observedWith({ readyReplicas: 1 })).conditions).toStrictEqual({
      StatefulSetReady: { status: 'False', reason: 'ReplicasNotReady', message: '1 of 3 replicas are ready' },
    });
    expect(statusOf(observedWith({})).conditions).toStrictEqual({
      StatefulSetReady: { status: 'False', reason: 'ReplicasNotReady', message: '0 of 3 replicas are ready' },
    });
  });

  it('is unknown before the StatefulSet exists and leaves the address alone without a port', () => {
    expect(statusOf(undefined, { replicas: 3 })).toStrictEqual({
      conditions: { StatefulSetReady: { status: 'Unknown', reason: 'StatefulSetUnknown', message: '' } },
      address: { kind: 'unmanaged' },
    });
  });
});
