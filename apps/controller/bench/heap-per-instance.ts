/**
 * What each per-instance structure of the controller costs on the heap (not a test; prints a table).
 * Every structure is built for N instances in this process, as the controller holds it at that size,
 * from objects shaped as kube-apiserver serves them (defaults, managedFields, status), and measured as
 * the growth of the live heap after full collections, divided by N. Needs --expose-gc (the npm script
 * passes it). BENCH_N=10000 (default).
 *
 * Run: npm run bench-heap -w @scoby/controller.
 */
import { readFileSync } from 'node:fs';
import { ObjectStore, stripManagedFields, SupersededVersions } from '@scoby/controller-runtime';
import type { KubeObject } from '@scoby/kube-objects';
import { stripManagedFieldsUnlessLegacy } from '../src/field-manager/legacy-ownership.ts';
import { ChildCachePolicy } from '../src/instance/children/child-cache.ts';
import { LabelIndex } from '../src/instance/label-index.ts';
import { OwnWrites } from '../src/instance/own-writes.ts';
import { ParkingLot } from '../src/instance/parking.ts';
import { deployment, readyStatus, service } from './floor.ts';
import { INSTANCE_API_VERSION, NAMESPACE } from './world.ts';

const count = Number(process.env.BENCH_N ?? 10_000);
const gc = (globalThis as { gc?: () => void }).gc;
if (gc === undefined) throw new Error('run with --expose-gc (npm run bench-heap)');
const load = () => readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ');

const uid = (kind: string, index: number) => `${kind}-0000-4000-8000-${String(index).padStart(12, '0')}`;
const instanceName = (index: number) => `mailer-${String(index).padStart(5, '0')}`;
const managedFields = (manager: string) => [
  {
    manager,
    operation: 'Update',
    apiVersion: 'apps/v1',
    time: '2026-11-26T19:00:00Z',
    fieldsType: 'FieldsV1',
    fieldsV1: {
      'f:metadata': {
        'f:annotations': { '.': {}, 'f:scoby.triggermesh.io/desired-hash': {} },
        'f:labels': {},
      },
      'f:spec': { 'f:replicas': {}, 'f:selector': {}, 'f:template': { 'f:metadata': {}, 'f:spec': {} } },
    },
  },
];

/** A Deployment as kube-apiserver serves it after kube-controller-manager made it Available. */
function servedDeployment(index: number): KubeObject {
  const name = instanceName(index);
  const desired = deployment({ name, uid: uid('mailer', index) });
  const spec = desired.spec as { template: { spec: { containers: Record<string, unknown>[] } } };
  const object = {
    ...desired,
    metadata: {
      ...desired.metadata,
      uid: uid('deploy', index),
      resourceVersion: String(100_000 + index),
      generation: 1,
      creationTimestamp: '2026-11-26T19:00:00Z',
      annotations: { ...desired.metadata.annotations, 'deployment.kubernetes.io/revision': '1' },
      managedFields: [...managedFields('scoby-controller'), ...managedFields('kube-controller-manager')],
    },
    spec: {
      ...(desired.spec as object),
      strategy: { type: 'RollingUpdate', rollingUpdate: { maxUnavailable: '25%', maxSurge: '25%' } },
      revisionHistoryLimit: 10,
      progressDeadlineSeconds: 600,
      template: {
        ...spec.template,
        spec: {
          ...spec.template.spec,
          containers: spec.template.spec.containers.map((container) => ({
            ...container,
            resources: {},
            terminationMessagePath: '/dev/termination-log',
            terminationMessagePolicy: 'File',
            imagePullPolicy: 'IfNotPresent',
          })),
          restartPolicy: 'Always',
          terminationGracePeriodSeconds: 30,
          dnsPolicy: 'ClusterFirst',
          securityContext: {},
          schedulerName: 'default-scheduler',
        },
      },
    },
    status: {
      observedGeneration: 1,
      replicas: 2,
      updatedReplicas: 2,
      readyReplicas: 2,
      availableReplicas: 2,
      conditions: [
        {
          type: 'Available',
          status: 'True',
          lastUpdateTime: '2026-11-26T19:00:05Z',
          lastTransitionTime: '2026-11-26T19:00:05Z',
          reason: 'MinimumReplicasAvailable',
          message: 'Deployment has minimum availability.',
        },
        {
          type: 'Progressing',
          status: 'True',
          lastUpdateTime: '2026-11-26T19:00:05Z',
          lastTransitionTime: '2026-11-26T19:00:00Z',
          reason: 'NewReplicaSetAvailable',
          message: `ReplicaSet "${name}-5d8f7c9b6d" has successfully progressed.`,
        },
      ],
    },
  };
  // Parsed, as the watch delivers it: no string or object shared with other instances but keys.
  return JSON.parse(JSON.stringify(object)) as KubeObject;
}

function servedService(index: number): KubeObject {
  const desired = service({ name: instanceName(index), uid: uid('mailer', index) });
  const third = Math.floor(index / 250) % 250;
  const object = {
    ...desired,
    metadata: {
      ...desired.metadata,
      uid: uid('svc', index),
      resourceVersion: String(200_000 + index),
      creationTimestamp: '2026-11-26T19:00:00Z',
      managedFields: managedFields('scoby-controller'),
    },
    spec: {
      ...(desired.spec as object),
      clusterIP: `10.96.${third}.${index % 250}`,
      clusterIPs: [`10.96.${third}.${index % 250}`],
      type: 'ClusterIP',
      sessionAffinity: 'None',
      ipFamilies: ['IPv4'],
      ipFamilyPolicy: 'SingleStack',
      internalTrafficPolicy: 'Cluster',
    },
    status: { loadBalancer: {} },
  };
  return JSON.parse(JSON.stringify(object)) as KubeObject;
}

