import { describe, expect, it } from 'vitest';
import type { KubeObject } from '@scoby/kube-objects';
import { normalizeChild } from '../../../src/instance/children/normalize.ts';
import { selectPrunable } from '../../../src/instance/children/prune.ts';
import {
  DESIRED_HASH_ANNOTATION,
  desiredHash,
  isUpToDate,
  withDesiredHash,
} from '../../../src/instance/children/update-detection.ts';

const UID = '7c1e2a4b-5d6f-4a81-9b0c-2e3f4a5b6c7d';
const owner = {
  apiVersion: 'notify.example.com/v1',
  kind: 'Mailer',
  name: 'orders',
  uid: UID,
  controller: true,
  blockOwnerDeletion: true,
};
const labels = {
  'app.kubernetes.io/name': 'mailer',
  'app.kubernetes.io/instance': 'orders',
  'app.kubernetes.io/component': 'workload',
  'app.kubernetes.io/part-of': 'scoby-component',
  'app.kubernetes.io/managed-by': 'scoby-controller',
};

function deployment(
  extra: Partial<KubeObject['metadata']> = {},
  spec: unknown = { replicas: 2 },
): KubeObject {
  return {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name: 'mailer-orders', namespace: 'shop', labels, ownerReferences: [owner], ...extra },
    spec,
  };
}

describe('normalising children (§4.4)', () => {
  it('strips status and server-owned metadata, forces namespace, labels and the controller reference', () => {
    const fromHook: KubeObject = {
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      metadata: {
        name: 'mailer-orders',
        namespace: 'elsewhere',
        uid: 'u',
        resourceVersion: '5',
        generation: 2,
        creationTimestamp: 'x',
        managedFields: [],
        selfLink: 's',
        deletionTimestamp: 'd',
        deletionGracePeriodSeconds: 3,
        labels: { 'app.kubernetes.io/name': 'changed', extra: 'kept' },
        ownerReferences: [
          { apiVersion: 'v1', kind: 'Other', name: 'o', uid: 'other', controller: true },
          { apiVersion: 'v1', kind: 'Peer', name: 'p', uid: 'peer' },
        ],
      },
      spec: { replicas: 1 },
      status: { readyReplicas: 1 },
    };
    expect(normalizeChild(fromHook, { namespace: 'shop', labels, ownerReference: owner })).toEqual({
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      metadata: {
        name: 'mailer-orders',
        namespace: 'shop',
        labels: { ...labels, extra: 'kept' },
        ownerReferences: [owner, { apiVersion: 'v1', kind: 'Peer', name: 'p', uid: 'peer' }],
      },
      spec: { replicas: 1 },
    });
  });
});

describe('update detection (§5.2)', () => {
  it('hashes the compact JSON of the desired object without the hash annotation', () => {
    const desired = deployment();
    expect(desiredHash(desired)).toMatch(/^[0-9a-f]{64}$/);
    expect(desiredHash(withDesiredHash(desired))).toBe(desiredHash(desired));
    expect(desiredHash(deployment({}, { replicas: 3 }))).not.toBe(desiredHash(desired));
  });

  it('is up to date when controlled, same hash and no drift; extra server fields are ignored', () => {
    const desired = deployment();
    const written = withDesiredHash(desired);
    const existing = {
      ...written,
      metadata: { ...written.metadata, uid: 'x', resourceVersion: '9' },
      spec: { replicas: 2, strategy: { type: 'RollingUpdate' } },
    };
    expect(isUpToDate(existing, desired, UID)).toBe(true);
  });

  it('detects a missing object, a foreign controller, a changed hash and manual drift', () => {
    const desired = deployment();
    expect(isUpToDate(undefined, desired, UID)).toBe(false);
    expect(
      isUpToDate(
        withDesiredHash(deployment({ ownerReferences: [{ ...owner, uid: 'other' }] })),
        desired,
        UID,
      ),
    ).toBe(false);
    const stale = withDesiredHash(deployment());
    stale.metadata.annotations = { [DESIRED_HASH_ANNOTATION]: 'stale' };
    expect(isUpToDate(stale, desired, UID)).toBe(false);
    const drifted = withDesiredHash(deployment());
    drifted.spec = { replicas: 5 };
    expect(isUpToDate(drifted, desired, UID)).toBe(false);
    const relabelled = withDesiredHash(deployment());
    relabelled.metadata.labels = { ...labels, 'app.kubernetes.io/instance': 'other' };
    expect(isUpToDate(relabelled, desired, UID)).toBe(false);
  });

  it('compares arrays element by element with equal length', () => {
    const desired = deployment(
      {},
      { template: { spec: { containers: [{ name: 'adapter', env: [{ name: 'A', value: '1' }] }] } } },
    );
    const longer = withDesiredHash(desired);
    longer.spec = {
      template: {
        spec: {
          containers: [
            {
              name: 'adapter',
              env: [
                { name: 'A', value: '1' },
                { name: 'B', value: '2' },
              ],
            },
          ],
        },
      },
    };
    expect(isUpToDate(longer, desired, UID)).toBe(false);
  });
});

describe('pruning (§6)', () => {
  it('selects controlled objects the final children map does not name', () => {
    const service: KubeObject = {
      apiVersion: 'v1',
      kind: 'Service',
      metadata: { name: 'mailer-orders', ownerReferences: [owner] },
    };
    const ksvc: KubeObject = {
      apiVersion: 'serving.knative.dev/v1',
      kind: 'Service',
      metadata: { name: 'mailer-orders', ownerReferences: [owner] },
    };
    const foreign: KubeObject = {
      apiVersion: 'v1',
      kind: 'Service',
      metadata: { name: 'other', ownerReferences: [{ ...owner, uid: 'x' }] },
    };
    const kept = deployment();
    expect(selectPrunable([kept, service, ksvc, foreign], { deployment: deployment(), ksvc }, UID)).toEqual([
      service,
    ]);
  });
});
