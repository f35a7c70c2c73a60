/**
 * The floor: the least a controller must write for one instance (create its Deployment, create its
 * Service, patch its status to Ready), per instance, on as many workers as the controller runs
 * reconciles at once, through the same DynamicClient, with no informers, queue or rendering. The
 * objects have the shape and size of the controller's own children.
 */
import type { KubeObject } from '@scoby/kube-objects';
import { DynamicClient } from '@scoby/controller-runtime';
import { startApiServerProcess } from './api-server-client.ts';
import { inParallel } from './parallel.ts';
import { watchReadiness } from './readiness.ts';
import { startMeasurement, type Measurement } from './measure.ts';
import {
  DEPLOYMENTS,
  INSTANCES,
  INSTANCE_API_VERSION,
  NAMESPACE,
  REGISTRATION,
  SERVICES,
  createWorld,
  instanceName,
} from './world.ts';

export async function runFloor(count: number, concurrency: number): Promise<Measurement> {
  const server = await startApiServerProcess();
  const kubeConfig = server.kubeConfig();
  const client = new DynamicClient(kubeConfig);
  await createWorld(client, count, concurrency);
  // The uids the owner references need; read before the clock starts, as a controller's cache would hold them.
  const uids = new Map(
    (await client.list(INSTANCES, NAMESPACE)).items.map((item) => [
      item.metadata.name ?? '',
      item.metadata.uid ?? '',
    ]),
  );
  const readiness = await watchReadiness(client, count);

  const measure = await startMeasurement({ server });
  await inParallel(count, concurrency, async (index) => {
    const name = instanceName(index);
    const owner = { name, uid: uids.get(name) ?? '' };
    await client.create(DEPLOYMENTS, deployment(owner));
    await client.create(SERVICES, service(owner));
    await client.patch(
      INSTANCES,
      NAMESPACE,
      name,
      { status: readyStatus(name, new Date().toISOString().replace(/\.\d+Z$/, 'Z')) },
      { subresource: 'status' },
    );
  });
  await readiness.allReady();
  const measurement = await measure();

  readiness.stop();
  client.close();
  await server.stop();
  return measurement;
}

export interface Owner {
  name: string;
  uid: string;
}

function childName(owner: Owner): string {
  return `${REGISTRATION}-${owner.name}`;
}

function selectorLabels(owner: Owner): Record<string, string> {
  return {
    'app.kubernetes.io/name': REGISTRATION,
    'app.kubernetes.io/instance': owner.name,
    'app.kubernetes.io/component': 'workload',
  };
}

function childMetadata(owner: Owner): KubeObject['metadata'] {
  return {
    name: childName(owner),
    namespace: NAMESPACE,
    labels: {
      ...selectorLabels(owner),
      'app.kubernetes.io/part-of': 'scoby-component',
      'app.kubernetes.io/managed-by': 'scoby-controller',
    },
    ownerReferences: [
      {
        apiVersion: INSTANCE_API_VERSION,
        kind: 'Mailer',
        name: owner.name,
        uid: owner.uid,
        controller: true,
        blockOwnerDeletion: true,
      },
    ],
    annotations: {
      'scoby.triggermesh.io/desired-hash': '955736ae401df25d4847fffe01e8c73aa1603a06820787b876a88af4720be798',
    },
  };
}

export function deployment(owner: Owner): KubeObject {
  const index = owner.name.slice(owner.name.lastIndexOf('-') + 1);
  return {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: childMetadata(owner),
    spec: {
      replicas: 2,
      selector: { matchLabels: selectorLabels(owner) },
      template: {
        metadata: { labels: selectorLabels(owner) },
        spec: {
          containers: [
            {
              name: 'adapter',
              image: 'registry.example.com/mailer-adapter:1.4.2',
              env: [
                { name: 'FEATURE_FLAGS', value: 'fast-path' },
                { name: 'MAILER_SENDER', value: `orders-${index}@example.com` },
                { name: 'MAILER_SMTP_PORT', value: '587' },
                { name: 'MAILER_SMTP_TLS', value: 'true' },
                { name: 'POD_NAMESPACE', valueFrom: { fieldRef: { fieldPath: 'metadata.namespace' } } },
                { name: 'REPLY_TO', value: 'noreply@example.com' },
                { name: 'SMTP_SERVER', value: `smtp-${index}.mail.internal` },
              ],
              securityContext: { allowPrivilegeEscalation: false, readOnlyRootFilesystem: true },
            },
          ],
        },
      },
    },
  };
}

export function service(owner: Owner): KubeObject {
  return {
    apiVersion: 'v1',
    kind: 'Service',
    metadata: childMetadata(owner),
    spec: { selector: selectorLabels(owner), ports: [{ port: 80, targetPort: 8080, protocol: 'TCP' }] },
  };
}

export function readyStatus(name: string, now: string): Record<string, unknown> {
  const condition = (type: string, reason: string) => ({
    type,
    status: 'True',
    reason,
    message: '',
    lastTransitionTime: now,
  });
  return {
    conditions: [
      condition('DeploymentReady', 'MinimumReplicasAvailable'),
      condition('Ready', 'CONDITIONSOK'),
      condition('ServiceReady', 'ServiceExist'),
    ],
    address: { url: `http://${REGISTRATION}-${name}.${NAMESPACE}.svc.cluster.local` },
    observedGeneration: 1,
  };
}