function servedInstance(index: number): KubeObject {
  const name = instanceName(index);
  const object = {
    apiVersion: INSTANCE_API_VERSION,
    kind: 'Mailer',
    metadata: {
      name,
      namespace: NAMESPACE,
      uid: uid('mailer', index),
      resourceVersion: String(300_000 + index),
      generation: 1,
      creationTimestamp: '2026-11-26T19:00:00Z',
    },
    spec: { sender: `orders-${index}@example.com`, smtpServer: `smtp-${index}.mail.internal` },
    status: readyStatus(name, '2026-11-26T19:00:05Z'),
  };
  return JSON.parse(JSON.stringify(object)) as KubeObject;
}

function liveHeap(): number {
  gc!();
  gc!();
  return process.memoryUsage().heapUsed;
}

/** Bytes per instance the structure `build` returns holds, while it is held. */
function measure(build: () => unknown): number {
  const before = liveHeap();
  const held = build();
  const after = liveHeap();
  if (held === undefined) throw new Error('nothing held');
  return (after - before) / count;
}

const indexes = Array.from({ length: count }, (_, index) => index);
const storeOf = (objects: KubeObject[]) => {
  const store = new ObjectStore<KubeObject>();
  for (const object of objects) store.upsert(object);
  return store;
};
const slim = (objects: KubeObject[]) => {
  const policy = new ChildCachePolicy(['status']);
  return objects.map((object) => {
    let cached: KubeObject = policy.transform(object);
    policy.upToDate(cached, (smaller) => ((cached = smaller), true));
    return cached;
  });
};

const rows: Array<[string, number, string]> = [];
const row = (label: string, bytes: number, note: string) => rows.push([label, bytes, note]);

row(
  'Deployment cache entry, whole (before)',
  measure(() => storeOf(indexes.map((index) => stripManagedFields(servedDeployment(index))))),
  'managedFields stripped, as the informers kept it',
);
row(
  'Deployment cache entry, slim (now)',
  measure(() => storeOf(slim(indexes.map(servedDeployment)))),
  'metadata, status, fingerprint; strings shared',
);
row(
  'Service cache entry, whole (before)',
  measure(() => storeOf(indexes.map((index) => stripManagedFields(servedService(index))))),
  '',
);
row(
  'Service cache entry, slim (now)',
  measure(() => storeOf(slim(indexes.map(servedService)))),
  '',
);
row(
  'instance cache entry',
  measure(() => storeOf(indexes.map((index) => stripManagedFieldsUnlessLegacy(servedInstance(index))))),
  'spec, metadata and status (rendering reads all three), strings shared',
);
row(
  'label index of children (2 kinds)',
  measure(() => {
    const index = new LabelIndex('app.kubernetes.io/instance', () => undefined);
    for (const i of indexes) {
      index.upsert(service({ name: instanceName(i), uid: uid('mailer', i) }));
    }
    const deployments = new LabelIndex('app.kubernetes.io/instance', () => undefined);
    for (const i of indexes) deployments.upsert(deployment({ name: instanceName(i), uid: uid('mailer', i) }));
    return [index, deployments];
  }),
  'names only; the objects are the cache entries above',
);
row(
  'own writes (uid → resourceVersion)',
  measure(() => {
    const ownWrites = new OwnWrites();
    for (const i of indexes) {
      ownWrites.wrote(servedInstance(i));
      ownWrites.wrote(servedDeployment(i));
      ownWrites.wrote(servedService(i));
    }
    return ownWrites;
  }),
  'worst case (instance and both children awaiting their echo); empty in the steady state',
);
row(
  'superseded versions',
  measure(() => {
    const superseded = new SupersededVersions();
    for (const i of indexes) superseded.wrote(`${NAMESPACE}/${instanceName(i)}`, String(i), String(i + 1));
    return superseded;
  }),
  'one status write awaiting its echo per instance; empty in the steady state',
);
row(
  'parking',
  measure(() => {
    const parking = new ParkingLot();
    for (const i of indexes) parking.park(`${NAMESPACE}/${instanceName(i)}`, `[1,{},{},null,"rev-${i % 3}"]`);
    return parking;
  }),
  'only parked instances (a permanent hook error); none in the bench',
);
row(
  'work queue entry',
  measure(() => {
    const dirty = new Map<string, number>();
    for (const i of indexes) dirty.set(`${NAMESPACE}/${instanceName(i)}`, i);
    return dirty;
  }),
  'a queued key (the queue is empty in the steady state)',
);
row('metrics labels', 0, 'no per-instance label: series are per registration and per resource');

console.log(
  `heap per instance at N = ${count} (load ${load()}); live heap growth after full collections / N`,
);
for (const [label, bytes, note] of rows) {
  console.log(`  ${label.padEnd(42)} ${bytes.toFixed(0).padStart(6)} B  ${note}`);
}
